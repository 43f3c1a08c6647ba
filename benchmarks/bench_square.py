"""Plays generated per second on a crowded Triolet board, and random games per second.

Run from the repository root: `python benchmarks/bench_square.py`. The crowded boards
are built by random legal plays with a fixed seed; each is timed over many racks of
three drawn from the tokens left. Random games need the kernel (skipped without it).
Times are the process's CPU time, so that other work on a shared machine disturbs
the figures less.

The first figure flatters the generator: the same 200 racks on 5 fixed boards, so what
a board keeps until it changes (the first cells of plays) is worked out once per board,
and crowded boards give ~22 plays per rack. In a game every call meets a board changed
since the last one and a new rack, with ~14 plays: the board-only games figure is the
one to compare with games (`benchmarks/bench_boards.py` replays real games' board calls).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.pieces import build_pieces  # noqa: E402
from engine.topology import BOARD_KINDS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def crowded_board(topo, rules, pieces, rng, target):
    """Lay random legal plays until `target` tokens are down; returns (board, bag)."""
    board, bag = topo.new_board(), pieces[:]
    rng.shuffle(bag)
    first, stuck = True, 0
    while board.count < target and stuck < 50:
        hand = bag[:3]
        # sorted, so that the boards do not depend on the generator's order
        plays = sorted(board.iter_placements(hand, first, rules), key=lambda p: (p.cells, p.values))
        if not plays:
            rng.shuffle(bag)
            stuck += 1
            continue
        play = rng.choice(plays)
        board.apply_placement(play)
        for p in play.pieces:
            bag.remove(p)
        first = False
    return board, bag


def plays_per_second(seconds: float = 2.0, target: int = 60):
    """(plays/s, racks/s, tokens on the boards) for racks of three on crowded boards."""
    data = yaml.safe_load((ROOT / "rulesets/triolet/standard.yaml").read_text())
    topo = BOARD_KINDS["square"](data["board"])
    rules = topo.compile_place(data["actions"]["place"])
    pieces = build_pieces(data["components"])
    rng = random.Random(7)
    boards = [crowded_board(topo, rules, pieces, rng, target) for _ in range(5)]
    racks = [(b, rng.sample(bag, 3)) for b, bag in boards for _ in range(40)]
    plays = calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for board, rack in racks:
            for _ in board.iter_placements(rack, False, rules):
                plays += 1
            calls += 1
    elapsed = time.process_time() - start
    tokens = sum(b.count for b, _ in boards) / len(boards)
    return plays / elapsed, calls / elapsed, int(tokens)


def board_games_per_second(seconds: float = 2.0) -> tuple[float, float]:
    """(plays/s, games/s) of whole games on the board alone: a rack of 3 from a shuffled
    bag, a random legal play each turn (a rack with none is shuffled back into the
    bag), until two racks in a row have none (as `nobody_can_place` once ended a two-player
    game) or the bag and racks are used up. The generator with its incremental index,
    as in a game, but without a kernel or scoring."""
    data = yaml.safe_load((ROOT / "rulesets/triolet/standard.yaml").read_text())
    topo = BOARD_KINDS["square"](data["board"])
    rules = topo.compile_place(data["actions"]["place"])
    pieces = build_pieces(data["components"])
    rng = random.Random(11)
    plays = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        board, bag = topo.new_board(), pieces[:]
        rng.shuffle(bag)
        first, stuck = True, 0
        while stuck < 2 and bag:
            found = sorted(board.iter_placements(bag[:3], first, rules), key=lambda p: (p.cells, p.values))
            plays += len(found)
            if not found:
                rng.shuffle(bag)
                stuck += 1
                continue
            stuck = 0
            play = rng.choice(found)
            board.apply_placement(play)
            for p in play.pieces:
                bag.remove(p)
            first = False
        games += 1
    elapsed = time.process_time() - start
    return plays / elapsed, games / elapsed


def games_per_second(ruleset: str, overlays=(), games: int = 20) -> float | None:
    """Random two-player games per second through the kernel (None without a kernel)."""
    try:
        from engine.kernel.game import Game
        from engine.players.agents import agent_seed, make_agent, play_out
        from engine.rules import load_ruleset
        from engine.rules.model import compile_model
    except ImportError:
        return None
    model, _ = compile_model(load_ruleset(ruleset, list(overlays)))
    game = Game(model)
    start = time.process_time()
    for seed in range(games):
        agents = [make_agent("random", agent_seed(seed, s)) for s in range(2)]
        play_out(game.new_game(2, seed), agents)
    return games / (time.process_time() - start)


def main() -> None:
    rate, calls, tokens = plays_per_second()
    print(f"square generator: {rate:,.0f} legal plays/s, {calls:,.0f} racks/s "
          f"(racks of 3 on boards of ~{tokens} tokens)")
    rate, games = board_games_per_second()
    print(f"board-only random games (generate, pick, apply; no scoring): {games:,.1f} games/s, "
          f"{rate:,.0f} legal plays/s")
    runs = [("triolet/standard", ()), ("triolet/seed-text", ()), ("triolet/standard", ("jokers",))]
    for ruleset, overlays in runs:
        gps = games_per_second(ruleset, overlays)
        name = "+".join((ruleset,) + overlays)
        print(f"{name}: " + (f"{gps:,.1f} random games/s" if gps else "kernel not available"))


if __name__ == "__main__":
    main()
