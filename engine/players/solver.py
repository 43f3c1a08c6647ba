"""An exact solver for single-player rulesets whose deal is known, on the kernel's moves.

It never reimplements a rule: it searches the kernel's own moves (one search,
`engine.players.solver_search`, on the ruleset's compiled program when it has one,
`engine.players.solver_program`, else on the interpreter's states,
`engine.players.solver_positions`), memoised on a compact key of the position. It
answers three questions about the current round:

- can the round end with a given reason (the goal, by default the first round end that
  names a winner, e.g. a cleared tableau)?
- in the fewest steps how (a step is any move)?
- what is the best score reachable by the end of the round (the most points, or the
  fewest under `match.objective: lowest`), and by which line?

It is exhaustive unless a budget stops it: positions (`max_nodes`) or memory
(`max_memory`, bytes); then it says so (`exhaustive`, `stopped`) and reports the best
lines met. Positions are keyed without the score when no expression of the ruleset reads
a score. When scoring reads it only as a floor at 0 (`-min(5, player.score)`), the score
stays out of the key too: the search adds unclamped points and applies the floor exactly
afterwards (the best final score is the best sum of points from some reachable position
on). Otherwise the score is part of the key, which is exact but larger.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Mapping

from engine.players.solver_key import pile_top_fields, round_fields_read, strings as _strings
from engine.players.solver_program import searcher
from engine.players.solver_search import (HIGH_SCORE, INF, NO_GAIN, NodeLimit, Solver,
                                          machine_memory)

#: the default memory budget of a solve: this share of the machine's memory
MEMORY_SHARE = 0.25


@dataclass
class Solution:
    """What the solver found for one position."""

    goal: str
    reachable: bool
    steps: int | None = None  # fewest moves to the goal
    line: list[str] = field(default_factory=list)  # such a line, as move texts
    best_score: int | None = None  # best score at the end of the round (by the objective)
    best_line: list[str] = field(default_factory=list)
    nodes: int = 0  # positions expanded
    seconds: float = 0.0
    exhaustive: bool = True  # False if a budget stopped the search
    stopped: str | None = None  # the budget that stopped it: "nodes" or "memory"
    objective: str = "highest"  # the ruleset's `match.objective`

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def default_memory() -> int | None:
    """The default memory budget of a solve, in bytes: a share of the machine's memory
    (None, no budget, when the machine's memory is unknown)."""
    total = machine_memory()
    return int(total * MEMORY_SHARE) if total else None


def default_goal(data: Mapping) -> str:
    """The first round end of a resolved ruleset that names a winner (else the first)."""
    ends = (data.get("round") or {}).get("end") or {}
    for name, spec in ends.items():
        if isinstance(spec, Mapping) and spec.get("winner"):
            return str(name)
    if not ends:
        raise ValueError("the ruleset has no round end to aim for")
    return str(next(iter(ends)))


_COUNTER = re.compile(r"\bcounters\.(\w+)")
#: a score read only to floor a loss at 0: `-min(5, player.score)` (or the two swapped)
_FLOOR = re.compile(r"-\s*min\(\s*(\d+\s*,\s*player\.score|player\.score\s*,\s*\d+)\s*\)")


@dataclass(frozen=True)
class Relevance:
    """What a position key must hold so that equal keys have equal futures.

    Read from the ruleset's expression texts. `decide`: what legality and round ends can
    see (scoring never changes them). `best`: what scoring can see as well.
    """

    decide_counters: tuple[str, ...]
    decide_scores: bool
    best_counters: tuple[str, ...]
    best_scores: bool
    #: scoring reads the score only as a floor at 0 (`-min(5, player.score)`), and
    #: nothing else reads it: the score can stay out of the key (see `solve`)
    floor: bool = False
    #: the round counters some expression reads (`round.turns`, ...): the key holds
    #: those only (`engine.players.solver_key`)
    round_fields: tuple[str, ...] = ()
    #: the fields of the pile's top that expressions read, when that is all they read
    #: of the pile but its size: the key holds the top's class, not its piece
    #: (`engine.players.solver_key.top_classes`); None: the piece
    top_fields: tuple[str, ...] | None = None

    @classmethod
    def of(cls, data: Mapping) -> "Relevance":
        """Analyse a resolved ruleset's data."""
        actions = data.get("actions") or {}
        then = {}
        for spec in actions.values():
            if isinstance(spec, Mapping) and isinstance(spec.get("then"), Mapping):
                for name, expr in spec["then"].items():
                    then.setdefault(str(name), []).append(str(expr))
        rules = [{k: v for k, v in spec.items() if k != "then"}
                 for spec in actions.values() if isinstance(spec, Mapping)]
        deciding = list(_strings([rules, data.get("round"), data.get("define"),
                                  data.get("setup")]))
        rules_text = list(_strings(data.get("scoring")))
        scoring = deciding + rules_text
        best_counters, best_scores = _closure(scoring, then), _reads_score(scoring, then)
        decide_scores = _reads_score(deciding, then)
        updates = [t for c in best_counters for t in then.get(c, ())]
        floor = (best_scores and not decide_scores
                 and not any("score" in t for t in updates)
                 and not any("score" in _FLOOR.sub("", t) for t in rules_text))
        return cls(_closure(deciding, then), decide_scores, best_counters, best_scores,
                   floor, round_fields_read(data), pile_top_fields(data))


def _closure(texts: list[str], then: dict[str, list[str]]) -> tuple[str, ...]:
    """The counters the texts read, and those read by the updates of those, and so on."""
    found = {m for t in texts for m in _COUNTER.findall(t)}
    todo = list(found)
    while todo:
        for text in then.get(todo.pop(), ()):
            for name in _COUNTER.findall(text):
                if name not in found:
                    found.add(name)
                    todo.append(name)
    return tuple(sorted(found))


def _reads_score(texts: list[str], then: dict[str, list[str]]) -> bool:
    counters = _closure(texts, then)
    updates = [t for c in counters for t in then.get(c, ())]
    return any("score" in t for t in texts + updates)


def solve(
    state,
    goal: str | None = None,
    *,
    best: bool = True,
    relevance: Relevance | None = None,
    max_nodes: int | None = None,
    max_memory: int | None = None,
    compiled: bool | None = None,
) -> Solution:
    """Solve the current round of a single-player `state` (it is not changed).

    `goal` is a round-end reason (default: the ruleset's first end with a winner).
    `best=False` only decides whether the goal can be reached (fast: it stops at the
    first line found); otherwise every position is explored once for the fewest steps
    and the best score. `relevance` defaults to the analysis of the ruleset. Budgets:
    `max_nodes` positions, `max_memory` bytes more than the process held at the start
    (None: no budget). `compiled`: search the ruleset's program (None: when it has one;
    the same answers, faster: `engine.players.solver_program`), or the interpreter.
    """
    if state.n != 1:
        raise ValueError("the solver plays single-player rulesets only")
    model, data = state.game.model, state.game.model.ruleset.data
    goal, sign = goal or default_goal(data), -1 if model.objective == "lowest" else 1
    solver = searcher(state, goal, relevance or Relevance.of(data), max_nodes, max_memory,
                      sign, compiled)
    started = time.perf_counter()
    result = Solution(goal, False, objective=model.objective)
    try:
        if best:
            _fill_best(solver, state, result)
        else:
            line = solver.decide(state)
            result.reachable, result.line = line is not None, line or []
    except NodeLimit as stop:
        result.exhaustive, result.stopped = False, stop.reason
    _note_cut(solver, result)
    result.nodes = solver.nodes
    result.seconds = time.perf_counter() - started
    return result


def _note_cut(solver: Solver, result: Solution) -> None:
    """The turn limit cut a line while the key does not hold the turn number: a position
    cut late may be reached early, so what was not found is unproven."""
    if solver.cut and result.exhaustive:
        result.exhaustive, result.stopped = False, "turns"


def _fill_best(solver: Solver, state, result: Solution) -> None:
    """Reachable, fewest steps and best score; with a budget, the best lines met.

    Without a node budget one pass over every position answers all three (deciding
    first only pays when a budget may stop the full pass before it ends)."""
    seat, rel = state.to_move, solver.relevance
    line = None
    if solver.max_nodes is not None:
        try:
            line = solver.decide(state)  # quick, and settles reachability on its own
        except NodeLimit as stop:
            result.exhaustive, result.stopped = False, stop.reason
        if line is not None:
            _record(result, 1, len(line), line)
    floor = rel.floor and solver.sign == 1
    fields = (rel.best_counters, rel.best_scores and not floor)
    try:
        if floor:
            _floored_pass(solver, state, seat, fields, result)
        else:
            _plain_pass(solver, state, seat, fields, result)
    except NodeLimit as stop:
        result.exhaustive, result.stopped = False, stop.reason
        _record_found(solver, state, result)
    met, met_line = solver.met
    if not result.exhaustive and met_line is not None and (
            result.best_score is None or met > solver.sign * result.best_score):
        # a budget ran out: a line deciding met may score better than any other met
        _record(result, 3, solver.sign * met, met_line)


def _plain_pass(solver: Solver, state, seat: int, fields: tuple, result: Solution) -> None:
    """Every position once, the score (if any rule reads it) in the key."""
    root_key = solver.optimise(state, seat, fields)
    entry = solver.memo[root_key]
    if entry[0] != INF:
        _record(result, 1, entry[0], solver.follow(state, 1))
    if entry[2] != NO_GAIN:
        _record(result, 3, state.scores[seat] + solver.sign * entry[2],
                solver.follow(state, 3))


def _floored_pass(solver: Solver, state, seat: int, fields: tuple, result: Solution) -> None:
    """Every position once with unclamped points (played at HIGH_SCORE), the floor at 0
    applied after: the best final score is the best of the score now plus the best gain
    from here, and the best gain from any position reached (where the floor clamps).
    The line found is replayed for real; should its score differ (a rule reading the
    score otherwise than as a floor), the plain pass, score in the key, decides."""
    high = state.clone()
    high.scores[seat] = HIGH_SCORE
    root_key = solver.optimise(high, seat, fields, floor=True)
    steps, _, gain, _, lift, _ = solver.memo[root_key]
    if steps != INF:
        _record(result, 1, steps, solver.follow(high, 1))
    if gain == NO_GAIN:
        return
    now = state.scores[seat]
    lifted = lift > now + gain
    predicted = lift if lifted else now + gain
    line = solver.follow(high, 3, lifted=lifted)
    if _replayed_score(state, seat, line) == predicted:
        _record(result, 3, predicted, line)
        return
    _plain_pass(solver, state, seat, (fields[0], True), result)


def _replayed_score(state, seat: int, line: list[str]) -> int:
    """The seat's score after playing `line` from `state` (on a copy)."""
    replay = state.clone()
    for text in line:
        replay.apply(text)
    return replay.scores[seat]


def _record_found(solver: Solver, state, result: Solution) -> None:
    """After a stopped pass: the shortest and best lines it met, if better than known."""
    for which in (1, 3):
        value, prefix = solver.found.get(which, (None, None))
        if prefix is None:
            continue
        if which == 1 and result.steps is not None and value >= result.steps:
            continue
        if which == 3:
            value = solver.sign * value
        _record(result, which, value, solver.rebuild(state, prefix, which))


def _record(result: Solution, which: int, value, line: list[str]) -> None:
    if which == 1:
        result.reachable, result.steps, result.line = True, int(value), line
    else:
        result.best_score, result.best_line = int(value), line


def hint(state, goal: str | None = None, max_nodes: int | None = 20_000):
    """The move the solver would make: the first of a line that reaches the goal, else of
    the best-scoring line; None if there is no move or the search is too large."""
    found = solve(state, goal, best=False, max_nodes=max_nodes)
    if found.reachable:
        return found.line[0]
    if not found.exhaustive:
        return None
    best = solve(state, goal, max_nodes=max_nodes)
    return best.best_line[0] if best.best_line else None
