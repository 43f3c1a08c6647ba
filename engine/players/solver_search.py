"""The exact solver's one search (`engine.players.solver`): depth first, memoised on a
compact key of the position, within budgets.

It never reimplements a rule: it steps positions with the kernel's own moves, through
a small set of operations on positions (`Positions`): the interpreter's `State`s
(`engine.players.solver_positions`) or a compiled program's plain lists
(`engine.players.solver_program`). The search is written once, over those:

- `decide`: a line reaching the goal, depth first, stopping at the first one found,
  with the ruleset's `safe:` and `defer:` hints (`engine.players.solver_safe`);
- `optimise`: every position of the round once, for the fewest steps and the best
  score (`value`, the search's inner loop).

Each child of a position but the last is a branch of it (`Positions.branch`: a copy,
or the position itself with what the move changes saved, `Positions.back` taking it
back); the last is the position itself, stepped in place: nothing reads a position once
its last child is searched. A step that ends the round says so in a list the search's
positions share (`Positions.ends_of`: a program's own round-end list), so that a step
is the program's `search_apply` itself, with no call around it.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Callable, Protocol

INF = float("inf")
NO_GAIN = -(10**18)  # below any reachable score: a line that never ends the round
#: the score a search plays at when the floor is handled by unclamped increments: so
#: high that no floor is ever reached, so every step adds its unclamped points
HIGH_SCORE = 10**12
CHECK_EVERY = 8192  # expansions between two readings of the memory in use


class NodeLimit(Exception):
    """A budget (positions or memory) stopped the search; `.reason` says which."""

    def __init__(self, reason: str = "nodes"):
        super().__init__(reason)
        self.reason = reason


def memory_in_use() -> int:
    """The bytes this process holds in memory now (resident set; 0 if unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def machine_memory() -> int:
    """The machine's memory in bytes (0 if unknown)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


class Positions(Protocol):
    """What the search does with positions and moves (the interpreter's `State`s or a
    program's lists; a move is a kernel `Move` or a program's int code). The callables
    are attributes, so that the search binds them once."""

    seat: int  #: the seat searched for (the root's mover), once `key_from` is called
    cut: bool  #: a line was cut by the turn limit while the key lacks the turn number
    legal: Callable  #: `legal(p)`: p's moves, in the kernel's order
    scores: Callable  #: `scores(p)`: the seats' scores
    #: `step(p, move)`: the search's step; a step that ends the round puts why in
    #: `ends_of(p)`, a list that p's copies and branches share, which `reason` empties
    step: Callable
    reason: Callable  #: `reason(p)`: why the round ended (its step just ended it)
    ends_of: Callable  #: `ends_of(p)`: the list of round ends (see `step`)
    copy: Callable  #: `copy(p)`: an independent copy, to step with `step`
    branch: Callable  #: `branch(p)`: what to step a move on, p's last move aside
    back: Callable | None  #: `back(p)` after the branch's subtree, or None: nothing to do
    action_of: Callable  #: `action_of(move)`: the move's action (the orders keep them)
    #: `(pick(p, moves), kept(p, moves))`: the ruleset's `safe:` move to take alone or
    #: None, and the moves but the `defer:` ones; each None when no action has one
    hints: tuple

    def key_from(self, root, relevance, fields: tuple) -> Callable:
        """`key(p)` for the question's `fields`, positions of the round of `root` on
        (the interpreter's `State`); the search then starts from `root`."""

    def start(self):
        """A copy of the root for a search to step."""

    def texts(self, moves: list) -> list[str]:
        """The texts of a line of moves from the root."""

    def replay(self, root):
        """A copy of `root` (a `State`) to play a line on with `play`."""

    def play(self, p, move) -> tuple[str, str | None]:
        """(the move's text, why it ended the round or None), stepping `p` for real."""


class Solver:
    """Searches one round of a single-player game from a given state."""

    def __init__(self, positions: Positions, goal: str, relevance,
                 max_nodes: int | None = None, max_memory: int | None = None,
                 sign: int = 1):
        self.positions = positions
        self.goal = goal
        self.relevance = relevance
        self.max_nodes = max_nodes
        self.sign = sign  # 1: more points are better; -1: fewer (`objective: lowest`)
        self.nodes = 0  # positions expanded in all
        self.spent = 0  # in this solve call (every search together), against `max_nodes`
        self.memo: dict = {}
        self.found: dict = {}
        self.fields = (relevance.decide_counters, relevance.decide_scores)
        self.cap = INF  # `spent` beyond which the current search stops
        #: the best-scoring complete line `decide` met: (signed score, move texts)
        self.met: tuple = (NO_GAIN, None)
        self.key = None  # `key(p)`, made by `set_fields`
        #: `pick(p, moves)`: a move the ruleset marks safe (`decide` only), or None
        self.pick_safe = None
        #: `kept(p, moves)`: the moves but the deferred ones, in `decide`'s first search
        self.drop = None
        # The memory budget counts from what the process held when the solve began.
        self.memory_cap = None if not max_memory else memory_in_use() + max_memory
        self.next_check = CHECK_EVERY
        self.check_at = INF  # `spent` at which `value` next calls `checkpoint`

    @property
    def cut(self) -> bool:
        """Whether the turn limit cut a line while the key does not hold the turn
        number (see `engine.players.solver_key`): the answers are then unproven."""
        return self.positions.cut

    def set_fields(self, fields: tuple, root) -> None:
        """Key positions by `fields` (the counters, whether the scores) from `root` on."""
        self.fields = fields
        self.key = self.positions.key_from(root, self.relevance, fields)

    def count_node(self) -> None:
        """Count a position expanded against the budgets (NodeLimit once one is spent)."""
        self.spent += 1
        if self.spent > self.cap:
            raise NodeLimit("nodes")
        if self.memory_cap is not None and self.spent >= self.next_check:
            self.next_check = self.spent + CHECK_EVERY
            if memory_in_use() > self.memory_cap:
                raise NodeLimit("memory")
        self.nodes += 1  # counted once expanded: a stopped search reports what it did

    # -- is the goal reachable? ------------------------------------------------------------
    def decide(self, root) -> list[str] | None:
        """A line reaching the goal, or None if there is none.

        Depth first, stopping at the first line found. How fast a fixed move order finds
        one depends much on the deal (heavy tails), so orders take turns, each until a
        budget of positions that doubles every round: the kernel's; the moves of each
        action backwards; and a shuffle within each action, seeded by the round.
        Positions proven dead are shared, since that does not depend on the order. The
        ruleset's hints (`Positions.hints`): a `safe:` move is taken alone, and the
        moves `defer:` marks are left out of a first search for a line.
        """
        self.set_fields(self.fields, root)
        self.pick_safe, self.drop = self.positions.hints
        if self.drop is not None:  # (first without the `defer:` moves)
            try:
                line = self._rounds()
            finally:
                self.drop = None
            if line is not None:
                return line
        return self._rounds()

    def _rounds(self) -> list[str] | None:
        """`decide`'s rounds of move orders (see there), until a line or none."""
        dead: set = set()
        budget, round_ = 1000, 0
        limit = INF if self.max_nodes is None else self.max_nodes
        while True:
            shuffle = random.Random(round_)
            for order in self.orders(shuffle):
                self.cap = min(self.spent + budget, limit)
                try:
                    return self._depth_first(dead, order)
                except NodeLimit as stop:
                    if stop.reason != "nodes" or self.spent >= limit:
                        raise
            budget, round_ = budget * 2, round_ + 1

    def orders(self, shuffle: random.Random) -> tuple:
        """The move orders `decide` takes in turn (see there): the kernel's, each
        action's moves backwards, each action's moves shuffled by `shuffle`."""
        action_of = self.positions.action_of

        def backwards(moves: list) -> list:
            return [m for run in _runs(moves, action_of) for m in reversed(run)]

        def shuffled(moves: list) -> list:
            return [m for run in _runs(moves, action_of) for m in shuffle.sample(run, len(run))]

        return None, backwards, shuffled

    def _depth_first(self, dead: set, order) -> list[str] | None:
        root = self.positions.start()
        self.walk = _Walk(dead, order, {self.key(root): 0}, self.positions.seat)
        self.walk.ends = self.positions.ends_of(root)
        with deep_recursion():
            found = self._search(root, 0)
        return self.positions.texts(self.walk.line[::-1]) if found is True else None

    def _listed(self, p, order) -> list:
        """The moves `_search` tries at `p`: without the deferred ones, the safe one
        alone, else all in `order`."""
        moves = self.positions.legal(p)
        if self.drop is not None:  # (the first search for a line: `defer:` moves left out)
            moves = self.drop(p, moves)
        if self.pick_safe is not None:  # (the ruleset's `safe:`: this move alone)
            safe = self.pick_safe(p, moves)
            if safe is not None:
                return [safe]
        return moves if order is None else order(moves)

    def _search(self, p, depth: int):
        """True if a line from here reaches the goal; else the least depth of a position
        on the path that a cycle met (INF if none): a position is dead only if no cycle
        below it led back above it (its failure may not hold when it is reached another
        way, in a search that a budget stops). Every child is stepped before any is
        searched: a line ending at one is found first."""
        walk, sign, key, positions = self.walk, self.sign, self.key, self.positions
        copy, step, scores, ends = positions.copy, positions.step, positions.scores, walk.ends
        self.count_node()
        moves = self._listed(p, walk.order)
        open_children, last = [], len(moves) - 1
        for i, move in enumerate(moves):
            child = p if i == last else copy(p)
            step(child, move)
            if not ends:
                ckey = key(child)
                if ckey not in walk.dead:
                    open_children.append((move, child, ckey))
                continue
            reason = positions.reason(child)
            score = sign * scores(child)[walk.seat]
            if score > self.met[0]:  # a complete line: the best?
                self.met = (score, positions.texts(walk.path + [move]))
            if reason == self.goal:
                walk.line.append(move)
                return True
        return self._search_children(open_children, depth)

    def _search_children(self, open_children: list, depth: int):
        walk, low = self.walk, INF
        for move, child, ckey in open_children:
            if ckey in walk.dead or ckey in walk.on_path:
                low = min(low, walk.on_path.get(ckey, INF))
                continue
            walk.path.append(move)
            walk.on_path[ckey] = depth + 1
            found = self._search(child, depth + 1)
            del walk.on_path[ckey]
            if found is True:
                walk.line.append(move)
                return True
            walk.path.pop()
            if found > depth:  # every line from it was searched: none reaches the goal
                walk.dead.add(ckey)
            low = min(low, found)
        return low

    # -- fewest steps and best score ---------------------------------------------------------
    def optimise(self, root, seat: int, fields: tuple, shares: int = 1,
                 floor: bool = False) -> object:
        """Explore every position of the round once; fills `self.memo`, returns the root key.

        memo: key -> (steps, move, gain, move, lift, move): `steps` is the fewest moves
        to the goal (INF if unreachable), `gain` the most points (signed by the
        objective) the seat can still add before the round ends. With `floor` (the root
        is played at HIGH_SCORE, so each gain is unclamped), `lift` is the best gain
        from this position or any reachable from it: a floor at 0 that clamps at some
        position makes the final score that position's gain (the yardstick's reading of
        the floor: the best final score is the best such suffix). `fields` are the
        counters and whether the scores are in the key. The best complete lines met are
        kept in `self.found`, for when a budget stops the search (with `floor` the
        score met is not the real one: only the steps count). It may spend a
        `shares`-th of what is left of the call's node budget.
        """
        self.begin_optimise(root, seat, fields, shares, floor)
        p = self.positions.start()
        root_key = self.key(p)
        value, settle = self._values(p)
        with deep_recursion():
            try:
                value(p, root_key, self.positions.scores(p)[seat])
            except NodeLimit:
                raise  # (the counts are written: `checkpoint` raised it)
            except BaseException:
                settle()
                raise
        settle()
        return root_key

    def begin_optimise(self, root, seat: int, fields: tuple, shares: int, floor: bool) -> None:
        """What `optimise` starts from: the key's fields, the node cap for this share of
        the budget left, an empty memo and no line found yet."""
        self.set_fields(fields, root)
        if self.max_nodes is None:
            self.cap = INF
        else:
            self.cap = self.spent + max(0, self.max_nodes - self.spent) // shares
        self.memo = {}
        self.found = {1: (INF, None), 3: (NO_GAIN, None)}
        self.path, self.seat, self.floor = [], seat, floor
        self._set_check()

    def _values(self, root) -> tuple[Callable, Callable]:
        """(`value(p, key, base)`, the memo entry of one position (see `optimise`), its
        children's first, `root` or one of its branches, with `base` the seat's score
        there; `settle()`, which writes back the positions counted).

        This is the search's inner loop: a closure over what it reads, so that a
        position binds nothing; the count of positions and the best entry's six parts
        inline; the path and the lines met kept only when a budget may stop the search
        (`track`: only then are they read). Positions are counted in the closure
        (`spent`) and written back by `settle`, or before a `checkpoint`."""
        memo, seat, sign, path, found = self.memo, self.seat, self.sign, self.path, self.found
        floor, goal, track, keyf, offer = self.floor, self.goal, self.track, self.key, self.offer
        positions = self.positions
        legal, scores, step = positions.legal, positions.scores, positions.step
        branch, back, reason_of = positions.branch, positions.back, positions.reason
        ends = positions.ends_of(root)
        spent, nodes0, check_at = self.spent, self.nodes - self.spent, self.check_at

        def settle() -> None:
            self.spent, self.nodes = spent, nodes0 + spent

        def value(p, key, base) -> None:
            nonlocal spent, check_at
            memo[key] = None  # on the path: a cycle back here is not a way out
            if spent + 1 >= check_at:  # (this position counted against the budget only)
                self.spent, self.nodes = spent + 1, nodes0 + spent
                self.checkpoint()
                check_at = self.check_at
            spent += 1
            moves = legal(p)
            steps_b, gain_b, lift_b = INF, NO_GAIN, NO_GAIN
            steps_m = gain_m = lift_m = None
            depth, last = len(path), (moves[-1] if moves else None)
            for move in moves:  # (a listing never holds one move twice)
                child = p if move is last else branch(p)
                step(child, move)
                score = scores(child)[seat]  # (read before a search steps it)
                points = sign * (score - base)
                if ends:  # (the round ended)
                    steps = 1 if reason_of(child) == goal else INF
                    gain, below = points, 0
                else:
                    ckey = keyf(child)
                    if ckey not in memo:
                        if track:
                            path.append(move)
                            value(child, ckey, score)
                            path.pop()
                        else:
                            value(child, ckey, score)
                    entry = memo[ckey]
                    if entry is None:
                        if back is not None and move is not last:
                            back(p)
                        continue
                    steps, gain, below = entry[0] + 1, entry[2] + points, entry[4]
                if back is not None and move is not last:
                    back(p)
                if track and (depth + steps < found[1][0]
                              or not floor and sign * base + gain > found[3][0]):
                    offer(path, move, depth + steps, None if floor else base + sign * gain)
                if steps < steps_b:
                    steps_b, steps_m = steps, move
                if gain > gain_b:
                    gain_b, gain_m = gain, move
                if below > lift_b:
                    lift_b, lift_m = below, move
            if gain_b > lift_b:
                lift_b, lift_m = gain_b, None  # None: from here, follow the gains
            memo[key] = (steps_b, steps_m, gain_b, gain_m, lift_b, lift_m)

        return value, settle

    def checkpoint(self) -> None:
        """`count_node`'s checks, when `value` reaches `check_at`: the node budget, and
        every so many positions the memory in use; then the next point to check at."""
        if self.spent > self.cap:
            raise NodeLimit("nodes")
        if self.memory_cap is not None and self.spent >= self.next_check:
            self.next_check = self.spent + CHECK_EVERY
            if memory_in_use() > self.memory_cap:
                raise NodeLimit("memory")
        self._set_check()

    def _set_check(self) -> None:
        memory = INF if self.memory_cap is None else self.next_check
        self.check_at = min(self.cap + 1, memory)
        self.track = self.cap != INF or self.memory_cap is not None

    def offer(self, path: list, move, steps, score) -> None:
        """Keep a complete line if it is the shortest or best scoring met so far."""
        if steps < self.found[1][0]:
            self.found[1] = (steps, path + [move])
        if score is not None and self.sign * score > self.found[3][0]:
            self.found[3] = (self.sign * score, path + [move])

    # -- the lines ---------------------------------------------------------------------------
    def rebuild(self, root, prefix: list, which: int) -> list[str]:
        """A line: `prefix` from the root, then the memo's choices (`which` as in follow)."""
        p, line = self.positions.replay(root), []
        for move in prefix:
            text, reason = self.positions.play(p, move)
            line.append(text)
            if reason is not None:
                return line  # (the line ended the round: nothing follows)
        return line + self._follow(p, which)

    def follow(self, root, which: int, lifted: bool = False) -> list[str]:
        """Replay the memo's choices from the root: `which` 1 for steps, 3 for score;
        `lifted`: first down the `lift` moves to where the best suffix starts."""
        return self._follow(self.positions.replay(root), which, lifted)

    def _follow(self, p, which: int, lifted: bool = False) -> list[str]:
        memo, play, line = self.memo, self.positions.play, []
        while True:
            entry = memo.get(self.key(p))
            if not entry:
                return line
            move, lifted = chosen(entry, which, lifted)
            if move is None:
                return line
            text, reason = play(p, move)
            line.append(text)
            if reason is not None:
                return line


def chosen(entry: tuple, which: int, lifted: bool) -> tuple:
    """(the move a memo entry chooses, whether the line is still lifted): `which` 1 for
    steps, 3 for score; while `lifted`, the entry's `lift` move (index 5) until one has
    none, from where the line follows `which`."""
    if lifted:
        if entry[5] is None:
            return entry[which], False
        return entry[5], True
    return entry[which], False


def _runs(moves: list, action_of: Callable) -> list[list]:
    """The moves cut into runs of one action each, in the kernel's order."""
    runs: list[list] = []
    last = None
    for move in moves:
        action = action_of(move)
        if runs and action == last:
            runs[-1].append(move)
        else:
            runs.append([move])
            last = action
    return runs


class _Walk:
    """What one depth-first search of `decide` keeps: the positions proven dead, the
    move order, the positions on the path (key -> depth), the seat, the path's moves and,
    once found, the line (last move first)."""

    def __init__(self, dead: set, order, on_path: dict, seat: int):
        self.dead, self.order, self.on_path, self.seat = dead, order, on_path, seat
        self.path: list = []
        self.line: list = []
        self.ends: list = []  # (`Positions.ends_of` the root)


class deep_recursion:
    """Raise the recursion limit for a search as deep as a round is long."""

    def __enter__(self):
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 20000))

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.old)
