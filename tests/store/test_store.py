"""The results store: `simulate --db`, `rulecraft results`, locking, interrupting and
resuming a real run (a subprocess killed with SIGKILL)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from engine.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames else CliRunner()


def cli(*args):
    return runner.invoke(app, [str(a) for a in args])


def rows(path, sql):
    with duckdb.connect(str(path), read_only=True) as conn:
        return conn.execute(sql).fetchall()


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Forty greedy-vs-random Tri-Ominos games stored, and the summary simulate printed."""
    path = tmp_path_factory.mktemp("store") / "runs.duckdb"
    result = cli("simulate", "triominos", "--games", 40, "--seed", 3, "--agents",
                 "greedy,random", "--db", path, "--json")
    assert result.exit_code == 0, result.output
    return path, json.loads(result.stdout)


def test_one_row_per_game_and_one_per_run(store):
    path, summary = store
    assert rows(path, "SELECT count(*), min(seed), max(seed), count(DISTINCT seed) FROM games") \
        == [(40, 3, 42, 40)]
    (run,) = rows(path, "SELECT status, games, command, versions->>'rulecraft',"
                        " versions->>'seats_from' FROM runs")
    assert run[:2] == ("finished", 40)
    assert "simulate triominos" in run[2] and run[3] == "0.1.0" and run[4] == "0"
    (game,) = rows(path, "SELECT DISTINCT ruleset, overlays, players, agents FROM games")
    assert game == ("triominos/pressman", [], 2, ["greedy", "random"])


def test_rows_agree_with_the_printed_summary(store):
    path, summary = store
    means = rows(path, "SELECT avg(scores[1]), avg(scores[2]), avg(turns) FROM games")[0]
    assert [round(m, 2) for m in means[:2]] == [s["mean_score"] for s in summary["seats"]]
    assert round(means[2], 2) == summary["mean_turns"]
    # seats from 0: seat 0's wins are `winner = 0`, its score DuckDB's `scores[1]`
    wins = rows(path, "SELECT count(*) FILTER (winner = 0) / count(*) FROM games")[0][0]
    assert round(wins, 4) == summary["seats"][0]["win_rate"]


def test_the_printed_rows_are_those_of_a_plain_run(store):
    """With --db the games go through the store; `--json` says the same as without it."""
    _, summary = store
    plain = json.loads(cli("simulate", "triominos", "--games", 40, "--seed", 3, "--agents",
                           "greedy,random", "--json").stdout)

    def timeless(report):
        return [{k: v for k, v in r.items() if k != "duration_s"} for r in report["rows"]]

    assert timeless(summary) == timeless(plain) and len(plain["rows"]) == 40
    assert summary["seats"] == plain["seats"]


def test_rule_points_add_up_to_the_scores(store):
    """Every point scored carries its rule: per game, the rules' points are the scores."""
    path, _ = store
    for points, scores in rows(path, "SELECT points, scores FROM games"):
        assert sum(json.loads(points).values()) == sum(scores)


def test_results_lists_runs_and_answers_sql(store, tmp_path):
    path, _ = store
    listed = cli("results", path)
    assert listed.exit_code == 0 and "finished" in listed.stdout and "(1 row)" in listed.stdout
    table = cli("results", path, "--sql", "SELECT count(*) AS n FROM games")
    assert table.stdout.splitlines()[0].strip() == "n" and "40" in table.stdout
    as_json = cli("results", path, "--sql", "SELECT seed FROM games ORDER BY seed LIMIT 2", "--json")
    assert json.loads(as_json.stdout) == [{"seed": 3}, {"seed": 4}]
    as_csv = cli("results", path, "--sql", "SELECT seed, players FROM games ORDER BY seed LIMIT 1", "--csv")
    assert as_csv.stdout == "seed,players\n3,2\n"
    out = tmp_path / "games.parquet"
    assert cli("results", path, "--out", out).exit_code == 0
    assert duckdb.sql(f"SELECT count(*) FROM read_parquet('{out}')").fetchall() == [(40,)]


@pytest.mark.parametrize("sql, words", [
    ("SELEC 1", "syntax error"),
    ("DROP TABLE games", "read-only"),
    ("SELECT count(*) FROM range(100000000000) a, range(1000) b", "stopped"),
])
def test_a_bad_query_is_one_line_and_exit_1(store, sql, words):
    path, _ = store
    result = cli("results", path, "--sql", sql, "--timeout", 0.5)
    assert result.exit_code == 1
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_missing_file_is_a_usage_error(tmp_path):
    result = cli("results", tmp_path / "none.duckdb")
    assert result.exit_code == 2 and "no such results file" in result.stderr


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_a_second_writer_is_refused(tmp_path):
    path = tmp_path / "busy.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]);"
         " print('ready', flush=True); time.sleep(30)", str(path)],
        stdout=subprocess.PIPE, text=True, env=_env())
    try:
        assert holder.stdout.readline().strip() == "ready"
        result = cli("simulate", "tripeaks", "--games", 2, "--db", path)
        assert result.exit_code == 1
        assert f"in use by another run (process {holder.pid})" in result.stderr
    finally:
        holder.kill()
        holder.wait()


def test_a_killed_run_resumes_without_playing_a_game_twice(tmp_path):
    path = tmp_path / "killed.duckdb"
    args = ["simulate", "triominos/club", "--games", "600", "--seed", "100", "--db", str(path)]
    run = subprocess.Popen([sys.executable, "-m", "engine", *args], stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, text=True, env=_env(), cwd=ROOT)
    try:
        line = run.stderr.readline()  # the first stored chunk: "stored 25/600 games"
        assert line.startswith("stored "), line
        run.send_signal(signal.SIGKILL)
    finally:
        run.wait()
    ((kept, status),) = rows(path, "SELECT (SELECT count(*) FROM games), status FROM runs")
    assert 0 < kept < 600 and status == "running"
    resumed = cli(*args, "--resume", "--json")
    assert resumed.exit_code == 0, resumed.stderr
    assert json.loads(resumed.stdout)["games"] == 600
    assert rows(path, "SELECT count(*), count(DISTINCT seed), min(seed), max(seed) FROM games") \
        == [(600, 600, 100, 699)]
    assert rows(path, "SELECT count(*), min(status) FROM runs") == [(1, "finished")]
    # Stored games are the games: `simulate --out`'s rows of the same seeds say the same.
    from engine.cli.games import compile_game
    from engine.cli.simulate import play_one

    game = compile_game("triominos/club")[1]
    stored = rows(path, "SELECT seed, scores, winner, turns, rounds, end_reason FROM games"
                        " WHERE seed IN (100, 101, 699) ORDER BY seed")
    for seed, *stored_row in stored:
        fresh = play_one(game, 2, seed, ["random"])
        assert [fresh[k] for k in ("scores", "winner", "turns", "rounds", "end_reason")] == stored_row


def test_resume_without_an_unfinished_run_says_so(store):
    path, _ = store
    result = cli("simulate", "triominos", "--games", 40, "--seed", 3, "--agents",
                 "greedy,random", "--db", path, "--resume")
    assert result.exit_code == 1 and "no unfinished run" in result.stderr


def _default_sigint():
    """Ctrl-C as a terminal delivers it, even when the tests themselves were started in
    the background (a shell starts those with SIGINT ignored, and Python then installs
    no KeyboardInterrupt for it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_keeps_the_finished_games(tmp_path):
    path = tmp_path / "stopped.duckdb"
    # (far more games than run before the signal: a compiled ruleset plays 600 in
    # about a second, and a run that ends first exits 0)
    run = subprocess.Popen([sys.executable, "-m", "engine", "simulate", "triominos/club",
                            "--games", "100000", "--db", str(path)], stderr=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, text=True, env=_env(), cwd=ROOT,
                           preexec_fn=_default_sigint)
    assert run.stderr.readline().startswith("stored ")
    run.send_signal(signal.SIGINT)
    rest = run.stderr.read()
    assert run.wait() == 130
    ((kept, status, counted),) = rows(path, "SELECT (SELECT count(*) FROM games), status, games FROM runs")
    assert status == "interrupted" and 0 < kept == counted < 100000
    assert f"interrupted: {kept} games are stored in {path}" in rest


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(p) for p in found]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc to find the workers")
def test_a_killed_worker_keeps_the_finished_games(tmp_path):
    path = tmp_path / "worker.duckdb"
    args = ["simulate", "triominos/club", "--games", "300", "--db", str(path)]
    run = subprocess.Popen([sys.executable, "-m", "engine", *args, "--jobs", "2"],
                           stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                           env=_env(), cwd=ROOT)
    assert run.stderr.readline().startswith("stored ")
    os.kill(_children(run.pid)[0], signal.SIGKILL)  # one of the two worker processes
    rest = run.stderr.read()
    assert run.wait() == 1
    assert "a worker process died:" in rest and "--resume plays the rest" in rest
    ((kept, status),) = rows(path, "SELECT (SELECT count(*) FROM games), status FROM runs")
    assert status == "interrupted" and 0 < kept < 300
    assert cli(*args, "--resume").exit_code == 0  # --jobs is not a setting of the run
    assert rows(path, "SELECT count(*), count(DISTINCT seed) FROM games") == [(300, 300)]


def test_a_file_that_is_no_results_file_is_one_line(tmp_path):
    text = tmp_path / "notes.duckdb"
    text.write_text("hello\n")
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    for path, words in ((text, "not a valid DuckDB database file"),
                        (empty, "not a results file (no `runs` and `games` tables)")):
        result = cli("results", path)
        assert result.exit_code == 1 and words in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    stored = cli("simulate", "tripeaks", "--games", 2, "--db", text)
    assert stored.exit_code == 1 and "cannot open the results file" in stored.stderr
