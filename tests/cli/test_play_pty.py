"""`rulecraft play` on a real pseudo-terminal (issue #18): colour and suit symbols on a
terminal, plain text with NO_COLOR or --no-color, the board and prompt in 50 rows."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX terminal")


def screen_of(*args: str, env: dict | None = None, rows: int = 50) -> str:
    """What `play` draws on a `rows` x 100 terminal up to its first prompt (then quit)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, 100, 0, 0))
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "LINES", "COLUMNS")}
    environ.update({"TERM": "xterm-256color", "PYTHONPATH": str(ROOT), **(env or {})})
    proc = subprocess.Popen([sys.executable, "-m", "engine", "play", *args], stdin=slave,
                            stdout=slave, stderr=slave, env=environ, cwd=ROOT)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while b"your move" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
        os.write(master, b"quit\nno\n")
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return seen.decode("utf-8", "replace").split("your move")[0]


def test_colour_and_suit_symbols_on_a_terminal():
    out = screen_of("tripeaks")
    assert "\x1b[" in out
    assert "\u2660" in out or "\u2665" in out  # the waste card Qs is drawn Q♠
    assert "Q\u2660" in out


def test_no_color_and_the_option_give_plain_text():
    for out in (screen_of("tripeaks", env={"NO_COLOR": "1"}), screen_of("tripeaks", "--no-color")):
        assert "\x1b[" not in out and "waste Qs" in out


def test_triolet_board_and_prompt_fit_fifty_rows():
    out = screen_of("triolet")
    board_and_prompt = out[out.index("    1  2  3"):]
    # 17 board lines, the status line, the rack, then 9 of the best moves and a note
    assert board_and_prompt.count("\n") < 50
    assert "9. place" in board_and_prompt and "more: `moves` lists them all" in board_and_prompt
