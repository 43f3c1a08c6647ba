"""Where the shipped rulesets and schemas are, installed editable or as a wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    # A wheel carries the data inside the package (engine/_data/...); an editable
    # install or a checkout finds it at the top of the repository.
    bundled = _PACKAGE / "_data" / name
    if bundled.is_dir():
        return bundled
    return _PACKAGE.parent / name


def rulesets_dir() -> Path:
    """The folder of shipped rulesets."""
    return _data_dir("rulesets")


def schemas_dir() -> Path:
    """The folder of shipped JSON schemas."""
    return _data_dir("schemas")
