"""A program's match replayed on the program: what a view of its state reads of the
past (`engine.program.views`), as `Program.to_state` replays it on the interpreter.

The replay starts a state of its own from the match's seed (`Program.new`) and applies
the log's codes in turn, the clock set as it read at each move: each move's text, the
scores after it and the chance outcomes it caused are what a record's history holds.
A board kind's watcher (`view_boards.watcher`) sees each step, for what the program's
state forgets (the piece laid on each cell, a round's deal). It is kept and advanced
as the log grows; it is valid only when its state ends where `s` is, which a state
made by `Program.from_state` or a search's copy (whose log starts later) is not.
"""

from __future__ import annotations

#: the fields a replay's state must share with the state it replays
_SAME = ("n", "seed", "scores", "to_move", "round", "turns_total", "over", "pool", "pile",
         "hands")


class Replay:
    """The log of a program's state `s` replayed from its seed (`advance`); `watch`:
    the board kind's watcher, or None."""

    def __init__(self, program, s: list, watch=None):
        f = self.f = program.fields
        self.program, self.watch = program, watch
        self.state = program.new(s[f["n"]], s[f["seed"]])
        self.codes: list[int] = []
        self.moves: list[tuple[str, list]] = []  # (text, scores after) per move
        self.mark = 0  # the clock's marks of `s` set so far
        self.valid = False
        if watch is not None:
            watch.round(self.state)

    def extends(self, s: list) -> bool:
        """Whether `s`'s log goes on from what was replayed (the same match)."""
        f, done = self.f, len(self.codes)
        log = s[f["log"]]
        return (s[f["seed"]] == self.state[f["seed"]] and s[f["n"]] == self.state[f["n"]]
                and len(log) >= done and log[:done] == self.codes)

    def advance(self, s: list) -> None:
        """Replay the moves of `s`'s log not replayed yet; `valid` says whether the
        replay ends where `s` is."""
        f = self.f
        marks = s[f["marks"]] if "marks" in f else ()
        log = s[f["log"]]
        for i in range(len(self.codes), len(log)):
            while self.mark < len(marks) and marks[self.mark][0] <= i:
                self.program.set_clock(self.state, marks[self.mark][1])
                self.mark += 1
            self._step(log[i])
        self.valid = all(self.state[f[name]] == s[f[name]] for name in _SAME)

    def _step(self, code: int) -> None:
        program, state, watch = self.program, self.state, self.watch
        f = self.f
        text = program.move_text(state, code)
        token = watch.before(state, code) if watch is not None else None
        number = state[f["round"]]
        program.apply(state, code)
        if watch is not None:
            if token is not None:
                watch.after(state, token)
            if state[f["round"]] != number:
                watch.round(state)
        self.codes.append(code)
        self.moves.append((text, list(state[f["scores"]])))

    def history(self) -> list[dict]:
        """One dict per move replayed, as a record holds it: its text, the chance
        outcomes it caused (uids, first dealt first) and the scores after it."""
        caused: dict[int, list] = {}
        for at, order in self.state[self.f["chances"]]:
            caused.setdefault(at, []).append([p.uid for p in order])
        return [{"move": text, "chances": caused.get(i, []), "scores": scores}
                for i, (text, scores) in enumerate(self.moves)]
