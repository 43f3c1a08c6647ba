"""`rulecraft play`: a person plays against agents in the terminal.

The human chooses a move by its number in the list or types it (`hint` shows the best
moves with their points, `quit` or Ctrl-C leaves, offering to save the record).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import typer

from engine.analysis.phrases import counted
from engine.cli.app import app
from engine.cli.common import WithOption
from engine.cli.games import (check_players, describe_events, load_game_or_exit, record_ref,
                              save_record_or_exit)
from engine.kernel import IllegalMove, RuleFailure

HELP = "Type a move's number or its text; `hint`, `moves`, `board`, or `quit`."


def resolve(state, text: str):
    """The legal move a person means by `text` (number, full text, or a shorter form);
    raises IllegalMove with the reason."""
    legal = state.legal_moves()
    text = " ".join(text.split())
    if text.isdigit():
        index = int(text)
        if 1 <= index <= len(legal):
            return legal[index - 1]
        raise IllegalMove(f"there is no move number {index} (1 to {len(legal)})")
    try:
        return state.find_move(text)
    except IllegalMove as first_error:
        error = first_error
    for action in state.game.actions:
        candidates = [m for m in legal if m.action == action.name]
        if action.kind == "play":
            for m in candidates:
                slot, piece = m.data
                # a piece by name, or by its board position as `@N` (a bare number is
                # the move's number in the list)
                if text.lower() in (m.arg.lower(), piece.name.lower(), f"@{slot}",
                                    f"{action.name} @{slot}"):
                    return m
        if action.kind == "place":
            try:
                found = _typed_placement(state, action, text, candidates)
            except ValueError as exc:
                # the board kind read it as a placement and says why it is illegal
                error = IllegalMove(f"`{text}`: {exc}")
                continue
            if found is not None:
                return found
    raise error


def _typed_placement(state, action, text: str, candidates):
    """The legal placement typed as `text`, None if it is not one; ValueError with the
    board kind's reason when it reads as a placement that is illegal here."""
    arg = text.split(" ", 1)[1] if text.startswith(action.name + " ") else text
    for m in candidates:
        if m.arg == arg:
            return m
    try:
        first = not state.round.placed_any
        placement = state.board.parse_placement(arg, state.hands[state.to_move], first,
                                                action.rules)
    except NotImplementedError:
        return None
    found = next((m for m in candidates if m.arg == placement.text), None)
    if found is None:
        raise ValueError("not allowed by the action's own condition")
    return found


def show(state, human: int) -> None:
    from engine.kernel.zones import pool_top_shown, render_zones

    game = state.game
    typer.echo("")
    typer.echo(game.model.topology.render_text(state.board))
    scores = " | ".join(f"P{s + 1}{'*' if s == human else ''} {v}" for s, v in enumerate(state.scores))
    zones = game.model.zone_names
    info = f"round {state.round.number}   scores: {scores}   {zones.get('pool', 'pool')}: {len(state.pool)}"
    if pool_top_shown(state):
        info += f" (top {state.pool[-1].name})"
    if state.pile:
        info += f"   {zones.get('pile', 'pile')}: {state.pile[-1].name}"
    typer.echo(info)
    for line in render_zones(state, human):
        typer.echo(line)
    others = ", ".join(f"P{s + 1} {len(h)}" for s, h in enumerate(state.hands) if s != human)
    if state.hands[human] or others:
        typer.echo(f"your {zones.get('hand', 'hand')}: "
                   f"{' '.join(p.name for p in state.hands[human]) or '(empty)'}"
                   + (f"   others hold: {others}" if others else ""))


def list_moves(state) -> None:
    for i, move in enumerate(state.legal_moves(), 1):
        typer.echo(f"  {i:3}. {move.text}")


def hint(state, count: int = 5) -> None:
    """The best moves by immediate points; in a one-player game, also the solver's move."""
    from engine.players.agents import ranked_moves

    if state.n == 1:
        _solver_hint(state)
    for gain, _, move, events in ranked_moves(state)[:count]:
        typer.echo(f"  {move.text:<28} {gain:+5d}  {describe_events(events, state.to_move)}")


def _solver_hint(state) -> None:
    from engine.players.solver import hint as solver_hint

    move = solver_hint(state)
    if move is not None:
        typer.echo(f"  the solver plays: {getattr(move, 'text', move)}")


def ask(state):
    """The human's move, or None to quit."""
    list_moves(state)
    while True:
        text = typer.prompt(f"P{state.to_move + 1}, your move", default="", show_default=False)
        word = text.strip().lower()
        if not word:
            continue
        if word in ("quit", "q", "exit"):
            return None
        if word in ("hint", "h", "?"):
            hint(state)
        elif word in ("moves", "list", "m"):
            list_moves(state)
        elif word == "board":
            show(state, state.to_move)
        elif word == "help":
            typer.echo(HELP)
        else:
            try:
                return resolve(state, text)
            except IllegalMove as exc:
                typer.echo(f"not a legal move: {exc}. {HELP}")


@dataclass
class Session:
    """One game at the terminal, and what saving its record needs."""

    state: object
    ruleset: object
    overlays: list
    record: Optional[str]
    agent: str
    ref: str


@app.command("play")
def play_command(
    ruleset: str = typer.Argument(..., help="A ruleset id, game name or file."),
    overlays: WithOption = None,
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Players (you are P1)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the deal."),
    deal: Optional[str] = typer.Option(None, "--deal", help="The order of every piece, by name."),
    agent: str = typer.Option("greedy", "--agent", help="The agent playing the other seats."),
    record: Optional[str] = typer.Option(None, "--record", help="Write the record to this file."),
) -> None:
    """Play against agents in the terminal."""
    from engine.players.agents import agent_seed, make_agent

    ruleset_obj, game = load_game_or_exit(ruleset, overlays)
    n = check_players(game, players)
    try:
        state = game.new_game(n, seed, deal=deal)
        agents = {s: make_agent(agent, agent_seed(seed, s)) for s in range(1, n)}
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2)
    session = Session(state, ruleset_obj, list(overlays or []), record, agent, ruleset)
    typer.echo(f"{ruleset_obj.title} ({ruleset_obj.id}), {counted(n, 'player')}; you are P1. {HELP}")
    try:
        finished = _play(session, agents)
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C at the prompt, or while agents think
        typer.echo("")
        finished = False
    except RuleFailure as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    if not finished:
        _leave(session)
        return
    show(state, 0)
    winner = "nobody" if state.winner is None else f"P{state.winner + 1}"
    typer.echo(f"game over ({state.round.reason}); winner: {winner}; scores: {state.scores}")
    if record:
        _save(session, record)


def _play(session: Session, agents: dict) -> bool:
    """Play until the game is over (True) or the human quits (False)."""
    state = session.state
    while not state.is_over:
        if state.to_move == 0:
            show(state, 0)
            move = ask(state)
            if move is None:
                return False
        else:
            move = agents[state.to_move].choose(state)
        mover = state.to_move
        events = state.apply(move)
        typer.echo(f"P{mover + 1}: {move.text}  [{describe_events(events)}]")
    return True


def _save(session: Session, path: str) -> None:
    from engine.kernel.record import make_record

    state, ruleset = session.state, session.ruleset
    agents = ["human"] + [session.agent] * (state.n - 1)
    record = make_record(state, ruleset.id, session.overlays, ruleset.hash, agents,
                         ref=record_ref(session.ref))
    save_record_or_exit(path, record)
    typer.echo(f"record written to {path}")


_NO = ("n", "no")


def _leave(session: Session) -> None:
    """Leave cleanly, saving the record if asked to."""
    path = session.record
    if not path:
        try:
            path = typer.prompt("save the record to (a file; empty or `no`: do not save)",
                                default="", show_default=False)
        except (typer.Abort, KeyboardInterrupt):
            path = ""
        if path.strip().lower() in _NO:  # an answer, not a file name (`./no` is one)
            path = ""
    if path.strip():
        _save(session, path.strip())
    typer.echo("bye")
