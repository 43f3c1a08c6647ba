"""A built wheel carries the shipped rulesets and schemas, and finds them from anywhere."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_installs_with_rulesets_and_schemas(tmp_path):
    pytest.importorskip("hatchling")
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", "tests", "__pycache__", "*.pyc", ".ci-venv", ".pytest_cache", ".hypothesis"))
    build = f"from hatchling.build import build_wheel; print(build_wheel({str(tmp_path / 'dist')!r}))"
    subprocess.run([sys.executable, "-c", build], cwd=src, check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "engine/_data/schemas/ruleset.schema.json" in names
    assert "engine/_data/schemas/overlay.schema.json" in names
    assert any(n.startswith("engine/_data/rulesets/") and n.endswith(".yaml") for n in names)
    # the page `rulecraft serve` serves is a file of the package
    assert {"engine/web/static/index.html", "engine/web/static/app.js",
            "engine/web/static/app.css"} <= set(names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    probe = ("from engine.rules import load_ruleset; from engine.rules.schema import load_schema; "
             "from engine import paths; rs = load_ruleset('triominos'); "
             "print(rs.id, load_schema()['$id'], paths.schemas_dir(), rs.where('players').path)")
    env = dict(os.environ, PYTHONPATH=str(site))
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.startswith("triominos/pressman https://")
    assert str(site / "engine" / "_data" / "schemas") in out
    # a message names the shipped file as the rulesets folder's, not site-packages' (#18)
    assert out.split()[-1] == "rulesets/triominos/pressman.yaml"
