"""Sweeps on Ray: a local Ray of 2 CPUs (started once per session) plays the same games,
row by row, as `--jobs 1`; a missing extra is one line naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from engine.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
COLUMNS = "ruleset, seed, scores, winner, first, rounds, turns, end_reason, points, fired"


@pytest.fixture(scope="session")
def local_ray():
    ray = pytest.importorskip("ray")
    from engine.analysis.cluster import start_ray

    start_ray(cpus=2)
    yield ray
    ray.shutdown()


def _games(path):
    with duckdb.connect(str(path), read_only=True) as conn:
        return conn.execute(f"SELECT {COLUMNS} FROM games ORDER BY ruleset, seed").fetchall()


@pytest.mark.ray
def test_ray_plays_the_same_games_as_one_job(local_ray, tmp_path):
    args = ["compare", "triominos/pressman", "triominos/club", "--games", "24", "--seed", "5",
            "--agents", "greedy,random", "--json"]
    on_ray = runner.invoke(app, args + ["--backend", "ray", "--jobs", "2", "--db", str(tmp_path / "r.duckdb")])
    assert on_ray.exit_code == 0, on_ray.output
    here = runner.invoke(app, args + ["--jobs", "1", "--db", str(tmp_path / "l.duckdb")])
    assert here.exit_code == 0, here.output
    assert on_ray.stdout == here.stdout
    ray_rows, local_rows = _games(tmp_path / "r.duckdb"), _games(tmp_path / "l.duckdb")
    assert len(ray_rows) == 48 and ray_rows == local_rows


def test_a_missing_ray_is_one_line_naming_the_extra():
    blocked = ("import sys; sys.modules['ray'] = None; sys.argv = ['rulecraft'] + sys.argv[1:];"
               " from engine.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", blocked, "simulate", "tripeaks", "--games", "2",
                           "--backend", "ray"], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: --backend ray needs ray, which is not installed:"
                                   " pip install 'rulecraft[ray]'")


def test_an_address_where_no_ray_listens_is_one_line():
    """Ray itself would wait minutes for a head that is not there; this fails at once."""
    pytest.importorskip("ray")
    import socket

    with socket.socket() as free:  # a port that nothing listens on once closed
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    result = runner.invoke(app, ["simulate", "tripeaks", "--games", "2", "--backend", "ray",
                                 "--address", f"127.0.0.1:{port}"])
    assert result.exit_code == 1
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in result.output
