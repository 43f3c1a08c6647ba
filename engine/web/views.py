"""The JSON the page reads: a session's position, its picture, its moves ranked by
points with the rule behind each point, and what has been played."""

from __future__ import annotations

from engine.players.agents import ranked_moves
from engine.render import move_pairs, render_svg

MAX_LISTED = 300  # moves sent to the page, best first; any legal move may still be typed


def event_json(event) -> dict:
    """A score event with its rule and where the rule is written (file:line)."""
    pos = event.pos
    return {"player": event.player, "points": event.points, "rule": event.rule,
            "label": event.detail,
            "where": f"{_short(pos.path)}:{pos.line}" if pos is not None else ""}


def _short(path) -> str:
    """A ruleset file as `rulesets/...` when it is a shipped one (no machine paths)."""
    text = str(path)
    cut = text.rfind("rulesets/")
    return text[cut:] if cut >= 0 else text.rsplit("/", 1)[-1]


def played_json(index: int, played) -> dict:
    return {"n": index + 1, "seat": played.seat, "move": played.move_text,
            "computer": played.computer,
            "points": sum(e.points for e in played.events if e.player == played.seat),
            "events": [event_json(e) for e in played.events]}


def moves_json(state) -> list[dict]:
    """The legal moves, best immediate points first, each with the pieces and targets a
    click chooses (`pairs`) and its events."""
    out = []
    kinds = {a.name: a.kind for a in state.game.actions}
    names = {p.uid: p.name for p in state.game.pieces}  # pieces alike are chosen alike
    for gain, _, move, events in ranked_moves(state)[:MAX_LISTED]:
        out.append({"text": move.text, "action": move.action, "kind": kinds.get(move.action),
                    "points": gain,
                    "pairs": [[uid, target, names[uid] if uid is not None else None]
                              for uid, target in move_pairs(state, move)],
                    "events": [event_json(e) for e in events]})
    return out


def session_json(token: str, session, seat: int | None = None) -> dict:
    """Everything the page shows of a session."""
    st, setup = session.state, session.setup
    model = st.game.model
    human = session.is_human_turn()
    moves = moves_json(st) if human else []
    # the computer's replies to the last move, or that move itself
    last = [p.move for p in session.recent] or [p.move for p in session.played[-1:]]
    targets = {p[1] for m in moves for p in m["pairs"] if p[1]}
    humans = [s for s, name in enumerate(setup.seats) if name == "human"]
    view_seat = st.to_move if human else (humans[0] if len(humans) == 1 else None)
    if session.replay is not None:
        view_seat = None
    return {
        "id": token,
        "ruleset": {"id": session.ruleset.id, "title": session.ruleset.title,
                    "overlays": setup.overlays},
        "seed": setup.seed, "players": st.n, "seats": setup.seats,
        "to_move": st.to_move, "over": st.is_over, "winner": st.winner,
        "reason": st.round.reason if st.is_over else None,
        "round": st.round.number, "scores": list(st.scores),
        "zones": {"pool": {"name": model.zone_names.get("pool", "pool"), "count": len(st.pool)},
                  "pile": {"name": model.zone_names.get("pile", "pile"), "count": len(st.pile),
                           "top": st.pile[-1].name if st.pile else None},
                  "hands": [len(h) for h in st.hands]},
        "your_turn": human,
        "solitaire": st.n == 1, "undo": model.undo,  # `play.undo`: may a person undo?
        "clock": st.clock.seconds if model.reads_clock else None,  # the last move's seconds
        "svg": render_svg(st, last_move=last, seat=view_seat, targets=targets),
        "moves": moves,
        "log": [played_json(i, p) for i, p in enumerate(session.played)],
        "recent": [p.move_text for p in session.recent],
        "replay": None if session.replay is None else {
            "cursor": session.cursor, "length": len(session.replay)},
    }
