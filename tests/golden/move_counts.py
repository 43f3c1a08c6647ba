"""Stored legal-move counts ("perft" along seeded random lines) for every shipped ruleset
alone and every shipped overlay on its game's default ruleset: the proof that a change
meant to keep behaviour (a redesign, a speed-up) changed no legal move.

A line is a seeded game played from `Game.new_game(players, seed)` for DEPTH plies (or
to the game's end if sooner). At each ply the legal moves' texts (`Move.text`, the form
of records) are sorted, their number is recorded, and the move played is
`sorted_texts[rng.randrange(len)]` with `rng = random.Random(seed)`: the line does not
depend on the order in which the engine lists its moves, only on the set. Per line,
move_counts.json holds `counts` (one number per ply), `digest` (sha256, 16 hex digits, of
the sorted move texts of every ply: the same *set*, not only the same number) and
`scores` (the scores at the end of the line).

    python tests/golden/move_counts.py --write        # regenerate move_counts.json
    python tests/golden/move_counts.py --show REF KEY # each ply's sorted moves of a line

`--show` (e.g. `--show triolet/standard+triolet/overlays/jokers 1`) prints a line ply by
ply, to diff between two commits when only a digest differs. Checked by
tests/golden/test_move_counts.py, on the interpreter and on the compiled program. Never
regenerate the file to make a redesign pass (docs/testing.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

DATA = Path(__file__).with_name("move_counts.json")
DEPTH = 40  # plies per line
SEEDS = (0, 1, 2)  # each at the default player count; seed 0 again at the maximum

_GAMES: dict = {}


def refs() -> list[tuple[str, tuple[str, ...]]]:
    """Every shipped ruleset alone, and every shipped overlay on its game's default
    ruleset (benchmarks/fingerprint.py's `refs`, rulesets from the user's folders left
    out)."""
    from engine.cli.catalog import catalog

    found = catalog()
    rulesets = [r for r in found["rulesets"] if r["origin"] == "shipped"]
    out = [(r["id"], ()) for r in rulesets]
    defaults = {r["game"]: r["id"] for r in rulesets if r["default"]}
    out += [(defaults[o["game"]], (o["id"],)) for o in found["overlays"]
            if o["origin"] == "shipped"]
    return out


def name_of(ref: str, overlays: tuple[str, ...]) -> str:
    return "+".join((ref, *overlays))


def game_of(ref: str, overlays: tuple[str, ...]):
    """The interpreter's game of a ruleset with overlays, built once per process."""
    from engine.kernel import Game
    from engine.rules import load_ruleset
    from engine.rules.model import compile_model

    if (ref, overlays) not in _GAMES:
        model, problems = compile_model(load_ruleset(ref, overlays))
        if model is None:
            raise AssertionError("\n".join(map(str, problems)))
        _GAMES[ref, overlays] = Game(model)
    return _GAMES[ref, overlays]


def line_keys(game) -> list[tuple[str, int, int]]:
    """(key in the data, players, seed) of every line of a game: each seed at the
    default player count, and seed 0 at the maximum when the game has a range."""
    model = game.model
    keys = [(str(seed), model.players_default, seed) for seed in SEEDS]
    if model.players_max > model.players_default:
        most = model.players_max
        keys.append((f"{SEEDS[0]} ({most} players)", most, SEEDS[0]))
    return keys


class Interpreted:
    """A line played on the interpreter (`engine.kernel`)."""

    def __init__(self, game, players: int, seed: int):
        self.state = game.new_game(players, seed)

    def over(self) -> bool:
        return self.state.is_over

    def moves(self) -> list[tuple[str, object]]:
        return [(move.text, move) for move in self.state.legal_moves()]

    def play(self, move) -> None:
        self.state.apply(move)

    def scores(self) -> list[int]:
        return list(self.state.scores)


class Compiled:
    """A line played on the game's compiled program (`engine.program`): its moves are
    codes, their texts the interpreter's (`Program.move_text`)."""

    def __init__(self, program, players: int, seed: int):
        self.program = program
        self.s = program.new(players, seed)

    def over(self) -> bool:
        return self.program.is_over(self.s)

    def moves(self) -> list[tuple[str, object]]:
        text = self.program.move_text
        return [(text(self.s, code), code) for code in self.program.legal(self.s)]

    def play(self, code) -> None:
        self.program.apply(self.s, code)

    def scores(self) -> list[int]:
        return list(self.program.scores(self.s))


def play_line(line, seed: int, depth: int = DEPTH, trace: list | None = None) -> dict:
    """Play `line` (an Interpreted or a Compiled) for `depth` plies or to its end:
    `counts`, `digest` and `scores` as stored; each ply's sorted texts go to `trace`."""
    rng, digest, counts = random.Random(seed), hashlib.sha256(), []
    while len(counts) < depth and not line.over():
        moves = sorted(line.moves(), key=lambda pair: pair[0])
        texts = [text for text, _ in moves]
        counts.append(len(texts))
        digest.update(("\n".join(texts) + "\n\n").encode())
        if trace is not None:
            trace.append(texts)
        if not moves:
            break  # (a position with no legal move and not over: counted, then stop)
        line.play(moves[rng.randrange(len(moves))][1])
    return {"counts": counts, "digest": digest.hexdigest()[:16], "scores": line.scores()}


def compute(ref: str, overlays: tuple[str, ...]) -> dict[str, dict]:
    """Every line of one ruleset, on the interpreter: {key: {players, counts, ...}}."""
    game = game_of(ref, overlays)
    return {key: {"players": players, **play_line(Interpreted(game, players, seed), seed)}
            for key, players, seed in line_keys(game)}


def load() -> dict[str, dict[str, dict]]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def dump(data: dict[str, dict[str, dict]]) -> str:
    """The JSON text: one line of JSON per line of play, rulesets in catalog order."""
    parts = []
    for name, lines in data.items():
        rows = [f"    {json.dumps(key)}: {json.dumps(line)}" for key, line in lines.items()]
        parts.append(f"  {json.dumps(name)}: {{\n" + ",\n".join(rows) + "\n  }")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def write() -> None:
    old = load() if DATA.exists() else {}
    data = {name_of(ref, overlays): compute(ref, overlays) for ref, overlays in refs()}
    changed = [f"{name} {key}" for name, lines in data.items() for key, line in lines.items()
               if old.get(name, {}).get(key) != line]
    DATA.write_text(dump(data), encoding="utf-8")
    lines = sum(map(len, data.values()))
    print(f"{DATA}: {len(data)} rulesets, {lines} lines; new or changed: {len(changed)}")
    for entry in changed:
        print(f"  {entry}")


def show(name: str, key: str) -> None:
    """Each ply of one line: its count, then its sorted move texts."""
    ref, *overlays = name.split("+")
    game = game_of(ref, tuple(overlays))
    players, seed = next((p, s) for k, p, s in line_keys(game) if k == key)
    trace: list = []
    result = play_line(Interpreted(game, players, seed), seed, trace=trace)
    for ply, texts in enumerate(trace):
        print(f"ply {ply}: {len(texts)}: " + " | ".join(texts))
    print(f"digest {result['digest']} scores {result['scores']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"regenerate {DATA.name}")
    parser.add_argument("--show", nargs=2, metavar=("RULESET", "KEY"),
                        help="print each ply's sorted legal moves of one line")
    args = parser.parse_args()
    if args.show:
        show(*args.show)
    elif args.write:
        write()
    else:
        parser.error("nothing to do: --write or --show RULESET KEY")


if __name__ == "__main__":
    main()
