"""Proof that `triolet_standard.py` plays the engine's `triolet/standard`, move for move.

Two checks over seeded random games played by the engine (both random players choose
with `rng.choice(state.legal_moves())`, as `benchmarks/bench_games.py` does):

1. Positions. At every position, the board and the rack are read out of the engine's
   state and loaded into the reference program from scratch; its legal moves must be
   the engine's, as a set of texts with no duplicates, and for every play the points it
   scores and whether it gives an extra turn must be the engine's (`state.preview`).
2. Games. The reference program's own game loop (`play_game`, with its incremental
   board) replays each engine game: a scripted generator makes it choose the engine's
   move and draw the engine's tokens, and at every turn its legal list must be the
   engine's; at the end the scores, the number of turns and the reason must agree.

It also checks that the positions the reference measures are the engine benchmarks'
own (`bench_games.py`'s mid-game position, `bench_square.py`'s crowded boards).

    python benchmarks/reference/check_triolet.py [--games 100] [--points 30] [--seed 0]
        [--players 2]

`--points`: in how many of the games every play is previewed for its points (slow).
Exits 1 on the first disagreement, after printing it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import triolet_standard as ref  # noqa: E402
from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

PLACE_RULES = {"lines", "lone_token", "multiplier", "triolet"}


def load_game() -> Game:
    model, diagnostics = compile_model(load_ruleset("triolet/standard"))
    if model is None:
        raise SystemExit("\n".join(map(str, diagnostics)))
    return Game(model)


def fail(message: str) -> None:
    print(f"DISAGREEMENT: {message}")
    raise SystemExit(1)


def check_layout(game: Game) -> None:
    """The reference's premium cells are the ruleset's."""
    topo = game.model.topology
    for y in range(topo.height):
        for x in range(topo.width):
            attrs, c = topo.attrs[topo.index(x, y)], ref.index(x, y)
            mine = (ref.MULT[c], ref.BIS[c], c == ref.STAR)
            theirs = (attrs["multiplier"], attrs["extra_turn"], attrs["start"])
            if mine != theirs:
                fail(f"cell ({x}, {y}): reference {mine}, ruleset {theirs}")


def move_text(move: tuple) -> str:
    """A reference move as the engine writes it: `place H8=4 H9=11`, `exchange 11 4`,
    `pass` (tokens named as the engine names them, and sorted as it sorts names)."""
    cells, vals = move
    if cells is None:
        return "exchange " + " ".join(sorted(map(str, vals))) if vals else "pass"
    return "place " + " ".join(f"{chr(65 + c // ref.STRIDE - 1)}{c % ref.STRIDE + 1}={x}"
                               for c, x in zip(cells, vals))


def copy_board(board: tuple) -> tuple:
    """An independent copy of a reference board."""
    v, mh, mv, anchors = board
    return v[:], mh[:], mv[:], set(anchors)


def position(state) -> tuple[tuple, list]:
    """The engine position as the reference loads it: (board, rack of the mover)."""
    board, topo = state.board, state.game.model.topology
    tokens = [(*topo.xy(c), board.v[c]) for c in board.piece]
    return ref.load_board(tokens), [p.value for p in state.hands[state.to_move]]


def check_position(state, with_points: bool, where: str) -> int:
    """Compare one position; returns how many plays had their points compared."""
    board, rack = position(state)
    mine = ref.legal_moves(board, rack, len(state.pool))
    texts = [move_text(m) for m in mine]
    theirs = [m.text for m in state.legal_moves()]
    if len(set(texts)) != len(texts):
        dups = [t for t, n in Counter(texts).items() if n > 1]
        fail(f"{where}: the reference lists moves twice: {dups[:5]}")
    if set(texts) != set(theirs):
        fail(f"{where}: rack {rack}, board {state.board.dump_position()}\n"
             f"  only the reference: {sorted(set(texts) - set(theirs))[:10]}\n"
             f"  only the engine: {sorted(set(theirs) - set(texts))[:10]}")
    if not with_points:
        return 0
    by_text = dict(zip(texts, mine))
    compared = 0
    for move in state.legal_moves():
        if move.action != "place":
            continue
        events, trial = state.preview(move)
        points = sum(e.points for e in events if e.rule in PLACE_RULES)
        cells, vals = by_text[move.text]
        got, extra = ref.place(copy_board(board), cells, vals)
        if got != points:
            fail(f"{where}: `{move.text}` scores {got} in the reference, {points} in the "
                 f"engine ({[(e.rule, e.points) for e in events]}); board "
                 f"{state.board.dump_position()}")
        if not trial.is_over and (trial.to_move == state.to_move) != extra:
            fail(f"{where}: `{move.text}`: extra turn {extra} in the reference, not in the engine")
        compared += 1
    return compared


def engine_game(game: Game, seed: int, with_points: bool, players: int) -> tuple:
    """Play one engine game, checking every position; returns the steps for the replay
    (legal texts, chosen text, values drawn after it), the end, and the counts of
    positions and of plays whose points were compared."""
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    dealt = [p.value for h in state.hands for p in h]
    steps, positions, compared = [], 0, 0
    while not state.is_over:
        compared += check_position(state, with_points, f"seed {seed}, turn {positions}")
        positions += 1
        legal = state.legal_moves()
        move = rng.choice(legal)
        mover = state.to_move
        before = Counter(p.value for p in state.hands[mover])
        if move.action == "place":
            used = Counter(move.data.values)
        elif move.action == "exchange":
            used = Counter(int(name) for name in move.data)
        else:
            used = Counter()
        state.apply(move)
        drawn = Counter(p.value for p in state.hands[mover]) - (before - used)
        steps.append(([m.text for m in legal], move.text, list(drawn.elements())))
    end = {"scores": list(state.scores), "turns": state.round.turns,
           "reason": state.round.reason, "bag": sorted(p.value for p in state.pool)}
    return [dealt] + steps, end, positions, compared


class Scripted:
    """A stand-in for `random.Random` that makes `ref.play_game` choose the engine's
    moves and draw the engine's tokens, and compares its legal lists on the way."""

    def __init__(self, steps: list, bag: list, seed: int):
        self.queue, self.steps, self.bag = list(steps[0]), steps[1:], bag  # (dealt first)
        self.seed, self.turn = seed, 0

    def randrange(self, n: int) -> int:
        where = f"seed {self.seed}, turn {self.turn}"
        if n != len(self.bag) or not self.queue:
            fail(f"{where}: the reference draws where the engine does not")
        value = self.queue.pop(0)
        if value not in self.bag:
            fail(f"{where}: the engine drew a {value} the bag lacks")
        return self.bag.index(value)

    def choice(self, legal: list):
        if self.queue:
            fail(f"seed {self.seed}, turn {self.turn}: the reference drew fewer tokens than "
                 "the engine")
        if self.turn >= len(self.steps):
            fail(f"seed {self.seed}: the reference plays on after the engine's game ended")
        theirs, chosen, drawn = self.steps[self.turn]
        texts = [move_text(m) for m in legal]
        if sorted(texts) != sorted(theirs):
            fail(f"seed {self.seed}, turn {self.turn} (game loop): legal moves differ\n"
                 f"  only the reference: {sorted(set(texts) - set(theirs))[:10]}\n"
                 f"  only the engine: {sorted(set(theirs) - set(texts))[:10]}")
        self.queue = list(drawn)
        self.turn += 1
        return legal[texts.index(chosen)]


def replay(steps: list, end: dict, seed: int, players: int) -> None:
    """Replay an engine game in the reference's own game loop and compare the end."""
    bag = ref.TOKENS[:]
    scripted = Scripted(steps, bag, seed)
    scores, turns, reason = ref.play_game(scripted, players, bag)
    got = {"scores": scores, "turns": turns, "reason": reason, "bag": sorted(bag)}
    if got != end or scripted.turn != len(steps) - 1:
        fail(f"seed {seed}: the game ends {got} in the reference, {end} in the engine")


def check_benchmark_positions(game: Game) -> None:
    """The positions the reference measures are the engine benchmarks' own: the
    mid-game position of `bench_games.py` and the crowded boards and racks of
    `bench_square.py` (so that the figures compare generation on the same boards)."""
    import yaml

    import bench_games
    import bench_square
    from engine.pieces import build_pieces
    from engine.topology import BOARD_KINDS

    state = bench_games.mid_game(game, 2)
    text, rack, in_bag = ref.MID_GAME
    theirs = (state.board.dump_position(), sorted(p.value for p in state.hands[state.to_move]),
              len(state.pool))
    if theirs != (text, sorted(rack), in_bag):
        fail(f"bench_games.py's mid-game position is now {theirs}: update ref.MID_GAME")
    root = Path(__file__).resolve().parents[2]
    data = yaml.safe_load((root / "rulesets/triolet/standard.yaml").read_text())
    topo = BOARD_KINDS["square"](data["board"])
    rules = topo.compile_place(data["actions"]["place"])
    pieces = build_pieces(data["components"])
    rng, mine = random.Random(7), random.Random(7)
    boards = [bench_square.crowded_board(topo, rules, pieces, rng, 60) for _ in range(5)]
    racks = [sorted(p.value for p in rng.sample(bag, 3)) for _, bag in boards for _ in range(40)]
    own = ref.crowded_boards(mine)
    own_racks = [sorted(mine.sample(bag, 3)) for _, bag in own for _ in range(40)]
    for (board, _), (copy, _) in zip(boards, own):
        cells = sorted((*topo.xy(c), board.v[c]) for c in board.piece)
        if cells != sorted((c % ref.STRIDE, c // ref.STRIDE - 1, x)
                           for c, x in enumerate(copy[0]) if x >= 0):
            fail("the crowded boards differ from bench_square.py's")
    if racks != own_racks:
        fail("the racks on the crowded boards differ from bench_square.py's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--points", type=int, default=30, help="games whose points are checked")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    game = load_game()
    check_layout(game)
    check_benchmark_positions(game)
    positions = compared = 0
    reasons = Counter()
    for seed in range(args.seed, args.seed + args.games):
        steps, end, n, c = engine_game(game, seed, seed - args.seed < args.points, args.players)
        replay(steps, end, seed, args.players)
        positions, compared = positions + n, compared + c
        reasons[end["reason"]] += 1
    last = args.seed + args.games - 1
    print(f"{args.games} games of {args.players} (seeds {args.seed}-{last}; ends: "
          f"{dict(reasons)}): {positions} positions, all agreed on the legal moves, "
          f"loaded from scratch and in the game loop; {compared} plays agreed on their "
          f"points and extra turn; every final score agreed; the benchmark positions "
          f"are bench_games.py's and bench_square.py's")


if __name__ == "__main__":
    main()
