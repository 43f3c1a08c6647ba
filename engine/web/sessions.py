"""Games kept by the server: one per browser tab, each under an unguessable id.

A session holds the setup (ruleset, overlays, seats, seed), the state, and the moves
made; undo and restart replay a prefix of the moves from the seed, which gives the same
deals (every chance outcome comes from the seeded generator). A loaded record is a
session too, stepped through with `goto` (its recorded chances replayed). For a ruleset
that reads `clock`, the server measures the seconds of play from the start (a restart
sets it back to 0; undo does not) and each move keeps its reading, replayed with it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from engine.kernel import Game, IllegalMove
from engine.players.agents import agent_seed, make_agent

HUMAN = "human"
now = time.monotonic  # the seconds of play are measured on this clock (tests replace it)
MAX_SESSIONS = 256  # the oldest is dropped beyond this: a local server, not a service


@dataclass
class Setup:
    """How a game was started: enough to start it again."""

    ruleset: str
    overlays: list[str]
    players: int
    seed: int
    seats: list[str]  # HUMAN or an agent name, per seat


@dataclass
class Played:
    """One move made: who, what, its events, and whether a computer made it."""

    seat: int
    move: object
    events: list
    computer: bool
    seconds: int | None = None  # the clock when it was made (a ruleset reading `clock`)

    @property
    def move_text(self) -> str:
        return self.move.text if hasattr(self.move, "text") else str(self.move)


@dataclass
class Session:
    """A game in progress, or a loaded record being stepped through."""

    setup: Setup
    ruleset: object
    game: Game
    state: object = None
    played: list[Played] = field(default_factory=list)
    agents: dict = field(default_factory=dict)
    replay: list[str] | None = None  # a loaded record's moves, when stepping through one
    replay_seconds: list = field(default_factory=list)  # their `seconds` (None: absent)
    chances: list | None = None
    cursor: int = 0
    recent: list[Played] = field(default_factory=list)  # the computer's replies just made
    # moves taken back, as records keep them: {"after": N kept moves, "moves": [...]}
    undone: list[dict] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    started: float = field(default_factory=lambda: now())  # when play began (the clock)

    def start(self) -> None:
        """The first position, with fresh agents (the same seed gives the same game)."""
        s = self.setup
        self.state = self.game.new_game(s.players, s.seed, chances=self.chances)
        self.agents = {seat: make_agent(name, agent_seed(s.seed, seat))
                       for seat, name in enumerate(s.seats) if name != HUMAN}
        self.played, self.recent, self.cursor = [], [], 0

    def is_human_turn(self) -> bool:
        st = self.state
        return not st.is_over and self.replay is None and st.to_move not in self.agents

    def apply(self, move, computer: bool = False, seconds: int | None = None) -> Played:
        """Apply a move; `seconds` is its clock reading when it is replayed (else, for a
        ruleset that reads `clock` and a game being played, the seconds since the start)."""
        seat, state = self.state.to_move, self.state
        if state.game.model.reads_clock:
            if seconds is None and self.replay is None:
                seconds = int(now() - self.started)
            if seconds is not None:
                state.set_clock(seconds)
        move = state.find_move(move)  # this state's own move (a replay brings texts)
        events = state.apply(move)
        done = Played(seat, move, events, computer, seconds)
        self.played.append(done)
        return done

    def play(self, text: str) -> Played:
        """The human's move (its text, or a typed placement); then the computer replies."""
        if self.replay is not None:
            raise IllegalMove("this is a loaded record: step through it, or start a game")
        if not self.is_human_turn():
            raise IllegalMove("it is not your turn" if not self.state.is_over
                              else "the game is over")
        done = self.apply(find_move(self.state, text))
        self.run_computers()
        return done

    def run_computers(self, limit: int = 10_000) -> None:
        """The computer seats move until a human's turn or the end."""
        self.recent = []
        st = self.state
        while not st.is_over and st.to_move in self.agents and limit:
            move = self.agents[st.to_move].choose(st)
            self.recent.append(self.apply(move, computer=True))
            limit -= 1

    def undo(self) -> int:
        """Take back the last human move and the computer's replies; how many moves went."""
        if not self.game.model.undo:
            raise IllegalMove("this ruleset does not allow undo (`play.undo: false`)")
        humans = [i for i, p in enumerate(self.played) if not p.computer]
        if not humans:
            raise IllegalMove("there is no move of yours to take back")
        keep = [(p.move, p.seconds) for p in self.played[:humans[-1]]]
        gone = len(self.played) - len(keep)
        taken = self.state.history[len(keep):]
        self.replay_prefix(keep)
        self.undone.append({"after": len(keep), "moves": taken})
        return gone

    def replay_prefix(self, moves: list) -> None:
        """The position after `moves` ((move, seconds) pairs) from the start, replayed
        from the seed with the clock read as it was."""
        self.start()
        for move, seconds in moves:
            self.apply(move, computer=self.state.to_move in self.agents, seconds=seconds)

    def goto(self, n: int) -> None:
        """A loaded record's position after its first `n` moves."""
        if self.replay is None:
            raise IllegalMove("only a loaded record is stepped through")
        n = max(0, min(int(n), len(self.replay)))
        self.start()
        readings = self.replay_seconds or [None] * len(self.replay)
        for text, seconds in zip(self.replay[:n], readings):
            self.apply(text, seconds=seconds)
        self.cursor = n


def find_move(state, text: str):
    """The legal move `text` names: its exact text, the argument alone, or a placement
    typed in the board kind's own notation; IllegalMove with the reason otherwise."""
    text = " ".join(str(text).split())[:2000]
    if not text:
        raise IllegalMove("an empty move")
    try:
        return state.find_move(text)
    except IllegalMove as first:
        error = first
    for action in state.game.actions:
        candidates = [m for m in state.legal_moves() if m.action == action.name]
        for m in candidates:
            if m.arg == text or getattr(m.data, "text", None) == text:
                return m
        if action.kind == "place" and candidates:
            try:
                placement = state.board.parse_placement(
                    text, state.hands[state.to_move], not state.round.placed_any, action.rules)
            except (ValueError, NotImplementedError) as exc:
                error = IllegalMove(f"`{text}`: {exc}") if isinstance(exc, ValueError) else error
                continue
            found = next((m for m in candidates if m.arg == placement.text), None)
            if found is not None:
                return found
    raise error


class Sessions:
    """Sessions by id; ids are `secrets.token_urlsafe` (not guessable from another)."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._by_id: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._by_id[token] = session
            while len(self._by_id) > self.limit:
                self._by_id.popitem(last=False)
        return token

    def get(self, token: str) -> Session | None:
        with self._lock:
            session = self._by_id.get(token)
            if session is not None:
                self._by_id.move_to_end(token)
            return session
