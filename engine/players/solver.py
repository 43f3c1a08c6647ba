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

import random
import re
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


def _strings(value) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


_COUNTER = re.compile(r"\bcounters\.(\w+)")


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
        scoring = deciding + list(_strings(data.get("scoring")))
        return cls(_closure(deciding, then), _reads_score(deciding, then),
                   _closure(scoring, then), _reads_score(scoring, then))


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


class Solver:
    """Searches one round of a single-player game from a given state."""

    def __init__(self, goal: str, relevance: Relevance, max_nodes: int | None = None):
        self.goal = goal
        self.relevance = relevance
        self.max_nodes = max_nodes
        self.nodes = 0  # positions expanded in all
        self.spent = 0  # in this solve call (every search together), against `max_nodes`
        self.memo: dict = {}
        self.found: dict = {}
        self.fields = (relevance.decide_counters, relevance.decide_scores)
        self.cap = INF  # `spent` beyond which the current search stops
        #: the best-scoring complete line `decide` met: (score, move texts)
        self.met: tuple = (NO_GAIN, None)

    # -- positions --------------------------------------------------------------------
    def key(self, state) -> tuple:
        """The position as far as the search can tell positions apart.

        As the kernel's `State.key`, but the pile is its size and top card (all that
        expressions can read of it: with every piece somewhere, its contents follow from
        the rest), and only the counters and scores the current question can see.
        """
        counters, scores = self.fields
        pile, r, t = state.pile, state.round, state.turn
        return (
            state.to_move,
            tuple(tuple(sorted(p.uid for p in h)) for h in state.hands),
            tuple(p.uid for p in state.pool),
            len(pile),
            pile[-1].uid if pile else -1,
            state.board.key(),
            tuple(getattr(state.counters, c) for c in counters),
            (r.number, r.turns, r.turns_without_place, r.passes_in_row, r.unable_in_row,
             r.placed_any),
            (t.draws, t.placed, t.actions),
            tuple(state.scores) if scores else (),
            state.is_over,
            state.zones_key(),  # the zones a ruleset declares (none: an empty tuple)
        )

    @staticmethod
    def step(state, move) -> str | None:
        """Apply a legal move of `state`; the reason if it ended the round, else None.

        A round that ends without ending the match is followed at once by the next
        one, in a new round record: the old record keeps the reason.
        """
        before = state.round
        # The move comes from this very state's legal moves: no need to look it up
        # again (which, in a fresh clone, would generate the moves a second time).
        state.game.steps[move.action](state, move)
        if state.round is not before:
            return before.reason or "?"
        return (state.round.reason or "?") if state.is_over else None

    def children(self, state, order=None):
        """(move, child state, reason the round ended or None) for every legal move, in
        the kernel's order or as `order` rearranges it."""
        self.spent += 1
        if self.spent > self.cap:
            raise NodeLimit
        self.nodes += 1  # counted once expanded: a stopped search reports what it did
        moves = state.legal_moves()
        if order is not None:
            moves = order(moves)
        for move in moves:
            child = state.clone()
            yield move, child, self.step(child, move)

    # -- is the goal reachable? ------------------------------------------------------------
    def decide(self, root) -> list[str] | None:
        """A line reaching the goal, or None if there is none.

        Depth first, stopping at the first line found. How fast a fixed move order finds
        one depends much on the deal (heavy tails), so orders take turns, each until a
        budget of positions that doubles every round: the kernel's; the moves of each
        action backwards; and a shuffle within each action, seeded by the round.
        Positions proven dead are shared, since that does not depend on the order.
        """
        dead: set = set()
        budget, round_ = 1000, 0
        limit = INF if self.max_nodes is None else self.max_nodes
        while True:
            shuffle = random.Random(round_)
            for order in (None, _reversed_within_actions, _shuffled_within_actions(shuffle)):
                self.cap = min(self.spent + budget, limit)
                try:
                    return self._depth_first(root, dead, order)
                except NodeLimit:
                    if self.spent >= limit:
                        raise
            budget, round_ = budget * 2, round_ + 1

    def _depth_first(self, root, dead: set, order) -> list[str] | None:
        line: list[str] = []
        path: list = []  # the moves from the root to the position searched
        seat = root.to_move

        def search(state) -> bool:
            open_children = []
            for move, child, reason in self.children(state, order):
                if reason is None:
                    key = self.key(child)
                    if key not in dead:
                        open_children.append((move, child, key))
                    continue
                if child.scores[seat] > self.met[0]:  # a complete line: kept if the best
                    self.met = (child.scores[seat], [m.text for m in path] + [move.text])
                if reason == self.goal:
                    line.append(move.text)
                    return True
            for move, child, key in open_children:
                if key in dead:
                    continue
                path.append(move)
                if search(child):
                    line.append(move.text)
                    return True
                path.pop()
                dead.add(key)  # every line from it was searched: none reaches the goal
            return False

        with _deep_recursion():
            found = search(root)
        return line[::-1] if found else None

    # -- fewest steps and best score ---------------------------------------------------------
    def optimise(self, root, seat: int, fields: tuple, shares: int = 1) -> object:
        """Explore every position of the round once; fills `self.memo`, returns the root key.

        memo: key -> (steps, move, gain, move): `steps` is the fewest moves to the goal
        (INF if unreachable), `gain` the most points the seat can still add before the
        round ends. `fields` are the counters and whether the scores are in the key (the
        gain is only exact with the fields scoring can see). The best complete lines met
        so far are kept in `self.found`, for when the node limit stops the search. It may
        spend a `shares`-th of what is left of the call's budget (this search and the ones
        after it share the rest).
        """
        self.fields = fields
        if self.max_nodes is None:
            self.cap = INF
        else:
            self.cap = self.spent + max(0, self.max_nodes - self.spent) // shares
        self.memo = memo = {}
        self.found = {1: (INF, None), 3: (NO_GAIN, None)}
        path: list = []

        def value(state, key):
            memo[key] = None  # on the path: a cycle back here is not a way out
            base = state.scores[seat]
            best = (INF, None, NO_GAIN, None)
            for move, child, reason in self.children(state):
                if reason is not None:
                    steps, gain = (1 if reason == self.goal else INF), child.scores[seat] - base
                else:
                    ckey = self.key(child)
                    if ckey not in memo:
                        path.append(move)
                        value(child, ckey)
                        path.pop()
                    entry = memo[ckey]
                    if entry is None:
                        continue
                    steps = entry[0] + 1
                    gain = entry[2] + child.scores[seat] - base
                self.offer(path, move, len(path) + steps, base + gain)
                best = _better(best, steps, gain, move)
            memo[key] = best

        root_key = self.key(root)
        with _deep_recursion():
            value(root, root_key)
        return root_key

    def offer(self, path: list, move, steps, score) -> None:
        """Keep a complete line if it is the shortest or best scoring met so far."""
        if steps < self.found[1][0]:
            self.found[1] = (steps, path + [move])
        if score > self.found[3][0]:
            self.found[3] = (score, path + [move])

    def rebuild(self, root, prefix: list, which: int) -> list[str]:
        """A line: `prefix` from the root, then the memo's choices (`which` as in follow)."""
        state = root.clone()
        for move in prefix:
            state.apply(move.text)
        return [m.text for m in prefix] + self.follow(state, self.memo, which)

    def follow(self, root, memo: dict, which: int) -> list[str]:
        """Replay the memo's choices from the root: `which` 1 for steps, 3 for score."""
        state, line = root.clone(), []
        while True:
            entry = memo.get(self.key(state))
            if not entry or entry[which] is None:
                return line
            move = state.find_move(entry[which].text)
            line.append(move.text)
            if self.step(state, move) is not None:
                return line


def _runs(moves: list) -> list[list]:
    """The moves cut into runs of one action each, in the kernel's order."""
    runs: list[list] = []
    for move in moves:
        if runs and runs[-1][0].action == move.action:
            runs[-1].append(move)
        else:
            runs.append([move])
    return runs


def _reversed_within_actions(moves: list) -> list:
    """The actions kept in order, the moves of each backwards."""
    return [m for run in _runs(moves) for m in reversed(run)]


def _shuffled_within_actions(rng: random.Random):
    """An order: the actions kept in order, the moves of each shuffled by `rng`."""
    return lambda moves: [m for run in _runs(moves) for m in rng.sample(run, len(run))]


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
    relevance: Relevance | None = None,
    max_nodes: int | None = None,
) -> Solution:
    """Solve the current round of a single-player `state` (it is not changed).

    `goal` is a round-end reason (default: the ruleset's first end with a winner).
    `best=False` only decides whether the goal can be reached (fast: it stops at the
    first line found); otherwise every position is explored once for the fewest steps
    and the best score. `relevance` defaults to the analysis of the ruleset.
    """
    if state.n != 1:
        raise ValueError("the solver plays single-player rulesets only")
    data = state.game.model.ruleset.data
    goal = goal or default_goal(data)
    solver = Solver(goal, relevance or Relevance.of(data), max_nodes)
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
    """Reachable, fewest steps and best score; with a node limit, the best lines met."""
    seat, rel = state.to_move, solver.relevance
    try:
        line = solver.decide(state)  # quick, and settles reachability on its own
    except NodeLimit:
        line, result.exhaustive = None, False
    if line is not None:
        _record(result, 1, len(line), line)
    coarse = (rel.decide_counters, rel.decide_scores)
    fine = (rel.best_counters, rel.best_scores)
    # The fewest steps only need what legality sees; the score needs what scoring sees.
    passes = [(coarse, (1, 3) if fine == coarse else (1,))]
    if fine != coarse:
        passes.append((fine, (3,)))
    if line is None and result.exhaustive:  # proven unreachable: only the score is left
        passes = [(fine, (3,))]
    for k, (fields, wanted) in enumerate(passes):
        try:
            root_key = solver.optimise(state, seat, fields, len(passes) - k)
        except NodeLimit:
            result.exhaustive = False
            for which in wanted:
                value, prefix = solver.found[which]
                if prefix is not None and (which == 3 or result.steps is None
                                           or value < result.steps):
                    _record(result, which, value, solver.rebuild(state, prefix, which))
            continue
        entry = solver.memo[root_key]
        for which in wanted:
            value = entry[0] if which == 1 else state.scores[seat] + entry[2]
            if value not in (INF, state.scores[seat] + NO_GAIN):
                _record(result, which, value, solver.follow(state, solver.memo, which))
    met, met_line = solver.met
    if not result.exhaustive and met_line is not None and (
            result.best_score is None or met > result.best_score):
        # the budget ran out: a line deciding met may score more than any other met
        _record(result, 3, met, met_line)


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
