"""`rulecraft play`: a person plays against agents in the terminal.

Each turn shows the board (the last move marked), a status line and the best few moves
by points; the person types a move's number or its text, `moves` for every move, `hint`,
`undo`, `board` or `quit` (Ctrl-C too), which offers to save the record.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

import typer
from rich.text import Text

from engine.analysis.phrases import counted
from engine.cli import play_moves, play_save, play_summary
from engine.cli.app import app
from engine.cli.common import WithOption, fail, usage_error
from engine.cli.games import check_players, describe_events, load_game_or_exit
from engine.cli.play_moves import resolve  # noqa: F401 - where tests and callers find it
from engine.cli.screen import Screen, piece_text, points_text, wants_colour
from engine.kernel import IllegalMove, RuleFailure
from engine.kernel.zones import pool_top_shown, render_zones

HELP = ("Type a move's number or its text; `moves` lists every move, `hint` the best ones "
        "with their rules, `undo` takes back your last move, `board` redraws, `quit` leaves.")
_BOARD_ROOM = 9  # lines besides the board and the moves: status, hand, echoes, prompt
UNDO = object()  # what `ask` returns when the person types `undo`
now = time.monotonic  # the seconds of play are measured on this clock (tests replace it)


@dataclass
class Session:
    """One game at the terminal, and what undoing and saving need."""

    state: object
    ruleset: object
    overlays: list
    record: Optional[str]
    agent: str
    ref: str
    screen: Screen
    human: int = 0
    # (the state before each of the human's moves, where its round's events began)
    snapshots: list = field(default_factory=list)
    undone: list = field(default_factory=list)  # the record's `undone` entries
    round_from: int = 0  # index in state.events where the current round began
    last: object = None  # the data of the last move (its cells are marked)
    started: float = field(default_factory=lambda: now())  # for a ruleset's `clock`

    def seconds(self) -> int:
        """Whole seconds of play since the game began (the clock keeps running on undo)."""
        return int(now() - self.started)

    def prompt(self, text: str) -> str:
        """A line typed at the prompt (on the screen's stream)."""
        return typer.prompt(text, default="", show_default=False, err=self.screen.err)

    def confirm(self, text: str) -> bool:
        """A yes or no, no by default."""
        return typer.confirm(text, default=False, err=self.screen.err)


def show(session: Session) -> None:
    """The board, then a status line: round, whose turn, scores, pool, pile, hands."""
    state, screen, human = session.state, session.screen, session.human
    screen.say("")
    topology = state.game.model.topology
    screen.runs(topology.render_runs(state.board, session.last, screen.styled, screen.width()))
    zones = state.game.model.zone_names
    line = Text(f"round {state.round.number}  ")
    who = ("game over" if state.is_over else "your turn" if state.to_move == human
           else f"P{state.to_move + 1} to move")
    line.append(who, style="turn")
    line.append("   scores ")
    for s, v in enumerate(state.scores):
        line.append(f"P{s + 1} {v}" + ("  " if s < state.n - 1 else ""),
                    style="you" if s == human else "")
    if state.game.model.reads_clock:
        line.append(f"   time {session.seconds()} s")
    line.append(f"   {zones.get('pool', 'pool')} {len(state.pool)}")
    if pool_top_shown(state):
        line.append(" (top ").append(piece_text(state.pool[-1], screen)).append(")")
    if state.pile:
        line.append(f"   {zones.get('pile', 'pile')} ")
        line.append(piece_text(state.pile[-1], screen))
    screen.say(line)
    for text in render_zones(state, human):  # the zones the ruleset declares
        screen.say(text)
    hand = state.hands[human]
    others = ", ".join(f"P{s + 1} {len(h)}" for s, h in enumerate(state.hands) if s != human)
    if hand or others:
        text = Text(f"your {zones.get('hand', 'hand')}: ")
        for p in hand:
            text.append(piece_text(p, screen)).append(" ")
        text.append("(empty)" if not hand else "")
        text.append(f"  others hold {others}" if others else "", style="note")
        screen.say(text)


def _best_count(session: Session) -> int:
    """How many moves fit under the board on this terminal (3 to 9)."""
    topology = session.state.game.model.topology
    board = len(topology.render_runs(session.state.board, width=session.screen.width()))
    return max(3, min(9, session.screen.height() - board - _BOARD_ROOM))


def ask(session: Session):
    """The human's move, UNDO, or None to quit."""
    state, screen = session.state, session.screen
    rows = play_moves.ranked(state)
    play_moves.show_best(screen, state, rows, _best_count(session))
    while True:
        text = session.prompt("your move")
        word = text.strip().lower()
        if not word:
            continue
        if word in ("quit", "q", "exit"):
            return None
        if word in ("hint", "h", "?"):
            hint(session, rows)
        elif word in ("moves", "list", "m"):
            play_moves.show_all(screen, state, rows)
        elif word == "board":
            show(session)
            play_moves.show_best(screen, state, rows, _best_count(session))
        elif word == "undo":
            if not state.game.model.undo:
                screen.say(no_undo(session.ruleset), style="problem")
            elif session.snapshots:
                return UNDO
            else:
                screen.say("nothing to undo yet", style="problem")
        elif word == "help":
            screen.say(HELP)
        else:
            try:
                return play_moves.resolve(state, text, rows, session.ruleset)
            except IllegalMove as exc:
                screen.say(f"not a legal move: {exc}", style="problem")


def no_undo(ruleset) -> str:
    """Why `undo` is refused: the ruleset's `play.undo: false`, with where it is set."""
    where = ruleset.where("play", "undo") if hasattr(ruleset, "where") else None
    return ("this ruleset does not allow undo (`play.undo: false`"
            + (f", {where.path}:{where.line}" if where else "") + ")")


def hint(session: Session, rows, count: int = 5) -> None:
    """The best moves with the rules (and their lines) behind each point; alone, also
    the solver's move, with others the search's."""
    state, screen = session.state, session.screen
    if state.n == 1:
        from engine.players.solver import hint as solver_hint

        move = solver_hint(state)
        if move is not None:
            screen.say(f"  the solver plays: {getattr(move, 'text', move)}")
    else:  # with others: the search's move and its share of the visits
        from engine.players.mcts import hint_text

        screen.say(hint_text(state))
    for gain, move, events in rows[:count]:
        line = Text(f"  {move.text:<28} ")
        line.append(points_text(gain, 4))
        line.append(f"  {describe_events(events, state.to_move)}", style="note")
        screen.say(line)


def undo(session: Session) -> None:
    """Take back the human's last move and every reply since; the record keeps them
    under `undone`."""
    before, round_from = session.snapshots.pop()
    kept = len(before.log)
    session.undone.append({"after": kept, "moves": session.state.history[kept:]})
    session.state, session.round_from = before, round_from
    session.last = before.log[-1][0].data if before.log else None
    session.screen.say(f"taken back: {counted(len(session.undone[-1]['moves']), 'move')}",
                       style="note")


def step(session: Session, move) -> None:
    """Apply a move, echo it, and sum up the round if it ended."""
    state, screen = session.state, session.screen
    mover, ended, before = state.to_move, state.round, len(state.events)
    if state.game.model.reads_clock:  # the ruleset reads `clock`: the seconds of play
        state.set_clock(session.seconds())
    events = state.apply(move)
    session.last = move.data
    line = Text(f"P{mover + 1}: {move.text}  ", style="you" if mover == session.human else "")
    line.append(points_text(sum(e.points for e in events if e.player == mover)))
    why = ", ".join(("" if e.player == mover else f"P{e.player + 1} ") + f"{e.rule} {e.points:+d}"
                    for e in events)  # the mover's own points without a seat name
    line.append(f"  {why}" if why else "", style="note")
    screen.say(line)
    if state.round is not ended or state.is_over:
        # the next round's `round_start` points belong to it, not to the round that ended
        starts = {r.name for r in state.game.model.scoring if r.on == "round_start"}
        split = next((i for i in range(before, len(state.events))
                      if state.events[i].rule in starts), len(state.events))
        play_summary.round_over(screen, state, ended, state.events[session.round_from:split])
        session.round_from = split
        session.last = None
        if not state.is_over:
            screen.say(f"round {state.round.number} begins: P{state.to_move + 1} to move",
                       style="title")


def _play(session: Session, agents: dict) -> bool:
    """Play until the game is over (True) or the human quits (False)."""
    while not session.state.is_over:
        state = session.state
        if state.to_move == session.human:
            show(session)
            move = ask(session)
            if move is None:
                return False
            if move is UNDO:
                undo(session)
                continue
            session.snapshots.append((state.clone(), session.round_from))
        else:
            move = agents[state.to_move].choose(state)
        step(session, move)
    return True


@app.command("play")
def play_command(
    ruleset: str = typer.Argument(..., help="A ruleset id, game name or file."),
    overlays: WithOption = None,
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Players (you are P1)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal."),
    deal: Optional[str] = typer.Option(None, "--deal", help="The order of every piece, by name."),
    agent: str = typer.Option("mcts", "--agent", "--opponents",
                              help="The agent of the other seats (a spec, as `simulate "
                                   "--agents` takes; `greedy`: at once, easy to beat)."),
    record: Optional[str] = typer.Option(None, "--record", help="Write the record to this file."),
    no_color: bool = typer.Option(False, "--no-color", help="Plain text, no colour."),
    as_json: bool = typer.Option(False, "--json",
                                 help="Print the record as JSON at the end (the game itself "
                                      "is drawn on stderr)."),
) -> None:
    """Play against agents in the terminal."""
    from engine.players.agents import agent_seed, make_agent

    ruleset_obj, game = load_game_or_exit(ruleset, overlays)
    n = check_players(game, players)
    screen = Screen(wants_colour(no_color, sys.stderr if as_json else sys.stdout), err=as_json)
    if record:
        play_save.check_record_option(record, lambda q: typer.confirm(q, default=False,
                                                                      err=as_json))
    try:
        state = game.new_game(n, seed, deal=deal)
        agents = {s: make_agent(agent, agent_seed(seed, s)) for s in range(1, n)}
    except RuleFailure as exc:
        fail(str(exc))
    except ValueError as exc:
        usage_error(str(exc))
    session = Session(state, ruleset_obj, list(overlays or []), record, agent, ruleset, screen)
    _greet(session)
    _line_editing()
    finished = _guarded_play(session, agents)
    if finished:
        show(session)
        play_summary.game_over(screen, session.state)
    _say_undone(session)
    _keep(session, finished, as_json)


def _say_undone(session: Session) -> None:
    """Undo is never silent: the summary says it, and the record keeps the moves."""
    if session.undone:
        taken = sum(len(entry["moves"]) for entry in session.undone)
        session.screen.say(f"{counted(taken, 'move')} taken back with undo (kept in the record"
                           " under `undone`)", style="note")


def _greet(session: Session) -> None:
    """The ruleset, its overlays and the seats, then how to play."""
    rs, n = session.ruleset, session.state.n
    on = list(getattr(rs, "overlays", None) or session.overlays)
    with_ = f" with {', '.join(on)}" if on else ""
    session.screen.say(f"{rs.title} ({rs.id}){with_}; {counted(n, 'player')}; you are P1.",
                       style="title")
    session.screen.say(HELP, style="note")
    if not session.state.game.model.undo:
        session.screen.say(no_undo(rs), style="note")


def _line_editing() -> None:
    """Line editing and the Up arrow's history at the prompt, on a terminal."""
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - importing it is what gives input() editing
        except ImportError:  # (not on every platform; play works without it)
            pass


def _guarded_play(session: Session, agents: dict) -> bool:
    """Play, and never lose the game: Ctrl-C leaves (offering to save); a rule failing
    or any unexpected error first writes the game to a recovery file and says where."""
    try:
        return _play(session, agents)
    except (typer.Abort, KeyboardInterrupt, EOFError):  # Ctrl-C, or the input ended
        session.screen.say("")
        return False
    except (typer.Exit, typer.BadParameter):
        raise
    except RuleFailure as exc:
        _say_recovered(session)
        fail(str(exc))
    except Exception:
        _say_recovered(session)
        raise  # the global handler says what went wrong, in one line


def _say_recovered(session: Session) -> None:
    path = play_save.recover(session)
    where = f"the game so far is saved in {path}" if path else "the game could not be saved"
    typer.echo(f"play stopped: {where}", err=True)


def _keep(session: Session, finished: bool, as_json: bool) -> None:
    """Save the record where `--record` says, or ask (when the game was left early);
    with `--json`, print it."""
    say = session.screen.say
    if session.record:
        play_save.save(session, session.record, say)
    elif not finished and not as_json:
        play_save.ask_and_save(session, session.prompt, session.confirm, say)
    if as_json:
        typer.echo(json.dumps(play_save.record_of(session), indent=2))
    else:
        say("bye")
