"""Check that the hand-written Tri-Ominos (`triominos_pressman.py`) plays the engine's game.

Seeded random rounds of `triominos/pressman` are played in the engine; the hand-written
`Round` is dealt the same hands and well and follows the same moves. At every position the
two must list the same SET of legal moves (compared as the engine's move texts: every
placement with its cell and rotation, draw, pass; sorted, the hand-written moves must also
come in the engine's order) and the same player to move, and after
every move the same scores, hands and well; when the round ends, the same reason, winner
and final scores (settlement included); the board is compared tile by tile at the end.
It also checks that `Round.deal(random.Random(seed))` deals what the engine deals for the
same seed, and times the hand-written generator on the engine's own mid-game benchmark
position (`bench_games.mid_game`), so that the two move-generation figures compare the
same position; then both generators at every position of `--everywhere` rounds (the
engine's on fresh copies, as bench_games.py times it), a figure that one position with a
handful of moves does not decide.

    python benchmarks/reference/check_triominos.py [--games 1000] [--players 2 3 4]
        [--everywhere 100]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import triominos_pressman as ref  # noqa: E402
from bench_games import mid_game  # noqa: E402
from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

TILE = {name: t for t, name in enumerate(ref.NAME)}


def tiles(pieces) -> list[int]:
    return sorted(TILE[p.name] for p in pieces)


def mirror(state) -> ref.Round:
    """The hand-written round dealt as the engine dealt `state` (a fresh round)."""
    return ref.Round([tiles(h) for h in state.hands], [TILE[p.name] for p in state.pool])


def board_of(mine: ref.Round) -> set[tuple]:
    """The hand-written board as (cell, tile name, rotation), read back from its cells and
    the numbers at their corner points."""
    out = set()
    for x in range(ref.SIZE):
        if mine.occ[x]:
            down = x & 1
            numbers = tuple(mine.pts[x + d] - 1 for d in ref.POINTS[down])
            t = TILE["-".join(map(str, sorted(numbers)))]
            k = next(k for k, nums in ref.rotations(t, down) if nums == numbers)
            out.add((ref.id_cell(x), ref.NAME[t], k))
    return out


class Mismatch(Exception):
    pass


def expect(what: str, engine, mine) -> None:
    if engine != mine:
        raise Mismatch(f"{what}: engine {engine!r}, hand-written {mine!r}")


BOARDS = [0]  # boards compared
RULES: dict[str, int] = {}  # how often each scoring rule fired in the games compared


def check_round(game: Game, players: int, seed: int) -> int:
    """Play one seeded random round in both; return the number of positions compared."""
    state = game.new_game(players, seed)
    mine = mirror(state)
    dealt = ref.Round.deal(random.Random(seed), players)
    expect("the deal (Round.deal)", (mine.hands, mine.pool), (dealt.hands, dealt.pool))
    expect("the deal", [tiles(h) for h in state.hands], mine.hands)
    rng, positions = random.Random(seed), 0
    while True:
        legal = state.legal_moves()
        ours = {ref.move_text(m): m for m in mine.legal_moves()}
        expect("player to move", state.to_move, mine.to_move)
        expect("legal moves", sorted(m.text for m in legal), sorted(ours))
        # Sorted, the hand-written moves come in the engine's order (see mid_game).
        expect("the order of the moves", [m.text for m in legal],
               [ref.move_text(m) for m in sorted(ours.values())])
        positions += 1
        move = rng.choice(legal)
        played = state.round
        for event in state.apply(move):
            RULES[event.rule] = RULES.get(event.rule, 0) + 1
        mine.apply(ours[move.text])
        expect("scores after " + move.text, state.scores, mine.scores)
        if state.round is not played or state.is_over:  # the round ended (and the next was dealt)
            expect("round over", True, mine.over)
            expect("round end", (played.reason, played.winner), (mine.reason, mine.winner))
            return positions
        expect("round over", False, mine.over)
        expect("hands", [tiles(h) for h in state.hands], mine.hands)
        expect("well", [TILE[p.name] for p in state.pool], mine.pool)
        if not state.turn.actions:  # a turn ended: compare the board
            cells = state.board.cells.items()
            engine_board = {(cell, piece.name, k) for cell, (piece, _, k) in cells}
            expect("board", engine_board, board_of(mine))
            BOARDS[0] += 1


def follow(game: Game, target) -> ref.Round:
    """The hand-written round at the engine position `target`, replayed from its record."""
    state = game.new_game(target.n, target.seed)
    mine = mirror(state)
    for entry in target.history:
        ours = {ref.move_text(m): m for m in mine.legal_moves()}
        mine.apply(ours[entry["move"]])
    return mine


def generation_everywhere(game: Game, rounds: int, batch: int = 20) -> None:
    """Legal-move generation timed at every position of `rounds` seeded 2-player rounds,
    in the engine (on fresh copies, as bench_games.py does) and in the hand-written program."""
    spent = {"engine": 0.0, "hand-written": 0.0}
    moves = gens = 0
    for seed in range(rounds):
        state = game.new_game(2, seed)
        mine, rng = mirror(state), random.Random(seed)
        while not state.is_over:
            copies = [state.clone() for _ in range(batch)]
            for copy in copies:
                copy._invalidate()  # a clone shares its parent's move lists
            start = time.process_time()
            for copy in copies:
                copy.legal_moves()
            spent["engine"] += time.process_time() - start
            start = time.process_time()
            for _ in range(batch):
                mine.legal_moves()
            spent["hand-written"] += time.process_time() - start
            legal = state.legal_moves()
            moves, gens = moves + batch * len(legal), gens + batch
            move, played = rng.choice(legal), state.round
            state.apply(move)
            mine.apply({ref.move_text(m): m for m in mine.legal_moves()}[move.text])
            if state.round is not played:
                break
    print(f"every position of {rounds} rounds ({gens // batch:,} positions, "
          f"{moves / gens:.1f} moves each): " + "; ".join(
              f"{who} {moves / t:,.0f} moves/s, {gens / t:,.0f} generations/s"
              for who, t in spent.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded rounds per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seconds", type=float, default=2.0, help="time for the generation figure")
    parser.add_argument("--everywhere", type=int, default=100,
                        help="rounds whose every position times generation in both (0: none)")
    args = parser.parse_args()
    game = Game(compile_model(load_ruleset("triominos/pressman"))[0])
    total = failed = 0
    for players in args.players:
        for seed in range(args.games):
            try:
                total += check_round(game, players, seed)
            except Mismatch as error:
                failed += 1
                print(f"players {players} seed {seed}: {error}")
        print(f"{players} players: {args.games} rounds checked", flush=True)
    print(f"positions compared: {total:,} (and {BOARDS[0]:,} boards); "
          f"rounds that disagreed: {failed}")
    print("scoring rules fired: " + ", ".join(f"{rule} {n:,}" for rule, n in sorted(RULES.items())))
    position = mid_game(game, 2)
    mine = follow(game, position)
    engine_moves = sorted(m.text for m in position.legal_moves())
    expect("the benchmark position", engine_moves, sorted(map(ref.move_text, mine.legal_moves())))
    own = ref.mid_game()  # the reference's own copy of that position (played in engine order)
    expect("ref.mid_game()", (board_of(mine), mine.hands, mine.pool, mine.scores),
           (board_of(own), own.hands, own.pool, own.scores))
    gens = max(ref.generations_per_second(mine, args.seconds) for _ in range(3))
    print(f"bench_games mid-game position: {len(engine_moves)} moves; "
          "hand-written generator, best of 3: "
          f"{gens * len(engine_moves):,.0f} moves/s, {gens:,.0f} generations/s")
    if args.everywhere:
        generation_everywhere(game, args.everywhere)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
