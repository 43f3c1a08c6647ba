"""Shared fixtures: quick rulesets (one round of the default Tri-Ominos rules) for games."""

import pytest

ONE_ROUND = (
    "extends: triominos/pressman\n"
    "ruleset: {game: triominos, title: One round}\n"
    "match: {end_if: true}\n"
)


@pytest.fixture
def one_round(tmp_path):
    """A path to a ruleset that plays a single round; `extra` YAML is appended."""

    def make(extra: str = "", name: str = "one-round.yaml") -> str:
        path = tmp_path / name
        path.write_text(ONE_ROUND + extra, encoding="utf-8")
        return str(path)

    return make
