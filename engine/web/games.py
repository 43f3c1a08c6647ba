"""Starting, playing and answering for sessions: what the routes call (no HTTP here)."""

from __future__ import annotations

from functools import lru_cache

from engine.diagnostics import RulecraftError
from engine.kernel import Game, IllegalMove, RuleFailure
from engine.rules import load_ruleset
from engine.rules.model import compile_model
from engine.web.catalog import catalog, check_choice
from engine.web.records import BadRecord
from engine.web import sessions
from engine.web.sessions import HUMAN, Session, Setup

SOLVER_NODES = 20_000  # the solver's budget per question: well under a second here
MAX_SEED = 2**63


class BadRequest(ValueError):
    """A request the server refuses, with the reason for the page (a 4xx)."""


@lru_cache(maxsize=32)
def compiled(ruleset_id: str, overlays: tuple[str, ...]):
    """(ruleset, game) for a catalogued ruleset, compiled once and shared by sessions."""
    ruleset = load_ruleset(ruleset_id, overlays)
    model, diagnostics = compile_model(ruleset)
    if model is None:
        raise BadRequest("; ".join(d.message for d in diagnostics)[:500])
    return ruleset, Game(model)


def new_session(body: object) -> Session:
    """A session from the page's choices: ruleset, overlays, seats, seed."""
    if not isinstance(body, dict):
        raise BadRequest("send a JSON object with `ruleset`, `overlays`, `seats`, `seed`")
    try:
        rid, overlays = check_choice(body.get("ruleset"), body.get("overlays", []))
        ruleset, game = compiled(rid, tuple(overlays))
    except (ValueError, RulecraftError) as exc:
        raise BadRequest(_reason(exc)) from None
    seed = body.get("seed", 0)
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        raise BadRequest("`seed` must be a whole number from 0")
    seats = body.get("seats") or [HUMAN]
    agents = catalog()["agents"]
    if not isinstance(seats, list) or not all(s == HUMAN or s in agents for s in seats):
        raise BadRequest(f"`seats` lists `human` or an agent ({', '.join(agents)}) per player")
    model = game.model
    if not model.players_min <= len(seats) <= model.players_max:
        raise BadRequest(f"{ruleset.title} is for {model.players_min} to {model.players_max}"
                         f" players, not {len(seats)}")
    session = Session(Setup(rid, overlays, len(seats), seed, list(seats)), ruleset, game)
    _guarded(session.start)
    _guarded(session.run_computers)
    return session


def replay_session(loaded) -> Session:
    """A session stepping through an uploaded record (checked by `parse_uploaded`)."""
    d = loaded.data
    rs = d["ruleset"]
    try:
        ruleset, game = compiled(rs["id"], tuple(rs.get("overlays") or []))
    except (ValueError, RulecraftError) as exc:
        raise BadRecord(_reason(exc)) from None
    session = Session(Setup(rs["id"], list(rs.get("overlays") or []), d["players"], d["seed"],
                            [HUMAN] * d["players"]), ruleset, game)
    session.chances = list(d["setup"]) + [c for m in d["moves"] for c in m.get("chances", [])]
    session.replay = [m["move"] for m in d["moves"]]
    session.replay_seconds = [m.get("seconds") for m in d["moves"]]
    try:
        session.goto(len(session.replay))  # every move must replay before stepping
    except (ValueError, RuleFailure) as exc:
        raise BadRecord(f"the record does not replay: {_reason(exc)}") from None
    return session


def hint(session) -> dict:
    """The best moves by points; for a solitaire, also the solver's move, with others
    the search's (`search`: its spec and its two most visited moves with their shares)."""
    from engine.web.views import moves_json

    if not session.is_human_turn():
        raise BadRequest("there is no move of yours to hint at")
    out = {"moves": moves_json(session.state)[:5]}
    if session.state.n == 1:
        out["solver"] = solver_view(session)
    else:
        out["search"] = search_view(session.state)
    return out


def search_view(state) -> dict:
    """The moves `mcts` prefers in `state` (`HINT_SPEC`, seeded 0: a position
    hints the same each time), most visited first, with their shares of the visits."""
    from engine.players.mcts import HINT_SPEC, mcts_hint

    rows = mcts_hint(state, HINT_SPEC, seed=0, count=2)
    return {"spec": f"mcts:{HINT_SPEC}",
            "moves": [{"text": move.text, "share": round(share, 3)} for move, share, _ in rows]}


def solver_view(session) -> dict:
    """Whether the deal can still be cleared, and the solver's next move (node budget)."""
    from engine.players.solver import solve

    state = session.state
    if state.n != 1 or state.is_over:
        return {"clearable": None, "next": None, "line": [], "exhaustive": True}
    found = _guarded(lambda: solve(state, best=False, max_nodes=SOLVER_NODES))
    clearable = True if found.reachable else (False if found.exhaustive else None)
    return {"clearable": clearable, "next": found.line[0] if found.line else None,
            "line": found.line, "exhaustive": found.exhaustive, "nodes": found.nodes}


def play(session, text: object) -> None:
    """The human's move, then the computer's replies."""
    if not isinstance(text, str):
        raise BadRequest("send `{\"move\": \"<the move's text>\"}`")
    _guarded(lambda: session.play(text))


def undo(session) -> None:
    """Take back the human's last move (and the replies); the computer moves again."""
    _guarded(session.undo)
    _guarded(session.run_computers)


def restart(session) -> None:
    """The same deal again (a loaded record: its first position)."""
    if session.replay is not None:
        _guarded(lambda: session.goto(0))
        return
    _guarded(session.start)
    session.undone = []
    session.started = sessions.now()  # a new game: the clock from 0
    _guarded(session.run_computers)


def goto(session, n: int) -> None:
    """A loaded record's position after `n` moves."""
    _guarded(lambda: session.goto(n))


def _guarded(step):
    """Run a game step; a rule failing while playing is the ruleset's fault: a 4xx."""
    try:
        return step()
    except IllegalMove as exc:
        raise BadRequest(f"not a legal move: {exc}") from None
    except RuleFailure as exc:
        raise BadRequest(f"the ruleset failed: {exc}") from None


def _reason(exc: Exception) -> str:
    if isinstance(exc, RulecraftError):
        return "; ".join(d.message for d in exc.diagnostics)[:500]
    return str(exc)[:500]
