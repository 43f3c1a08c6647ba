"""`rulecraft render`: a scenario or a record's position as SVG; usage errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from engine.cli import app
from engine.kernel import Game
from engine.kernel.record import make_record, save_record
from engine.rules import load_ruleset
from engine.rules.model import compile_model

GOLDEN = Path(__file__).parents[1] / "render" / "golden"
runner = CliRunner()


def _record(tmp_path: Path, moves: int) -> Path:
    ruleset = load_ruleset("tripeaks/aisleriot")
    model, _ = compile_model(ruleset)
    state = Game(model).new_game(seed=5)
    for _ in range(moves):
        state.apply(state.legal_moves()[0])
    path = tmp_path / "game.json"
    save_record(path, make_record(state, ruleset.id, (), ruleset.hash, ["human"]))
    return path


def test_a_scenario_with_a_highlighted_move(tmp_path):
    out = tmp_path / "board.svg"
    got = runner.invoke(app, ["render", str(GOLDEN / "square.yaml"), "-o", str(out),
                              "--highlight", "place F7=4"])
    assert got.exit_code == 0, got.output
    root = ET.parse(out).getroot()
    marked = [n.get("data-target") for n in root.iter() if "highlight" in n.get("class", "")
              and n.get("data-target")]
    assert marked == ["F7"]


def test_seat_counts_from_0_as_in_the_api(tmp_path):
    # square.yaml: two racks of 3. --seat 0 shows seat 0's own rack and seat 1's 3 tiles
    # face down, plus the bag's top: 3 + 1 backs, as render_svg(state, seat=0) draws them.
    out = tmp_path / "board.svg"
    got = runner.invoke(app, ["render", str(GOLDEN / "square.yaml"), "-o", str(out), "--seat", "0"])
    assert got.exit_code == 0, got.output
    backs = [n for n in ET.parse(out).getroot().iter() if "back" in n.get("class", "").split()]
    assert len(backs) == 3 + 1
    beyond = runner.invoke(app, ["render", str(GOLDEN / "square.yaml"), "-o", str(out),
                                 "--seat", "2"])
    assert beyond.exit_code == 2 and "seats 0 to 1" in beyond.output


def test_a_record_after_n_moves(tmp_path):
    path = _record(tmp_path, 3)
    out = tmp_path / "after.svg"
    got = runner.invoke(app, ["render", str(path), "--move", "1", "-o", str(out)])
    assert got.exit_code == 0, got.output
    root = ET.parse(out).getroot()
    # the deal leaves 52 - 28 - 1 = 23 in the stock; the first move changes the stock by
    # at most one card (a deal) or none (a play)
    labels = [n.text for n in root.iter("{http://www.w3.org/2000/svg}text")
              if n.text and n.text.startswith("stock: ")]
    assert labels and labels[0] in ("stock: 23", "stock: 22")


def test_usage_errors(tmp_path):
    path = _record(tmp_path, 2)
    too_far = runner.invoke(app, ["render", str(path), "--move", "9", "-o", str(tmp_path / "x.svg")])
    assert too_far.exit_code == 2 and "the record has 2 moves" in too_far.output
    wrong = runner.invoke(app, ["render", str(path), "-o", str(tmp_path / "x.gif")])
    assert wrong.exit_code == 2 and ".svg or .png" in wrong.output
    illegal = runner.invoke(app, ["render", str(GOLDEN / "square.yaml"), "-o",
                                  str(tmp_path / "x.svg"), "--highlight", "place F7=9"])
    assert illegal.exit_code == 1 and "--highlight" in illegal.output
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "rulecraft-record"}), encoding="utf-8")
    bad = runner.invoke(app, ["render", str(broken), "-o", str(tmp_path / "x.svg")])
    assert bad.exit_code == 1 and "Traceback" not in bad.output


def test_serve_without_the_web_extra_says_which_extra(tmp_path):
    import subprocess
    import sys

    code = ("import sys; sys.modules['uvicorn'] = None; sys.argv = ['rulecraft', 'serve',"
            " '--no-browser']; from engine.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: `rulecraft serve` needs the `web` extra:"
                                   " pip install 'rulecraft[web]'")


def test_a_picture_into_a_missing_folder_says_so_in_words(tmp_path):
    from typer.testing import CliRunner

    from engine.cli import app

    out = tmp_path / "nowhere" / "board.svg"
    result = CliRunner().invoke(app, ["render", "tests/golden/triominos/hexagon.yaml", "-o", str(out)])
    assert result.exit_code == 1
    assert f"there is no folder {out.parent}" in result.output
    assert "No such file" not in result.output
