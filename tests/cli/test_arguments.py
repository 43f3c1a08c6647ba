"""issue 16 item 10: command-line numbers out of reason are usage errors or are capped,
and a usage error stays a usage error under the global guard."""

from __future__ import annotations

import os

from typer.testing import CliRunner

from engine.cli import app

runner = CliRunner()


def test_a_trillion_games_is_a_usage_error():
    # it built list(range(10**12)): MemoryError
    result = runner.invoke(app, ["simulate", "triominos", "--games", "1000000000000"])
    assert result.exit_code == 2
    assert "--games" in result.output and "internal error" not in result.output


def test_jobs_are_capped_at_the_cores():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    result = runner.invoke(app, ["simulate", "tripeaks", "--games", "2", "--jobs", "64"])
    assert result.exit_code == 0, result.output
    assert "note: --jobs 64 is more than the" in result.output
    assert f"using {cores}" in result.output


def test_an_unknown_option_is_still_a_usage_error():
    result = runner.invoke(app, ["show", "triominos", "--no-such-option"])
    assert result.exit_code == 2
    assert "internal error" not in result.output and "No such option" in result.output
