"""Fingerprint seeded games of every shipped ruleset and overlay: a hash per ruleset of
every legal-move list, every score event, the history and the final scores.

Run it before and after a change meant to be behaviour-identical (a speed-up) and compare
the two outputs line by line: any difference names the ruleset whose play changed.

    python benchmarks/fingerprint.py [--games 20] [--agents random|greedy] > before.txt
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.kernel import Game  # noqa: E402
from engine.rules import load_ruleset  # noqa: E402
from engine.cli.catalog import catalog  # noqa: E402
from engine.rules.model import compile_model  # noqa: E402


def refs() -> list[tuple[str, tuple[str, ...]]]:
    """Every ruleset alone, and every overlay on its game's default ruleset."""
    found = catalog()
    out = [(r["id"], ()) for r in found["rulesets"]]
    defaults = {r["game"]: r["id"] for r in found["rulesets"] if r["default"]}
    out += [(defaults[o["game"]], (o["id"],)) for o in found["overlays"]]
    return out


def fingerprint(game: Game, games: int, players: int | None, greedy: bool) -> str:
    digest = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while not state.is_over:
            legal = state.legal_moves()
            digest.update("|".join(m.text for m in legal).encode())
            if greedy:
                gains = [state.preview(m)[1].scores[state.to_move] for m in legal]
                move = legal[gains.index(max(gains))]
            else:
                move = rng.choice(legal)
            for event in state.apply(move):
                digest.update(repr(event.as_dict()).encode())
        digest.update(repr(state.history).encode())
        digest.update(repr((state.scores, state.winner, state.round.number)).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--agents", choices=("random", "greedy"), default="random")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    for ref, overlays in refs():
        if args.only not in ref:
            continue
        model, problems = compile_model(load_ruleset(ref, overlays))
        if model is None:
            sys.exit("\n".join(map(str, problems)))
        game = Game(model)
        players = None if model.players_max == 1 else 2
        name = "+".join((ref,) + overlays)
        print(f"{name:40} {fingerprint(game, args.games, players, args.agents == 'greedy')}",
              flush=True)


if __name__ == "__main__":
    main()
