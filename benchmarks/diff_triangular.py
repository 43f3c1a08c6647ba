"""Fingerprints of the triangular board's behaviour in real games, to compare two versions.

For every Tri-Ominos ruleset, alone and with each overlay of its game, seeded random
games are played; every legal-move list (texts), every placement's measures (all of
`move.<field>`, read before the move on some games and after it on others), every score
event, the answers to typed placements (legal and not: the text of the placement or the
error message, from the board and from the kernel), previews on clones, the board's
drawing, notation and key, and the final scores are written down. A refactoring of the
board kind must leave every line unchanged:

    python benchmarks/diff_triangular.py --save /tmp/before.txt     # on the old code
    python benchmarks/diff_triangular.py --check /tmp/before.txt    # on the new code

It prints one digest per configuration, and with --check the first differing line.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.diagnostics import RulecraftError  # noqa: E402
from engine.kernel import Game  # noqa: E402
from engine.kernel.moves import IllegalMove  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

BASES = ["triominos/pressman", "triominos/club", "triominos/goliath"]
OVERLAYS = sorted(
    p.stem for p in (Path(__file__).resolve().parent.parent / "rulesets/triominos/overlays").glob("*.yaml"))
FIELDS = ("edges", "corners_touched", "vertex_only_corners", "hexagons", "bridges", "narrow_bridges", "cell_up")
CONTACT = ("number", "tiles", "edge_tiles", "vertex_tiles", "across", "facing_edge")


def measures(placement) -> str:
    contacts = ";".join(",".join(str(getattr(c, f)) for f in CONTACT) for c in placement.contacts)
    return " ".join(str(getattr(placement, f)) for f in FIELDS) + " " + contacts


def typed_texts(state, rng: random.Random, count: int) -> list[str]:
    """Placements a person might type: near the tiles, legal or not, some without rotation."""
    hand = state.hands[state.to_move]
    names = [p.name for p in hand] + ["0-0-0", "9-9-9"]
    cells = list(state.board.cells) or [(0, 0)]
    out = []
    placed = [m.data.text for m in state.legal_moves() if m.action == "place"]
    for text in rng.sample(placed, min(2, len(placed))):  # a legal one, retyped
        out += [text.rsplit("r", 1)[0] + rot for rot in ("", "r0", "r1", "r2")]
    for _ in range(count):
        c, r = rng.choice(cells)
        c, r = c + rng.randint(-2, 2), r + rng.randint(-2, 2)
        rot = rng.choice(["", "r0", "r1", "r2", "r3"])
        out.append(f"{rng.choice(names)}@{c},{r}{rot}")
    return out


def play(game: Game, seed: int, out: list[str], before: bool) -> None:
    """One random game (at most two rounds), written down line by line in `out`."""
    state, rng = game.new_game(2, seed), random.Random(seed * 7 + 1)
    place = game.action_by_name.get("place")
    steps = 0
    while not state.is_over and state.round.number <= 2 and steps < 400:
        steps += 1
        legal = state.legal_moves()
        out.append("L " + "|".join(m.text for m in legal))
        if before:
            out.extend("M " + m.text + " " + measures(m.data) for m in legal if m.action == "place")
        if place is not None and steps % 3 == 0:
            hand, first = state.hands[state.to_move], not state.round.placed_any
            for text in typed_texts(state, rng, 4):
                try:
                    out.append("P " + state.board.parse_placement(text, hand, first, place.rules).text)
                except ValueError as error:
                    out.append(f"P! {error}")
                try:
                    out.append("K " + state.find_move("place " + text).text)
                except IllegalMove as error:
                    out.append(f"K! {error}")
        if steps % 5 == 0 and len(legal) > 1:
            events, trial = state.preview(rng.choice(legal))
            out.append("V " + " ".join(f"{e.player}:{e.points}:{e.rule}" for e in events))
            out.append("VL " + "|".join(m.text for m in trial.legal_moves()))
        move = rng.choice(legal)
        events = state.apply(move)
        if move.action == "place" and not before:
            out.append("A " + move.text + " " + measures(move.data))
        out.append("E " + " ".join(f"{e.player}:{e.points}:{e.rule}:{e.detail}" for e in events))
        if steps % 25 == 0:
            out.append("B " + game.topology.render_text(state.board).replace("\n", "/"))
            out.append("D " + state.board.dump_position().replace("\n", " "))
            out.append("Y " + repr(sorted(state.board.key())))
            problems = state.board.check_invariants()
            assert not problems, problems
    out.append(f"S {state.scores} {state.is_over}")


def fingerprints(games: int) -> dict[str, list[str]]:
    found = {}
    for base in BASES:
        for overlay in [None, *OVERLAYS]:
            name = base + ("+" + overlay if overlay else "")
            try:
                ruleset = load_ruleset(base, (overlay,) if overlay else ())
            except RulecraftError:
                continue
            model, _ = compile_model(ruleset)
            if model is None:
                continue
            game, out = Game(model), []
            for seed in range(games):
                play(game, seed, out, before=seed % 2 == 0)
            found[name] = out
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--save")
    parser.add_argument("--check")
    args = parser.parse_args()
    start = time.process_time()
    found = fingerprints(args.games)
    lines = [f"## {name}\n" + "\n".join(out) for name, out in found.items()]
    for name, out in found.items():
        print(f"{hashlib.sha256(chr(10).join(out).encode()).hexdigest()[:16]} {len(out):6} {name}")
    print(f"{time.process_time() - start:.1f} s of CPU")
    text = "\n".join(lines) + "\n"
    if args.save:
        Path(args.save).write_text(text, encoding="utf-8")
    if args.check:
        old = Path(args.check).read_text(encoding="utf-8").splitlines()
        new = text.splitlines()
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                sys.exit(f"DIFFERENT at line {i + 1}:\n  old: {a[:300]}\n  new: {b[:300]}")
        if len(old) != len(new):
            sys.exit(f"DIFFERENT lengths: {len(old)} old, {len(new)} new")
        print(f"IDENTICAL: {len(new)} lines")


if __name__ == "__main__":
    main()
