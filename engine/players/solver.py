"""An exact solver for single-player rulesets whose deal is known, on the kernel's moves.

It never reimplements a rule: it searches the kernel's own `legal_moves`, `clone`,
`apply` and `key`, with memoisation on the key. It answers three questions about the
current round:

- can the round end with a given reason (the goal, by default the first round end that
  names a winner, e.g. a cleared tableau)?
- in the fewest steps how (a step is any move)?
- what is the best score reachable by the end of the round, and by which line?

Positions are keyed without the score when no expression of the ruleset reads a score,
so that equal positions reached with different scores are searched once and the best
score is the score now plus the best gain from there. When some rule does read the
score (a floor at 0, say), the score is part of the key, which is exact but larger.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Iterable, Mapping

INF = float("inf")
NO_GAIN = -(10**18)  # below any reachable score: a line that never ends the round


@dataclass
class Solution:
    """What the solver found for one position."""

    goal: str
    reachable: bool
    steps: int | None = None  # fewest moves to the goal
    line: list[str] = field(default_factory=list)  # such a line, as move texts
    best_score: int | None = None  # best score at the end of the round
    best_line: list[str] = field(default_factory=list)
    nodes: int = 0  # positions expanded
    seconds: float = 0.0
    exhaustive: bool = True  # False if the node limit stopped the search

    def as_dict(self) -> dict:
        return dict(self.__dict__)


class NodeLimit(Exception):
    """The search expanded more positions than it was allowed to."""


def default_goal(data: Mapping) -> str:
    """The first round end of a resolved ruleset that names a winner (else the first)."""
    ends = (data.get("round") or {}).get("end") or {}
    for name, spec in ends.items():
        if isinstance(spec, Mapping) and spec.get("winner"):
            return str(name)
    if not ends:
        raise ValueError("the ruleset has no round end to aim for")
    return str(next(iter(ends)))


def reads_score(data: Mapping) -> bool:
    """Whether any expression of a resolved ruleset could read a player's score."""

    def strings(value) -> Iterable[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, Mapping):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    sections = ("define", "actions", "scoring", "round", "counters", "setup")
    return any("score" in s for sec in sections for s in strings(data.get(sec)))


class Solver:
    """Searches one round of a single-player game from a given state."""

    def __init__(self, goal: str, score_matters: bool = True, max_nodes: int | None = None):
        self.goal = goal
        self.with_scores = score_matters
        self.max_nodes = max_nodes
        self.nodes = 0

    # -- positions --------------------------------------------------------------------
    def key(self, state):
        return state.key(with_scores=self.with_scores)

    def ended(self, state, round_number: int) -> str | None:
        """The reason the round being searched ended, or None while it goes on."""
        if state.round.number != round_number:
            return getattr(state, "last_round_reason", None) or "?"
        if state.is_over:
            return state.round.reason or "?"
        return None

    def children(self, state):
        """(move, child state) for every legal move, in the kernel's order."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise NodeLimit
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            yield move, child

    # -- is the goal reachable? ------------------------------------------------------------
    def decide(self, root) -> list[str] | None:
        """A line reaching the goal (depth first, stopping at the first), or None."""
        dead: set = set()
        number = root.round.number
        line: list[str] = []

        def search(state) -> bool:
            for move, child in self.children(state):
                reason = self.ended(child, number)
                if reason is not None:
                    if reason == self.goal:
                        line.append(move.text)
                        return True
                    continue
                key = self.key(child)
                if key in dead:
                    continue
                if search(child):
                    line.append(move.text)
                    return True
                dead.add(key)
            return False

        with _deep_recursion():
            found = search(root)
        return line[::-1] if found else None

    # -- fewest steps and best score ---------------------------------------------------------
    def optimise(self, root, seat: int) -> tuple[dict, object]:
        """Explore every position of the round once; memo: key -> (steps, move, gain, move).

        `steps` is the fewest moves to the goal (INF if unreachable), `gain` the most
        points the seat can still add before the round ends.
        """
        memo: dict = {}
        number = root.round.number

        def value(state, key):
            memo[key] = None  # on the path: a cycle back here is not a way out
            base = state.scores[seat]
            best = (INF, None, NO_GAIN, None)
            for move, child in self.children(state):
                reason = self.ended(child, number)
                if reason is not None:
                    steps = 1 if reason == self.goal else INF
                    gain = child.scores[seat] - base
                else:
                    ckey = self.key(child)
                    if ckey not in memo:
                        value(child, ckey)
                    entry = memo[ckey]
                    if entry is None:
                        continue
                    steps = entry[0] + 1
                    gain = entry[2] + child.scores[seat] - base
                best = _better(best, steps, gain, move)
            memo[key] = best
            return best

        root_key = self.key(root)
        with _deep_recursion():
            value(root, root_key)
        return memo, root_key

    def follow(self, root, memo: dict, which: int) -> list[str]:
        """Replay the memo's choices from the root: `which` 1 for steps, 3 for score."""
        state, line, number = root.clone(), [], root.round.number
        while self.ended(state, number) is None:
            entry = memo.get(self.key(state))
            if not entry or entry[which] is None:
                break
            move = entry[which]
            line.append(move.text)
            state.apply(move.text)
        return line


def _better(best: tuple, steps, gain, move) -> tuple:
    s, smove, g, gmove = best
    if steps < s:
        s, smove = steps, move
    if gain > g:
        g, gmove = gain, move
    return (s, smove, g, gmove)


class _deep_recursion:
    """Raise the recursion limit for a search as deep as a round is long."""

    def __enter__(self):
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 20000))

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.old)


def solve(
    state,
    goal: str | None = None,
    *,
    best: bool = True,
    score_matters: bool | None = None,
    max_nodes: int | None = None,
) -> Solution:
    """Solve the current round of a single-player `state` (it is not changed).

    `goal` is a round-end reason (default: the ruleset's first end with a winner).
    `best=False` only decides whether the goal can be reached (fast: it stops at the
    first line found); otherwise every position is explored once for the fewest steps
    and the best score. `score_matters` defaults to whether the ruleset reads scores.
    """
    if state.n != 1:
        raise ValueError("the solver plays single-player rulesets only")
    data = state.game.model.ruleset.data
    goal = goal or default_goal(data)
    if score_matters is None:
        score_matters = reads_score(data)
    solver = Solver(goal, score_matters, max_nodes)
    started = time.perf_counter()
    result = Solution(goal, False)
    try:
        if best:
            _fill_best(solver, state, result)
        else:
            line = solver.decide(state)
            result.reachable, result.line = line is not None, line or []
    except NodeLimit:
        result.exhaustive = False
    result.nodes = solver.nodes
    result.seconds = time.perf_counter() - started
    return result


def _fill_best(solver: Solver, state, result: Solution) -> None:
    seat = state.to_move
    memo, root_key = solver.optimise(state, seat)
    steps, _, gain, _ = memo[root_key]
    result.reachable = steps != INF
    if result.reachable:
        result.steps = int(steps)
        result.line = solver.follow(state, memo, 1)
    if gain != NO_GAIN:
        result.best_score = state.scores[seat] + gain
        result.best_line = solver.follow(state, memo, 3)


def hint(state, goal: str | None = None, max_nodes: int | None = 200_000):
    """The move the solver would make: towards the goal in the fewest steps, else the best
    score; None if the search is too large or there is no move."""
    found = solve(state, goal, max_nodes=max_nodes)
    line = found.line if found.reachable else found.best_line
    return line[0] if line and found.exhaustive else None
