"""`mcts`: information-set Monte Carlo tree search, for every ruleset.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012, "Information Set Monte
Carlo Tree Search"): one tree for the acting seat, whose nodes are move texts; every
iteration samples what the seat cannot see (`engine.players.determinize`: the other
hands, the pool's order, face-down board pieces, with a fresh chance generator), walks
the tree down the moves legal in that sample by UCB1 with availability counts, adds
one node, plays the rest out (`random` or `greedy` moves) and backs the result up, each
node scored for the seat that moved into it. It never reads the real pool or hands.

The result of a playout is taken at the end of the round (or the match, `horizon`):
each seat's score margin over the best other (the objective's way round: under
`match.objective: lowest` a margin is how far below), or a win (1, a tie 0.5) with
`win`; alone, the score, or 1 for a round won (cleared) with `win`. The move chosen is
the root's most visited. Deterministic for a seed and an iteration budget.

Spec (`make_agent`): `mcts[:BUDGET][:PLAYOUT][:OBJECTIVE][:c=X][:horizon=match]`, e.g.
`mcts:800`, `mcts:0.5s:greedy`, `mcts:200:win`.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace

from engine.players.determinize import determinize
from engine.players.inference import follow, start
from engine.players.mcts_spec import (DEFAULT_ITERATIONS, PARAMETERS, MctsConfig,  # noqa: F401
                                      parse_spec)
from engine.players.objective import best_index, greedy_move, looked_ahead, results_of
from engine.players.program_playout import ProgramPlayout
from engine.players.root_moves import best_gain, ranked_by_gain, root_moves
from engine.players.tuning import choose as choose_tuning
from engine.players.tuning import describe, measure

_MAX_PLAYOUT = 100_000  # moves: a safety stop (every ruleset's limits end games sooner)


class Node:
    """A move text in the tree, scored for the seat that made it."""

    __slots__ = ("seat", "children", "visits", "total", "avail")

    def __init__(self, seat: int):
        self.seat = seat
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class MctsAgent:
    """Information-set MCTS for the seat to move; its own seeded generator."""

    name = "mcts"

    def __init__(self, seed: int = 0, config: MctsConfig | None = None):
        self.rng = random.Random(seed)
        self.config = config or MctsConfig()
        self.low, self.high = math.inf, -math.inf  # results seen, to scale them
        self.iterations = 0  # in the last search
        self.preferred: str | None = None  # with halving: the move text it plays
        self.tuned: str | None = None  # a plain spec: the one chosen (`tune`)
        self.playout = None  # with halving, during a search: the program's play-outs
        self.inference = None  # with `infer`: what the other hand is believed to be
        self.before = None  # with `infer`: the position at its last move, and the move

    def choose(self, state):
        """The most visited move at the root after the search."""
        moves = state.legal_moves()
        self.observe(state)
        move = moves[0] if len(moves) == 1 else self.ranked(state)[0][0]
        self.before = (state.clone(), move.text) if self.config.infer else None
        return move

    def observe(self, state) -> None:
        """With `infer`: what the opponent's move since this agent's last says of its
        hand (`engine.players.inference`), for the samples of this search."""
        if self.config.infer:
            seat = state.to_move
            self.inference = (follow(self.inference, *self.before, state, seat)
                              if self.before else start(state, seat))

    def ranked(self, state) -> list[tuple]:
        """(move, visit share, mean result) for each legal move, most visited first (with
        `halving`, the move it prefers first)."""
        self.preferred = None
        root = self.search(state)
        total = max(1, sum(c.visits for c in root.children.values()))
        rows = []
        for index, move in enumerate(state.legal_moves()):
            child = root.children.get(move.text)
            visits = child.visits if child else 0
            mean = child.total / visits if visits else 0.0
            rows.append((move, visits / total, mean, index))
        rows.sort(key=lambda r: (r[0].text != self.preferred, -r[1], -r[2], r[3]))
        return [r[:3] for r in rows]

    def search(self, state) -> Node:
        """Grow a tree from `state` within the budget (or, with `halving`, compare the
        root's moves on shared samples); returns its root."""
        if self.config.auto:
            self.tune(state)
        if self.config.halving:
            saved = self.config
            if saved.plies and len(state.pool) <= saved.endgame:
                self.config = replace(saved, plies=0)
            try:
                return self.halve(state)
            finally:
                self.config = saved
        config, seat = self.config, state.to_move
        root = Node(seat)
        # Ranked in a sample, not the real state: a move's immediate score may depend on
        # what it reveals (a deal that ends the round, say).
        sample = determinize(state, seat, self.rng)
        self.candidates = [move for _, _, move in ranked_by_gain(sample)]
        self.low, self.high = math.inf, -math.inf
        deadline = None if config.seconds is None else time.perf_counter() + config.seconds
        done = 0
        while True:
            if deadline is None:
                if done >= (config.iterations or DEFAULT_ITERATIONS):
                    break
            elif done and time.perf_counter() >= deadline:
                break
            self.iterate(root, state, seat)
            done += 1
        self.iterations = done
        return root

    def tune(self, state) -> None:
        """A plain spec (a budget at most): measure what greedy play-outs of this
        ruleset cost, in the agent's own samples, and take the configuration chosen
        for that cost (`engine.players.tuning`); once, before the first search."""
        config = self.config
        fields = choose_tuning(measure(state, state.to_move, self.rng), config.iterations)
        self.tuned = describe(fields, config.iterations if config.budget_given else None,
                              config.seconds)
        fields = dict(fields)
        default = fields.pop("iterations_default")
        if not config.budget_given:
            fields["iterations"] = default
        elif config.seconds is not None and "widening" in fields:
            # halving sizes its root by the iterations (500 for a time budget): as many
            # root moves as the tuned iteration budget would take
            fields["widening"] *= math.sqrt(default / DEFAULT_ITERATIONS)
        self.config = replace(config, auto=False, **fields)

    def halve(self, state) -> Node:
        """Sequential halving over the root's best moves by immediate score (Karnin,
        Koren and Somekh, 2013): in each phase every surviving move is played out in
        the same fresh samples (common random numbers: the same hidden pieces and the
        same chance generator for every move, so their difference is the moves', not
        the samples'), and the better half by mean result over all its samples goes on.
        The best immediate move stays in to the end: the survivor replaces it only when
        better by `z` standard errors of their paired differences (`preferred`). A root
        whose children count the play-outs, as `search` returns."""
        config, seat = self.config, state.to_move
        root = Node(seat)
        sample = determinize(state, seat, self.rng)
        budget = config.iterations or DEFAULT_ITERATIONS
        width = max(2, math.ceil(config.widening * math.sqrt(budget)))
        ranked = root_moves(sample, width, config.leaves)
        alive = ranked[:]
        phases = max(1, math.ceil(math.log2(len(alive))))
        start, outcomes = time.perf_counter(), {m.text: {} for m in alive}
        self.playout = ProgramPlayout.of(state.game) if config.compiled else None
        if self.playout is not None:
            self.playout.begin(state, seat)
        for phase in range(phases):
            left = phases - phase
            if config.seconds is None:
                samples = max(1, (budget - root.visits) // (left * len(alive)))
                self.play_phase(root, state, alive, samples, None, outcomes)
            else:
                spent = time.perf_counter() - start
                self.play_phase(root, state, alive, None, outcomes=outcomes,
                                deadline=time.perf_counter() + (config.seconds - spent) / left)
            kept = sorted(alive, key=lambda m: -_mean(root.children[m.text]))  # stable
            alive = kept[:math.ceil(len(kept) / 2)]
            if ranked[0] not in alive:
                alive.append(ranked[0])
        best = max(alive, key=lambda m: _mean(root.children[m.text]))
        self.preferred = ranked[0].text
        if _paired_better(outcomes[best.text], outcomes[ranked[0].text], config.z):
            self.preferred = best.text
        self.iterations, self.playout = root.visits, None
        return root

    def play_phase(self, root: Node, state, alive: list, samples, deadline,
                   outcomes: dict) -> None:
        """`samples` fresh samples (or as many as fit before `deadline`), each played out
        after every move in `alive`; the results counted into the root's children and
        kept by sample in `outcomes`."""
        seat, done = state.to_move, 0
        playout = self.playout
        while (done < samples) if deadline is None else (not done or time.perf_counter() < deadline):
            number = root.visits
            if playout is None:
                results = self.sample_results(state, alive, seat)
            else:
                results = self.program_results(playout, state, alive, seat)
            for move, result in zip(alive, results):
                child = root.children.get(move.text)
                if child is None:
                    child = root.children[move.text] = Node(seat)
                child.visits += 1
                child.total += result
                root.visits += 1
                outcomes[move.text][number] = result
            done += 1

    def sample_results(self, state, alive: list, seat: int) -> list[float]:
        """One fresh sample, played out after each move in `alive`: `seat`'s result of
        each, in the interpreter."""
        world = determinize(state, seat, self.rng, self.believed())
        out = []
        for move in alive:
            trial = world.search_clone()  # shares the sample's chance generator state
            begin = trial.round
            trial.apply(move.text)
            out.append(self.play_out(trial, begin, seat)[seat])
        return out

    def program_results(self, playout, state, alive: list, seat: int) -> list[float]:
        """`sample_results` on the ruleset's program (`engine.players.program_playout`):
        the same sample, moves and results."""
        s, codes = playout.sample(self.rng, self.believed())
        start, out = s[playout.round], []
        for move in alive:
            trial = playout.fork(s)
            playout.apply(trial, codes[move.text])
            results = playout.play_out(trial, start, seat, self.config, self.rng)
            self.low, self.high = min(self.low, *results), max(self.high, *results)
            out.append(results[seat])
        return out

    def believed(self) -> tuple | None:
        """With `infer`: the other hand of the next sample, drawn from the belief."""
        return self.inference.draw(self.rng) if self.inference is not None else None

    def iterate(self, root: Node, state, seat: int) -> None:
        """One iteration: sample, select, expand, play out, back up."""
        world = determinize(state, seat, self.rng)
        start = world.round
        node, path = root, []
        while not self.ended(world, start):
            legal, move = self.expansion(node, root, world)
            if move is not None:
                node.children[move.text] = child = Node(world.to_move)
                world.apply(move)
                path.append(child)
                break
            move, node = self.select(node, legal)
            world.apply(move)
            path.append(node)
        results = self.play_out(world, start, seat)
        for node in path:
            node.visits += 1
            node.total += results[node.seat]
        root.visits += 1

    def expansion(self, node: Node, root: Node, world) -> tuple[list, object]:
        """The children of `node` that may be chosen in this sample, and the move to add
        to them (None: choose among them). The root's moves, the same in every sample,
        are tried best immediate score first, widened to the best ceil(w * sqrt(visits));
        below, an untried move at random, or with `expand=greedy` the untried move with
        the best immediate score, widened the same way."""
        config = self.config
        if node is root or config.expand == "greedy":
            width = max(2 if node is root else 1,
                        math.ceil(config.widening * math.sqrt(node.visits + 1)))
        if node is root:
            legal = self.candidates[:width]
            untried = [m for m in legal if m.text not in node.children][:1]
            return legal, (untried[0] if untried else None)
        legal = world.legal_moves()
        children = node.children
        untried = [m for m in legal if m.text not in children]
        if config.expand != "greedy":
            return legal, (untried[self.rng.randrange(len(untried))] if untried else None)
        if untried and len(legal) - len(untried) < width:
            return legal, untried[best_index(world, untried)]
        return [m for m in legal if m.text in children], None

    def select(self, node: Node, legal: list) -> tuple:
        """UCB1 over the children legal in this sample, with availability counts (a
        child is judged by how often it could have been chosen, not by the parent's
        visits)."""
        scale = self.high - self.low if self.high > self.low else 1.0
        low, c = self.low if self.high > self.low else 0.0, self.config.exploration
        best, best_value = None, -math.inf
        for move in legal:
            child = node.children[move.text]
            child.avail += 1
            value = ((child.total / child.visits - low) / scale
                     + c * math.sqrt(math.log(child.avail) / child.visits))
            if value > best_value:
                best, best_value = (move, child), value
        return best

    def ended(self, world, start) -> bool:
        """Whether a sampled game reached the horizon."""
        return world.is_over or (self.config.horizon == "round" and world.round is not start)

    def play_out(self, world, start, seat: int) -> list[float]:
        """Play the sample to the horizon (or `depth` moves, or `plies` changes of the
        seat to move counted from `seat`'s turn); the result for each seat."""
        rng, greedy, plies = self.rng, self.config.playout == "greedy", self.config.plies
        moves, most = 0, self.config.depth or _MAX_PLAYOUT
        mover = world.to_move
        changes = int(mover != seat)
        while not self.ended(world, start) and moves < most:
            if plies and changes >= plies:
                break
            legal = world.legal_moves()
            world.apply(greedy_move(world) if greedy else legal[rng.randrange(len(legal))])
            moves += 1
            if world.to_move != mover:
                changes, mover = changes + 1, world.to_move
        winner = world.winner if self.config.horizon == "match" else start.winner
        ended = self.ended(world, start)
        held = self.config.held if not ended else 0.0
        scores = world.scores
        if plies and self.config.lookahead and not ended:
            scores = looked_ahead(world.game, scores, world.to_move,
                                  self.config.lookahead * best_gain(world))
        results = results_of(world.game, scores, world.hands, winner,
                             self.config.objective, held)
        self.low = min(self.low, *results)
        self.high = max(self.high, *results)
        return results


#: the search `hint` runs (the play prompt and the web page): a plain spec, tuned
HINT_SPEC = "400"


def _paired_better(best: dict, anchor: dict, z: float) -> bool:
    """Whether `best` beats `anchor` on the samples both were played out in, by more
    than `z` standard errors of the mean paired difference."""
    diffs = [best[k] - anchor[k] for k in best.keys() & anchor.keys()]
    if len(diffs) < 2:
        return bool(diffs) and diffs[0] > 0 and z <= 0
    mean = sum(diffs) / len(diffs)
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    return mean > z * spread / math.sqrt(len(diffs)) and mean > 0


def _mean(node: Node) -> float:
    return node.total / node.visits if node.visits else -math.inf


def mcts_hint(state, spec: str = HINT_SPEC, seed: int = 0, count: int = 3) -> list[tuple]:
    """The moves the search prefers for the seat to move: (move, visit share, mean
    result), most visited first, at most `count` (for `hint` in multi-player games)."""
    agent = MctsAgent(seed, parse_spec(spec))
    if len(state.legal_moves()) == 1:
        return [(state.legal_moves()[0], 1.0, 0.0)]
    return agent.ranked(state)[:count]


def hint_text(state, spec: str = HINT_SPEC, seed: int = 0) -> str:
    """`hint` in a multi-player game: the move the search prefers and its visit share."""
    rows = mcts_hint(state, spec, seed, count=2)
    move, share, _ = rows[0]
    also = f"; next {rows[1][0].text} ({100 * rows[1][1]:.0f}%)" if len(rows) > 1 else ""
    return f"  the search (mcts:{spec}) plays: {move.text} ({100 * share:.0f}% of visits{also})"
