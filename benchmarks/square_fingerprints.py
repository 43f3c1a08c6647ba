"""Fingerprints of seeded games on every square-board ruleset, to prove a change to the
square board kind changes no behaviour.

For every ruleset of a game on the `square` board, alone and with each of its overlays,
seeded games are played through the kernel (random moves, and one game whose mover
previews every move, as the greedy agent does). Each digest covers every legal-move
list (texts, in order), the measures of the plays (`lines`, `placed`, ...) read both
before and after a play is applied, the score events, typed plays with mistakes in
them (the reason the board gives), moves tried on clones, the final board and scores.

    python benchmarks/square_fingerprints.py --record   # before a change
    python benchmarks/square_fingerprints.py            # after it: exit 1 on a difference
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.kernel.moves import IllegalMove  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STORE = Path(__file__).with_suffix(".json")
RULESETS = ["triolet/standard", "triolet/seed-text"]
OVERLAYS = ["", "jokers", "exchange-threshold-5", "opponents-debited", "per-line-multiplier"]


def measures(move) -> str:
    """Every measure of a place move, as text."""
    p = move.data
    lines = [(l.length, l.sum, l.face_sum, l.new, l.jokers) for l in p.lines]
    placed = [sorted(vars(x).items()) for x in p.placed]
    return repr((p.count, p.value, p.jokers, lines, placed, p.text))


def typed_mistakes(state, legal, rng) -> list[str]:
    """Variants of listed plays (a value, a cell, a piece changed) and what the engine says."""
    out = []
    places = [m for m in legal if m.action == "place"]
    for move in rng.sample(places, min(3, len(places))):
        words = move.arg.split()
        i = rng.randrange(len(words))
        cell, _, val = words[i].partition("=")
        row, col = cell[0], int(cell[1:])
        variants = [
            words[:i] + [f"{cell}={int(val.lstrip('J')) + rng.choice((1, 2, 5))}"] + words[i + 1:],
            words[:i] + [f"{row}{col + rng.choice((-2, -1, 1, 3))}={val}"] + words[i + 1:],
            words[:i] + [f"{chr(ord(row) + rng.choice((-1, 1, 2)))}{col}={val}"] + words[i + 1:],
            words + [f"{row}{col + 1}={rng.randrange(16)}"],
            words[:i] + words[i + 1:],
            [f"{chr(65 + rng.randrange(16))}{rng.randrange(17)}={rng.randrange(17)}"],
            [f"H8=J{rng.randrange(17)}"],
            [f"{w.partition('=')[0]}={u.partition('=')[2]}"  # values moved one cell on
             for w, u in zip(words, words[1:] + words[:1])],
            [f"{w[0]}{int(w[1:].partition('=')[0]) + 1}={w.partition('=')[2]}" for w in words],
            [f"{chr(ord(w[0]) + 1)}{w[1:]}" for w in words],
        ]
        for words2 in variants:
            text = "place " + " ".join(words2)
            try:
                found = state.find_move(text)
                out.append(f"ok {found.text}")
            except IllegalMove as exc:
                out.append(str(exc))
    return out


def play_game(game: Game, seed: int, players: int, greedy: bool) -> str:
    """The digest of one seeded game."""
    h = hashlib.sha256()
    state, rng = game.new_game(players, seed), random.Random(seed * 31 + 7)
    turn = 0
    while not state.is_over:
        legal = state.legal_moves()
        h.update("\n".join(m.text for m in legal).encode())
        if turn % 3 == 0:  # measures read before apply (otherwise apply works them out)
            for m in legal:
                if m.action == "place":
                    h.update(measures(m).encode())
        if turn % 4 == 1:
            h.update("\n".join(typed_mistakes(state, legal, rng)).encode())
        if greedy:
            gains = []
            for m in legal:
                events, trial = state.preview(m)
                gains.append(trial.scores[state.to_move] - state.scores[state.to_move])
                h.update(repr([(e.player, e.points, e.rule, e.detail) for e in events]).encode())
                h.update(repr(trial.board.key()).encode())
            move = legal[gains.index(max(gains))]
        else:
            move = rng.choice(legal)
        if turn % 5 == 2:  # a clone plays something else; the original must not notice
            other = state.clone()
            alt = rng.choice(legal)
            h.update(repr([(e.player, e.points, e.rule) for e in other.apply(alt.text)]).encode())
            h.update("\n".join(m.text for m in other.legal_moves()).encode())
            h.update(repr(other.board.key()).encode())
        events = state.apply(move)
        h.update(move.text.encode())
        if move.action == "place":
            h.update(measures(move).encode())
        h.update(repr([(e.player, e.points, e.rule, e.detail) for e in events]).encode())
        if turn % 10 == 0:
            problems = state.board.check_invariants()
            h.update(repr(problems).encode())
        turn += 1
    h.update(repr(state.scores).encode())
    h.update(state.board.dump_position().encode())
    h.update(game.topology.render_text(state.board).encode())
    h.update(repr(state.board.key()).encode())
    return h.hexdigest()[:16]


def fingerprints(games: int) -> dict[str, list[str]]:
    """Per ruleset (+overlay): the digests of its seeded games."""
    out = {}
    for ref in RULESETS:
        for overlay in OVERLAYS:
            game = Game(compile_model(load_ruleset(ref, [overlay] if overlay else []))[0])
            name = f"{ref}+{overlay}" if overlay else ref
            digests = [play_game(game, 1000, 2, True)]  # first: the same with any --games
            digests += [play_game(game, seed, 2 + seed % 3, False) for seed in range(games)]
            out[name] = digests
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    start = time.process_time()
    found = fingerprints(args.games)
    spent = time.process_time() - start
    if args.record:
        STORE.write_text(json.dumps(found, indent=1) + "\n")
        print(f"recorded {sum(map(len, found.values()))} games in {spent:.1f}s")
        return
    known = json.loads(STORE.read_text())
    bad = [(name, i) for name, digests in found.items()
           for i, (a, b) in enumerate(zip(digests, known.get(name, []))) if a != b]
    missing = [name for name in found if len(known.get(name, [])) < len(found[name])]
    for name, i in bad:
        print(f"DIFFERENT: {name} game {i}")
    for name in missing:
        print(f"not recorded: {name} (record with more --games)")
    print(f"{sum(map(len, found.values()))} games in {spent:.1f}s: "
          + ("all identical" if not bad else f"{len(bad)} differ"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
