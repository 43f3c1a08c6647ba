"""The search's samples played out on the ruleset's compiled program (`engine.program`).

`mcts` samples what the seat cannot see as `engine.players.determinize` does (the
same pieces dealt again by the same draws), into a copy of the position's program
state (`Program.from_state`, taken once a search), and plays every root move out on
copies of the sample: `search_fork`
(a copy whose round-end lists are shared) and `search_apply` (the step without the
move's events or log). A greedy move previews each legal move on a fork with
`preview_apply` (nor the next moves listed: `State.preview`'s step), every preview of
one choice drawing from one scratch copy of the position's generator, as
`objective.best_index` does. The moves are listed in the interpreter's order and the
generators are copied where the interpreter's are, so the play-outs are the
interpreter's move for move: the search chooses the same moves
(tests/players/test_mcts_program.py), in less time where the program's steps are
cheaper than the interpreter's.
"""

from __future__ import annotations

import random

from engine.players.determinize import arrange, determinize, hidden_pieces, hidden_places
from engine.players.objective import looked_ahead, results_of, score_sign
from engine.program import program_for


class ProgramPlayout:
    """Samples and play-outs of one ruleset on its program."""

    def __init__(self, program):
        self.program = program
        self.game = program.game
        f = program.fields
        self.legal, self.scores, self.to_move = f["legal"], f["scores"], f["to_move"]
        self.round, self.over, self.winner = f["round"], f["over"], f["winner"]
        self.last_winner, self.hands = f["last_winner"], f.get("hands")
        self.pool, self.held = f["pool"], f.get("held")
        self.rng, self.rng_shared = f["rng"], f["rng_shared"]
        self.sign = score_sign(self.game)
        self._fork, self.apply = program.search_fork, program.search_apply
        self._preview = program.preview_apply

    @classmethod
    def of(cls, game) -> "ProgramPlayout | None":
        """The play-outs of `game` on its program, or None when it has none."""
        program = program_for(game)
        return cls(program) if program is not None else None

    def begin(self, state, seat: int) -> None:
        """Sample `state` as `seat` sees it from now on (`sample`). Where only hands and
        the pool are hidden, the program's state is taken once, from `state` itself,
        and each sample deals the hidden pieces into a copy of it; elsewhere (face-down
        board pieces) each sample is a program state of its own `determinize`."""
        places = hidden_places(state, seat)
        self._state, self._seat, self._places = state, seat, places
        self._pieces = hidden_pieces(state, places)
        self._base = None
        if all(place.kind in ("hand", "pool") for place in places):
            self._base = self.program.from_state(state)
            self._codes = dict(zip([m.text for m in state.legal_moves()],
                                   self._base[self.legal]))

    def sample(self, rng: random.Random, first: tuple | None = None) -> tuple[list, dict]:
        """A sample of what the seat cannot see (`determinize`: the same draws from
        `rng`, the same deal, `first` dealt first), as a program state, and each legal
        move's code by its text."""
        if self._base is None:
            world = determinize(self._state, self._seat, rng, first)
            s = self.program.from_state(world)
            return s, dict(zip([m.text for m in world.legal_moves()], s[self.legal]))
        pieces = self._pieces[:]
        rng.shuffle(pieces)
        if first is not None:
            pieces = arrange(pieces, first)
        s = self.fork(self._base)
        s[self.rng] = random.Random(rng.getrandbits(64))
        at, hands, held = 0, s[self.hands], self.held
        for place in self._places:
            dealt = pieces[at:at + place.size]
            at += place.size
            if place.kind == "pool":
                s[self.pool] = dealt + s[self.pool][place.size:]  # a top shown stays
            else:
                hands[place.seat] = dealt
                if held is not None:
                    s[held][place.seat] = sum([1 << p.uid for p in dealt])
        return s, self._codes

    def fork(self, s: list) -> list:
        """A copy of `s` to play on; both share the generator until either draws
        (`State.search_clone`)."""
        c = self._fork(s)
        s[self.rng_shared] = c[self.rng_shared] = True
        return c

    def greedy_code(self, s: list) -> int:
        """The legal move with the best immediate gain for the mover (the first of the
        best), as `objective.best_index` chooses in the interpreter."""
        legal = s[self.legal]
        if len(legal) == 1:
            return legal[0]
        return self.greedy_choice(s)[0]

    def greedy_choice(self, s: list) -> tuple[int, float]:
        """The greedy move's code and its immediate gain (`greedy_code`), previewing
        even a forced move."""
        legal = s[self.legal]
        at_scores, at_rng, at_shared = self.scores, self.rng, self.rng_shared
        seat, sign, fork, preview = s[self.to_move], self.sign, self._fork, self._preview
        now = s[at_scores][seat]
        scratch = random.Random(0)
        scratch.setstate(s[at_rng].getstate())
        best, best_gain = legal[0], None
        for code in legal:
            trial = fork(s)
            trial[at_rng], trial[at_shared] = scratch, False
            preview(trial, code)
            gain = sign * (trial[at_scores][seat] - now)
            if best_gain is None or gain > best_gain:
                best, best_gain = code, gain
        return best, best_gain

    def play_out(self, s: list, start: int, seat: int, config, rng: random.Random) -> list:
        """`MctsAgent.play_out` on the program: `s` played to the horizon (the end of
        round `start`, or of the match), or `depth` moves, or `plies` changes of the
        seat to move from `seat`'s turn; each seat's result."""
        greedy, plies, most = config.playout == "greedy", config.plies, config.depth or 100_000
        at_legal, at_move, apply = self.legal, self.to_move, self.apply
        moves, mover = 0, s[at_move]
        changes = int(mover != seat)
        while not self.ended(s, start, config) and moves < most:
            if plies and changes >= plies:
                break
            legal = s[at_legal]
            apply(s, self.greedy_code(s) if greedy else legal[rng.randrange(len(legal))])
            moves += 1
            if s[at_move] != mover:
                changes, mover = changes + 1, s[at_move]
        ended = self.ended(s, start, config)
        if config.horizon == "match":
            winner = s[self.winner]
        else:  # the round's winner, once it ended (`Round.winner`)
            winner = s[self.last_winner] if s[self.round] != start or s[self.over] else None
        held = config.held if not ended else 0.0
        hands = s[self.hands] if self.hands is not None else None
        scores = s[self.scores]
        if plies and config.lookahead and not ended:
            gain = self.greedy_choice(s)[1]
            scores = looked_ahead(self.game, scores, s[at_move], config.lookahead * gain)
        return results_of(self.game, scores, hands, winner, config.objective, held)

    def ended(self, s: list, start: int, config) -> bool:
        """Whether the sample reached the horizon (`MctsAgent.ended`)."""
        return s[self.over] or (config.horizon == "round" and s[self.round] != start)
