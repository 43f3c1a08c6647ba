"""The global guard: a bug in any command is one line in the project's words and exit 2;
--debug or RULECRAFT_DEBUG=1 shows the traceback; an unwritable output is not a bug."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import typer
from typer.testing import CliRunner

from engine.cli.app import GuardedGroup

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _buggy_app() -> typer.Typer:
    """An app guarded like `engine.cli.app.app`, with one command that has a real bug."""
    buggy = typer.Typer(cls=GuardedGroup, add_completion=False, pretty_exceptions_enable=False)

    @buggy.callback()
    def _root() -> None:
        """Root."""

    @buggy.command("crash")
    def crash() -> None:
        """Divide by zero."""
        print(1 // 0)

    return buggy


def test_a_bug_is_one_line_and_exit_2():
    result = runner.invoke(_buggy_app(), ["crash"], env={"RULECRAFT_DEBUG": ""})
    assert result.exit_code == 2
    assert result.output.strip() == (
        "internal error in rulecraft crash: ZeroDivisionError: please report"
        " (run with --debug or RULECRAFT_DEBUG=1 for the traceback)")


def test_the_environment_variable_shows_the_traceback():
    result = runner.invoke(_buggy_app(), ["crash"], env={"RULECRAFT_DEBUG": "1"})
    assert result.exit_code == 2
    assert "Traceback (most recent call last)" in result.output
    assert "1 // 0" in result.output
    assert result.output.rstrip().endswith("for the traceback)")


def _engine(*args: str, stdout=subprocess.PIPE, env_extra=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "engine", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT, timeout=60)


def test_a_full_disk_under_stdout_is_one_line_and_exit_1():
    # issue 16 item 10: `show triolet > /dev/full` gave an OSError traceback
    if not Path("/dev/full").exists():
        return
    with open("/dev/full", "w") as full:
        done = _engine("show", "triolet", stdout=full)
    assert done.returncode == 1
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"


def test_the_debug_flag_is_a_root_option():
    done = _engine("--debug", "rulesets")
    assert done.returncode == 0 and "triolet/standard" in done.stdout
