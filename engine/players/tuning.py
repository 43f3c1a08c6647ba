"""The search a plain `mcts` spec runs, chosen from what the ruleset's play costs.

`mcts`, `mcts:800` and `mcts:1s` (a budget at most) leave the play-out policy, the depth
and the rest to the agent: before its first search it plays `PROBES` greedy play-outs
of its own samples of the position to the end of the round (`measure`: never the real
hidden pieces, and deterministic for the agent's seed), counts the moves and the moves
previewed, and picks a configuration (`choose`) by the measured cost. Any other
parameter in the spec (a play-out, an objective, `halving`, `depth=`, ...) turns this
off: the spec is then taken as written, with the documented defaults.

The choices are those measured strongest against `greedy` (docs/agents.md, "How
strong"): alone, greedy play-outs by sequential halving judged by rounds won (cleared);
with others, greedy play-outs by halving over the root's best moves, cut after a few
moves with the held pieces counted against their holder, shallower and over fewer
samples where a greedy move previews many moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.players.determinize import determinize
from engine.players.objective import greedy_move

PROBES = 2  # greedy play-outs measured, each in its own sample
_PROBE_MOVES = 400  # a probe stops here at the latest (rounds end far sooner)
#: previews a move on average above which a ruleset's play-outs count as dear
DEAR_PREVIEWS = 8.0
#: with dear play-outs: moves previewed a search may spend (iterations x plies x
#: previews a move): some 300 iterations where a move previews about 30, about 0.2 s a
#: move on the compiled program (0.4 s on the interpreter); 3.3 times the work, 1,000
#: iterations, measured no stronger over 200 games (docs/agents.md)
DEAR_WORK = 17_000
#: with dear play-outs: the root's moves, ceil(w * sqrt(iterations))
DEAR_WIDENING = 1.0
#: with dear play-outs: turns a play-out plays (2: the move, then the reply)
DEAR_PLIES = 2
#: with dear play-outs: how much of the most the seat to move could score at the cut
#: counts for it (`next=`); measured against the cut alone in docs/agents.md ("How strong")
DEAR_LOOKAHEAD = 0.5


@dataclass(frozen=True)
class Cost:
    """What greedy play-outs of a ruleset cost, measured from one position."""

    players: int
    moves: float  # moves a play-out to the round's end makes, on average
    previews: float  # legal moves a greedy move previews, on average


def measure(state, seat: int, rng) -> Cost:
    """Play `PROBES` samples of `state`, as `seat` sees it, to the round's end by greedy
    moves; the moves made and the moves previewed (the legal moves of each position
    with a choice; a forced move previews none)."""
    moves = previews = 0
    for _ in range(PROBES):
        world = determinize(state, seat, rng)
        start = world.round
        for _ in range(_PROBE_MOVES):
            if world.is_over or world.round is not start:
                break
            legal = world.legal_moves()
            previews += len(legal) if len(legal) > 1 else 0
            world.apply(greedy_move(world))
            moves += 1
    return Cost(state.n, moves / PROBES, previews / max(1, moves))


def choose(cost: Cost, iterations: int | None) -> dict:
    """The configuration fields for a ruleset of that cost (`MctsConfig`'s names);
    `iterations` None when the spec gave none (or gave seconds)."""
    if cost.players == 1:
        return {"playout": "greedy", "halving": True, "objective": "win",
                "iterations_default": 100}
    if cost.previews <= DEAR_PREVIEWS:
        return {"playout": "greedy", "halving": True, "widening": 1.0, "depth": 6,
                "plies": 0, "held": 1.0, "iterations_default": 300}
    work = max(20, round(DEAR_WORK / (DEAR_PLIES * cost.previews)))
    return {"playout": "greedy", "halving": True, "widening": DEAR_WIDENING, "depth": 0,
            "plies": DEAR_PLIES, "lookahead": DEAR_LOOKAHEAD, "held": 0.0,
            "iterations_default": work}


def describe(fields: dict, iterations: int | None, seconds: float | None) -> str:
    """The spec a tuned agent runs (`mcts:300:greedy:halving:w=1:depth=6:held=1`)."""
    budget = f"{seconds:g}s" if seconds is not None else str(
        iterations or fields["iterations_default"])
    parts = ["mcts", budget, fields["playout"]]
    if fields.get("halving"):
        parts.append("halving")
    if fields.get("objective", "margin") != "margin":
        parts.append(fields["objective"])
    if "widening" in fields:
        parts.append(f"w={fields['widening']:g}")
    if fields.get("depth"):
        parts.append(f"depth={fields['depth']}")
    if fields.get("plies"):
        parts.append(f"plies={fields['plies']}")
    if fields.get("held"):
        parts.append(f"held={fields['held']:g}")
    if fields.get("lookahead"):
        parts.append(f"next={fields['lookahead']:g}")
    return ":".join(parts)
