"""One or two examples per command, shown under its `--help` (and run by the tests)."""

from __future__ import annotations

EXAMPLES: dict[str, list[str]] = {
    "lint": ["rulecraft lint rulesets/", "rulecraft lint my-house.yaml --strict --format github"],
    "rulesets": ["rulecraft rulesets --rulesets ~/my-rulesets", "rulecraft rulesets --json"],
    "show": ["rulecraft show triominos", "rulecraft show triominos/pressman --with three-vertex --provenance"],
    "schema": ["rulecraft schema > ruleset.schema.json", "rulecraft schema --overlay"],
    "names": ["rulecraft names triominos --on place", "rulecraft names triolet --json"],
    "play": ["rulecraft play triominos", "rulecraft play triolet --record game.json"],
    "simulate": ["rulecraft simulate triominos --games 1000 --agents greedy,random",
                 "rulecraft simulate triolet --games 200 --out games.csv --json"],
    "moves": ["rulecraft moves tests/golden/triominos/hexagon.yaml", "rulecraft moves position.yaml --json"],
    "replay": ["rulecraft replay game.json", "rulecraft replay game.json --rescore --json"],
    "solve": ["rulecraft solve tripeaks --seed 5", "rulecraft solve tripeaks --games 100 --json"],
    "diff": ["rulecraft diff triominos/pressman triominos/club", "rulecraft diff triolet triolet+jokers --json"],
    "explain": ["rulecraft explain game.json --move 12", "rulecraft explain position.yaml --json"],
    "compare": ["rulecraft compare triominos/pressman triominos/club --games 500",
                "rulecraft compare tripeaks tripeaks+no-wrap --html report.html"],
}


def epilog(lines: list[str]) -> str:
    """The examples as a help epilog (`\\b` keeps click from re-wrapping the lines)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)
