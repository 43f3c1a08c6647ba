"""The README's command lines stay true: each names a real command and real options."""

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def _command_lines():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.split("#")[0].strip()
            if line.startswith("rulecraft ") and not line.startswith("rulecraft --"):
                yield line


LINES = list(_command_lines())


def test_readme_shows_commands():
    assert len(LINES) >= 15


@pytest.mark.parametrize("line", LINES)
def test_readme_command_and_options_exist(line):
    words = line.split()
    command = words[1]
    result = runner.invoke(app, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0, f"`rulecraft {command}` does not exist"
    for option in (w for w in words[2:] if w.startswith("--")):
        assert option in result.output, f"`{option}` is not an option of `rulecraft {command}`"
