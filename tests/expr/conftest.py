"""The `values` fixture; the context and helpers are in expr_context.py (a module of its
own name: `from conftest import` would find whichever conftest was imported first)."""

import pytest

from expr_context import make_values


@pytest.fixture
def values():
    return make_values()
