"""The web tests need the `web` extra; without it they are skipped, saying so."""

import pytest

pytest.importorskip("starlette", reason="the `web` extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the `web` extra is not installed (pip install '.[web]')")
