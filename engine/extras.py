"""Optional extras: a missing one is a one-line message naming what to install."""

from __future__ import annotations

import importlib


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says which extra brings it."""


def require(module: str, extra: str, what: str):
    """Import `module`, or raise MissingExtra: `<what> needs <module>: pip install
    'rulecraft[<extra>]'`."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{what} needs {module.split('.')[0]}, which is not installed:"
                           f" pip install 'rulecraft[{extra}]'") from None
