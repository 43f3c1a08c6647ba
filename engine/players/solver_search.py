"""The searches of the exact solver (`engine.players.solver`): positions, keys, budgets.

It never reimplements a rule: it searches the kernel's own `legal_moves` and action
steps, memoised on a compact key of the position (`engine.players.solver_key`). The
full search applies each move to the position itself with the kernel's search step
(`Game.search_steps`: the same change, no score events or log) and takes it back
(`State.search_save` / `search_restore`); the quick `decide` steps copies.
"""

from __future__ import annotations

import os
import random
import sys

from engine.players.solver_key import make_key, top_classes
from engine.players.solver_safe import defer_filter, safe_picker

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


class Solver:
    """Searches one round of a single-player game from a given state."""

    def __init__(self, goal: str, relevance, max_nodes: int | None = None,
                 max_memory: int | None = None, sign: int = 1):
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
        self.root_pool: list = []
        self.key = None  # `key(state)`, made by `set_fields`
        #: `pick(state, moves)`: a move the ruleset marks safe (`decide` only), or None
        self.pick_safe = None
        #: `kept(state, moves)`: the moves but the deferred ones, in `decide`'s first search
        self.drop = None
        #: whether the key holds the turn number; if not, a line cut by the turn limit
        #: sets `cut`: the answers are then unproven (see `engine.players.solver_key`)
        self.turns_keyed = "turns" in relevance.round_fields
        self.cut = False
        # The memory budget counts from what the process held when the solve began.
        self.memory_cap = None if not max_memory else memory_in_use() + max_memory
        self.next_check = CHECK_EVERY

    # -- positions --------------------------------------------------------------------
    def set_fields(self, fields: tuple, root) -> None:
        """Key positions by `fields` (the counters, whether the scores) from `root` on."""
        self.fields = fields
        self.root_pool = list(root.pool)
        self.key = make_key(root.game, self.relevance.round_fields, fields[0], fields[1],
                            root, top_classes(root.game, self.relevance.top_fields))

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

    def search_step(self, state, move) -> str | None:
        """As `step`, with the kernel's step for a search (no score events, no log);
        notes a line the turn limit cut while the key does not hold the turn number."""
        before = state.round
        state.game.search_steps[move.action](state, move)
        if state.round is not before or state.is_over:
            return self.ended(state, before)
        return None

    def ended(self, state, before) -> str:
        """Why the round `before` ended (a step just ended it)."""
        reason = (before.reason if state.round is not before else state.round.reason) or "?"
        if reason == "turn_limit" and not self.turns_keyed:
            self.cut = True
        return reason

    def expand(self, state) -> list:
        """The legal moves of a position the search expands, counted against the budgets
        (NodeLimit once one is spent)."""
        self.count_node()
        return state.legal_moves()

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

    def children(self, state, order=None):
        """(move, child state, reason the round ended or None) for every legal move, in
        the kernel's order or as `order` rearranges it. `state` itself becomes the last
        child: the searches hand it their own copies (`decide`, `optimise`)."""
        moves = self.expand(state)
        if self.drop is not None:  # (the first search for a line: `defer:` moves left out)
            moves = self.drop(state, moves)
        safe = self.pick_safe(state, moves) if self.pick_safe is not None else None
        if safe is not None:  # (the ruleset's `safe:`: this move alone, engine/players/solver_safe.py)
            moves = [safe]
        elif order is not None:
            moves = order(moves)
        last = len(moves) - 1
        for i, move in enumerate(moves):
            # The last child is the position itself, stepped in place: a searcher reads
            # nothing of a position once its children are listed (a clone saved each).
            child = state if i == last else state.search_clone()
            yield move, child, self.search_step(child, move)

    # -- is the goal reachable? ------------------------------------------------------------
    def decide(self, root) -> list[str] | None:
        """A line reaching the goal, or None if there is none.

        Depth first, stopping at the first line found. How fast a fixed move order finds
        one depends much on the deal (heavy tails), so orders take turns, each until a
        budget of positions that doubles every round: the kernel's; the moves of each
        action backwards; and a shuffle within each action, seeded by the round.
        Positions proven dead are shared, since that does not depend on the order.
        """
        return self.decide_hinted(root, safe_picker(root.game), defer_filter(root.game))

    def decide_hinted(self, root, pick_safe, drop) -> list[str] | None:
        """`decide` with these hints (`solver_safe.py`): `pick_safe` the one move to take
        alone at a position, or None; `drop` the moves to leave out in a first pass."""
        self.set_fields(self.fields, root)
        self.pick_safe, self.drop = pick_safe, drop
        if self.drop is not None:  # (first without the `defer:` moves)
            try:
                line = self._rounds(root)
            finally:
                self.drop = None
            if line is not None:
                return line
        return self._rounds(root)

    def _rounds(self, root) -> list[str] | None:
        """`decide`'s rounds of move orders (see there), until a line or none."""
        dead: set = set()
        budget, round_ = 1000, 0
        limit = INF if self.max_nodes is None else self.max_nodes
        while True:
            shuffle = random.Random(round_)
            for order in self.orders(shuffle):
                self.cap = min(self.spent + budget, limit)
                try:
                    return self._depth_first(root.search_clone(), dead, order)
                except NodeLimit as stop:
                    if stop.reason != "nodes" or self.spent >= limit:
                        raise
            budget, round_ = budget * 2, round_ + 1

    @staticmethod
    def orders(shuffle: random.Random) -> tuple:
        """The move orders `decide` takes in turn (see there)."""
        return None, _reversed_within_actions, _shuffled_within_actions(shuffle)

    def _depth_first(self, root, dead: set, order) -> list[str] | None:
        self.walk = _Walk(dead, order, {self.key(root): 0}, root.to_move)
        with deep_recursion():
            found = self._search(root, 0)
        return self.walk.line[::-1] if found is True else None

    def _search(self, state, depth: int):
        """True if a line from here reaches the goal; else the least depth of a position
        on the path that a cycle met (INF if none): a position is dead only if no cycle
        below it led back above it (its failure may not hold when it is reached another
        way, in a search that a budget stops)."""
        walk, sign = self.walk, self.sign
        open_children, low, seat = [], INF, walk.seat
        for move, child, reason in self.children(state, walk.order):
            if reason is None:
                key = self.key(child)
                if key not in walk.dead:
                    open_children.append((move, child, key))
                continue
            if sign * child.scores[seat] > self.met[0]:  # a complete line: the best?
                self.met = (sign * child.scores[seat],
                            [m.text for m in walk.path] + [move.text])
            if reason == self.goal:
                walk.line.append(move.text)
                return True
        for move, child, key in open_children:
            if key in walk.dead or key in walk.on_path:
                low = min(low, walk.on_path.get(key, INF))
                continue
            walk.path.append(move)
            walk.on_path[key] = depth + 1
            found = self._search(child, depth + 1)
            del walk.on_path[key]
            if found is True:
                walk.line.append(move.text)
                return True
            walk.path.pop()
            if found > depth:  # every line from it was searched: none reaches the goal
                walk.dead.add(key)
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
        `shares`-th of what is left of the call's node budget. Each move is applied to
        the position itself and taken back (`State.search_save`), but the last: nothing
        reads a position once its last child is searched.
        """
        self.begin_optimise(root, seat, fields, shares, floor)
        root_key = self.key(root)
        with deep_recursion():
            self.value(root.search_clone(), root_key)  # (`children` steps it in place)
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

    def value(self, state, key) -> None:
        """The memo entry of one position (see `optimise`), its children's first."""
        memo, seat, sign, path, found = self.memo, self.seat, self.sign, self.path, self.found
        memo[key] = None  # on the path: a cycle back here is not a way out
        base, floor, best = state.scores[seat], self.floor, [INF, None, NO_GAIN, None, NO_GAIN, None]
        moves, step_of = self.expand(state), state.game.search_steps
        for left, move in enumerate(moves, 1 - len(moves)):  # (`left` is 0 at the last)
            saved = state.search_save() if left else None  # (see `optimise`)
            before = state.round  # (`search_step`, the call written out)
            step_of[move.action](state, move)
            reason = self.ended(state, before) if (
                state.round is not before or state.is_over) else None
            points = sign * (state.scores[seat] - base)  # (read before a search steps it)
            if reason is None:
                ckey = self.key(state)
                if ckey not in memo:
                    path.append(move)
                    self.value(state, ckey)
                    path.pop()
                entry = memo[ckey]
            if saved is not None:
                state.search_restore(saved)
            if reason is not None:
                steps, gain, below = (1 if reason == self.goal else INF), points, 0
            elif entry is None:
                continue
            else:
                steps, gain, below = entry[0] + 1, entry[2] + points, entry[4]
            if len(path) + steps < found[1][0] or not floor and sign * base + gain > found[3][0]:
                self.offer(path, move, len(path) + steps, None if floor else base + sign * gain)
            if steps < best[0]:
                best[0], best[1] = steps, move
            if gain > best[2]:
                best[2], best[3] = gain, move
            if below > best[4]:
                best[4], best[5] = below, move
        if best[2] > best[4]:
            best[4], best[5] = best[2], None  # None: from here, follow the gains
        memo[key] = tuple(best)

    def offer(self, path: list, move, steps, score) -> None:
        """Keep a complete line if it is the shortest or best scoring met so far."""
        if steps < self.found[1][0]:
            self.found[1] = (steps, path + [move])
        if score is not None and self.sign * score > self.found[3][0]:
            self.found[3] = (self.sign * score, path + [move])

    def rebuild(self, root, prefix: list, which: int) -> list[str]:
        """A line: `prefix` from the root, then the memo's choices (`which` as in follow)."""
        state, before = root.clone(), root.round
        for move in prefix:
            state.apply(move.text)
        if state.round.number != before.number or state.is_over:
            return [m.text for m in prefix]  # (the line ended the round: nothing follows)
        return [m.text for m in prefix] + self.follow(state, which)

    def follow(self, root, which: int, lifted: bool = False) -> list[str]:
        """Replay the memo's choices from the root: `which` 1 for steps, 3 for score;
        `lifted`: first down the `lift` moves to where the best suffix starts."""
        memo = self.memo
        state, line = root.clone(), []
        while True:
            entry = memo.get(self.key(state))
            if not entry:
                return line
            move, lifted = chosen(entry, which, lifted)
            if move is None:
                return line
            move = state.find_move(move.text)
            line.append(move.text)
            if self.step(state, move) is not None:
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


class _Walk:
    """What one depth-first search of `decide` keeps: the positions proven dead, the
    move order, the positions on the path (key -> depth), the seat, the path's moves and,
    once found, the line (last move first)."""

    def __init__(self, dead: set, order, on_path: dict, seat: int):
        self.dead, self.order, self.on_path, self.seat = dead, order, on_path, seat
        self.path: list = []
        self.line: list[str] = []


class deep_recursion:
    """Raise the recursion limit for a search as deep as a round is long."""

    def __enter__(self):
        self.old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.old, 20000))

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.old)
