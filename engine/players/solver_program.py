"""The exact solver's searches on a ruleset's compiled program (`engine.program`).

The same searches as `engine.players.solver_search` (which stays the reference and the
fallback), on the program's plain state: a move is an int code, a position a list,
applied by the program's own `apply` (which lists the next position's moves). Each
child but the last is a `search_copy` of the position; the last is the position itself,
stepped in place (nothing reads a position once its last child is searched). The key
is one function written for the ruleset and question (`program_key`): the board's part
from its code (`TableauCode.key_text`: the slots holding a card, as bits), the pool's
and pile's sizes and the pile's top packed into one integer, then the counters, turns
and score the question sees. Points are the program's own, played from HIGH_SCORE when
the floor is handled by unclamped increments (see `engine.players.solver`).

Answers are the interpreter's exactly: the program lists the moves in the
interpreter's order, so the memo's choices and the lines are the same
(tests/players/test_solver_program.py).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Callable

from engine.players.solver_search import INF, NO_GAIN, Solver, deep_recursion, _Walk
from engine.program import program_for


def program_key(program, round_fields: tuple[str, ...], counters: tuple[str, ...],
                scores: bool) -> Callable | None:
    """`key(s)` of a program's position (see the module's docstring), or None when the
    question reads a part the program does not hold (the interpreter's search then)."""
    f, model = program.fields, program.game.model
    names = list(model.counters)
    if any(name not in names for name in counters) or set(round_fields) - {"turns"}:
        return None
    board, bound = program.plan.board.key_text(f)
    size = len(program.game.pieces) + 1
    packed = (f"((({board} * {size} + _len(s[{f['pool']}])) * {size} + _len(pile))"
              f" * {size} + (pile[-1].uid + 1 if pile else 0))")
    extra = [f"s[{f['counters']}][{names.index(name)}]" for name in counters]
    extra += [f"s[{f['turns']}]"] if round_fields else []
    extra += [f"s[{f['scores']}][0]"] if scores else []
    if not extra:
        body = packed
    elif len(extra) == 1:  # (any int: the packed part stays below its factor)
        body = f"{packed} + {bound * size ** 3} * {extra[0]}"
    else:
        body = f"({packed}, {', '.join(extra)})"
    text = f"def key(s):\n    pile = s[{f['pile']}]\n    return {body}\n"
    names_ = {"_len": len}
    exec(compile(text, "<solver program key>", "exec"), names_)  # the solver's own text
    return names_["key"]


def searcher(state, goal: str, relevance, max_nodes, max_memory, sign: int,
             compiled: bool | None = None) -> Solver:
    """The search for `state`: on its ruleset's program when it has one (and the
    question reads only what the program holds), unless `compiled` is False; the
    interpreter's otherwise. `compiled=True` requires the program."""
    program = program_for(state.game) if compiled is not False else None
    rel = relevance
    if program is not None and all(
            program_key(program, rel.round_fields, c, s) is not None
            for c, s in ((rel.decide_counters, rel.decide_scores),
                         (rel.best_counters, True))):
        return ProgramSolver(program, goal, relevance, max_nodes, max_memory, sign)
    if compiled:
        raise ValueError("this ruleset has no compiled program the solver can search")
    return Solver(goal, relevance, max_nodes, max_memory, sign)


class ProgramSolver(Solver):
    """`Solver`'s searches on a program's positions (see the module's docstring)."""

    def __init__(self, program, goal: str, relevance, max_nodes=None, max_memory=None,
                 sign: int = 1):
        super().__init__(goal, relevance, max_nodes, max_memory, sign)
        self.program = program
        f = program.fields
        self._legal, self._scores, self._round = f["legal"], f["scores"], f["round"]
        self._over, self._ended = f["over"], f["ended"]
        self._starts = [base for _, base in program.plan.actions]
        self.root_s: list = []

    def set_fields(self, fields: tuple, root) -> None:
        """Key positions by `fields` (the counters, whether the scores) from `root` on."""
        self.fields = fields
        self.key = program_key(self.program, self.relevance.round_fields, *fields)
        self.root_s = self.program.from_state(root)

    def _step(self, s: list, code: int) -> str | None:
        """Apply `code` to `s`; the reason if it ended the round, else None."""
        number = s[self._round]
        self.program.apply(s, code)
        if s[self._round] != number or s[self._over]:
            reason = s[self._ended][0] or "?"  # (a search's copies start with none)
            if reason == "turn_limit" and not self.turns_keyed:
                self.cut = True
            return reason
        return None

    def texts(self, codes: list[int]) -> list[str]:
        """The move texts of a line of codes from the root."""
        program = self.program
        s, line = program.search_copy(self.root_s), []
        for code in codes:
            line.append(program.move_text(s, code))
            program.apply(s, code)
        return line

    # -- is the goal reachable? ------------------------------------------------------------
    def orders(self, shuffle: random.Random) -> tuple:
        starts = self._starts

        def runs(codes: list[int]) -> list[list[int]]:
            out: list[list[int]] = []
            last = None
            for code in codes:
                action = bisect_right(starts, code)
                if action == last:
                    out[-1].append(code)
                else:
                    out.append([code])
                    last = action
            return out

        def backwards(codes):
            return [c for run in runs(codes) for c in reversed(run)]

        def shuffled(codes):
            return [c for run in runs(codes) for c in shuffle.sample(run, len(run))]

        return None, backwards, shuffled

    def _depth_first(self, root, dead: set, order) -> list[str] | None:
        s = self.program.search_copy(self.root_s)
        self.walk = _Walk(dead, order, {self.key(s): 0}, s[self.program.fields["to_move"]])
        found = self._search(s, 0)
        return self.texts(self.walk.line[::-1]) if found is True else None

    def _search(self, s: list, depth: int):
        """As `Solver._search`, on the program's positions (the line as codes)."""
        walk, sign, key, copy = self.walk, self.sign, self.key, self.program.search_copy
        open_children, low, seat = [], INF, walk.seat
        self.count_node()
        moves = s[self._legal] if walk.order is None else walk.order(s[self._legal])
        last = len(moves) - 1
        for i, code in enumerate(moves):
            child = s if i == last else copy(s)
            reason = self._step(child, code)
            if reason is None:
                ckey = key(child)
                if ckey not in walk.dead:
                    open_children.append((code, child, ckey))
                continue
            score = sign * child[self._scores][seat]
            if score > self.met[0]:  # a complete line: the best?
                self.met = (score, self.texts(walk.path + [code]))
            if reason == self.goal:
                walk.line.append(code)
                return True
        return self._search_children(open_children, depth, low)

    def _search_children(self, open_children: list, depth: int, low):
        walk = self.walk
        for code, child, ckey in open_children:
            if ckey in walk.dead or ckey in walk.on_path:
                low = min(low, walk.on_path.get(ckey, INF))
                continue
            walk.path.append(code)
            walk.on_path[ckey] = depth + 1
            found = self._search(child, depth + 1)
            del walk.on_path[ckey]
            if found is True:
                walk.line.append(code)
                return True
            walk.path.pop()
            if found > depth:  # every line from it was searched: none reaches the goal
                walk.dead.add(ckey)
            low = min(low, found)
        return low

    # -- fewest steps and best score ---------------------------------------------------------
    def optimise(self, root, seat: int, fields: tuple, shares: int = 1,
                 floor: bool = False) -> object:
        """As `Solver.optimise`, on the program's positions (moves as codes)."""
        self.set_fields(fields, root)
        if self.max_nodes is None:
            self.cap = INF
        else:
            self.cap = self.spent + max(0, self.max_nodes - self.spent) // shares
        self.memo = {}
        self.found = {1: (INF, None), 3: (NO_GAIN, None)}
        self.path, self.seat, self.floor = [], seat, floor
        s = self.program.search_copy(self.root_s)
        root_key = self.key(s)
        with deep_recursion():
            self.value(s, root_key)
        return root_key

    def value(self, s: list, key) -> None:
        """The memo entry of one position (see `Solver.optimise`), its children's first."""
        memo, seat, sign, path, found = self.memo, self.seat, self.sign, self.path, self.found
        memo[key] = None  # on the path: a cycle back here is not a way out
        scores_at, base, floor = self._scores, s[self._scores][seat], self.floor
        best = [INF, None, NO_GAIN, None, NO_GAIN, None]
        self.count_node()
        moves, copy, step, keyf = s[self._legal], self.program.search_copy, self._step, self.key
        last = len(moves) - 1
        for i, code in enumerate(moves):
            child = s if i == last else copy(s)
            reason = step(child, code)
            points = sign * (child[scores_at][seat] - base)
            if reason is not None:
                steps, gain, below = (1 if reason == self.goal else INF), points, 0
            else:
                ckey = keyf(child)
                if ckey not in memo:
                    path.append(code)
                    self.value(child, ckey)
                    path.pop()
                entry = memo[ckey]
                if entry is None:
                    continue
                steps, gain, below = entry[0] + 1, entry[2] + points, entry[4]
            if len(path) + steps < found[1][0] or not floor and sign * base + gain > found[3][0]:
                self.offer(path, code, len(path) + steps, None if floor else base + sign * gain)
            if steps < best[0]:
                best[0], best[1] = steps, code
            if gain > best[2]:
                best[2], best[3] = gain, code
            if below > best[4]:
                best[4], best[5] = below, code
        if best[2] > best[4]:
            best[4], best[5] = best[2], None  # None: from here, follow the gains
        memo[key] = tuple(best)

    def rebuild(self, root, prefix: list, which: int) -> list[str]:
        """A line: `prefix` (codes) from the root, then the memo's choices."""
        program = self.program
        s = program.from_state(root)
        line = []
        for code in prefix:
            line.append(program.move_text(s, code))
            program.apply(s, code)
        return line + self._follow(s, which)

    def follow(self, root, which: int, lifted: bool = False) -> list[str]:
        """As `Solver.follow`, from the interpreter's `root`."""
        return self._follow(self.program.from_state(root), which, lifted)

    def _follow(self, s: list, which: int, lifted: bool = False) -> list[str]:
        memo, program, line = self.memo, self.program, []
        while True:
            entry = memo.get(self.key(s))
            if not entry:
                return line
            code = entry[which]
            if lifted:
                if entry[5] is None:
                    lifted = False
                else:
                    code = entry[5]
            if code is None:
                return line
            line.append(program.move_text(s, code))
            if self._step(s, code) is not None:
                return line
