"""`rulecraft play` on a real pseudo-terminal (issue #18): colour and suit symbols on a
terminal, plain text with NO_COLOR or --no-color, the board and prompt in 50 rows."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.text import Text

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX terminal")


def screen_of(*args: str, env: dict | None = None, rows: int = 50, typed: bytes = b"") -> str:
    """What `play` draws on a `rows` x 100 terminal up to its first prompt, then what
    `typed` brings (then quit)."""
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
        if typed:
            os.write(master, typed)
            seen += _read_until(master, b"not a legal move", 2)
        os.write(master, b"quit\nno\n")
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = seen.decode("utf-8", "replace")
    return text if typed else text.split("your move")[0]


def _read_until(master: int, word: bytes, times: int) -> bytes:
    seen, deadline = b"", time.monotonic() + 30
    while seen.count(word) < times and time.monotonic() < deadline:
        if select.select([master], [], [], 1)[0]:
            seen += os.read(master, 65536)
    return seen


def test_colour_on_a_terminal_and_the_board_and_prompt_fit_fifty_rows():
    out = screen_of("triolet")
    assert "\x1b[" in out
    board_and_prompt = out[out.index("    1  2  3"):]
    # 17 board lines, the status line, the rack, then 9 of the best moves and a note
    assert board_and_prompt.count("\n") < 50
    assert "9. place" in board_and_prompt and "more: `moves` lists them all" in board_and_prompt


def test_no_color_gives_plain_text_and_the_up_arrow_brings_back_the_last_line():
    # `zzz` is refused; Up (ESC [ A) and Enter type it again, so it is refused twice
    out = screen_of("tripeaks", env={"NO_COLOR": "1"}, typed=b"zzz\r\x1b[A\r")
    assert "waste Qs" in out and out.count("no legal move reads `zzz`") == 2
    assert "\x1b[" not in out.split("your move")[0]  # (readline's own codes come later)



def test_colour_is_chosen_only_for_a_terminal_without_no_color(monkeypatch):
    from engine.cli.screen import wants_colour

    master, slave = pty.openpty()
    with open(slave, "w") as terminal, open(os.devnull, "w") as not_terminal:
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.setenv("TERM", "xterm")
        assert wants_colour(False, terminal) and not wants_colour(False, not_terminal)
        assert not wants_colour(True, terminal)  # --no-color
        monkeypatch.setenv("TERM", "dumb")
        assert not wants_colour(False, terminal)
        monkeypatch.setenv("TERM", "xterm")
        monkeypatch.setenv("NO_COLOR", "1")
        assert not wants_colour(False, terminal)
    os.close(master)


def test_a_styled_screen_draws_suits_as_symbols_in_their_colours():
    from engine.cli.games import compile_game
    from engine.cli.play import Session, show
    from engine.cli.screen import Screen

    _, game, _ = compile_game("tripeaks")
    for styled, waste in ((True, "Q\u2660"), (False, "Qs")):
        out = io.StringIO()
        screen = Screen(styled, file=out)
        show(Session(game.new_game(1, 0), None, [], None, "greedy", "tripeaks", screen))
        text = out.getvalue()
        assert f"waste {waste}" in re.sub(r"\x1b\[[0-9;]*m", "", text)
        # 9h, the first card of the exposed row, in red (SGR 31) only when styled
        assert ("\x1b[1;31m9\u2665" in text) is styled and ("\x1b[" in text) is styled


def test_a_ruleset_string_cannot_drive_the_terminal():
    from engine.cli.screen import Screen

    for styled in (True, False):
        out = io.StringIO()
        screen = Screen(styled, file=out)
        screen.say("title \x1b]0;PWNED\x07")
        screen.say(Text("zone \x1b[2J", style="note"))
        screen.runs([[("card \x1b[2J", "piece")]])
        screen.table(["rule"], [["x\x1b[2J"]])
        assert "\x1b]0" not in out.getvalue() and "\x1b[2J" not in out.getvalue()
        assert "\\x1b]0;PWNED\\x07" in out.getvalue()
