"""The SVG of a line of play, checked by structure: counts worked out by hand."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine.kernel.scenario import load_scenario
from engine.render import render_svg

NS = "{http://www.w3.org/2000/svg}"


def _scenario(tmp_path, board: str, hand: str):
    path = tmp_path / "line.yaml"
    path.write_text(f"ruleset: dominoes/all-fives\nplayers: 2\nboard: \"{board}\"\n"
                    f"hands: [[{hand}], [1-1]]\nto_move: 0\n", encoding="utf-8")
    return load_scenario(path).state


def _groups(root, cls: str):
    return [n for n in root.iter(f"{NS}g") if cls in n.get("class", "").split()]


def test_tiles_ends_and_pips_of_the_spinner_set_game(tmp_path):
    # 7.1 after row 4: 5-5 set, 5-0 on E, 5-6 on W, 5-4 on N: 4 tiles, ends W E N S;
    # pips on the table 10 + 5 + 11 + 9 = 35, in the hands (both face up) 4-6 and 1-1,
    # 10 + 2: 47 pips in all.
    state = _scenario(tmp_path, "set: 5-5*; E: 5-0; W: 5-6; N: 5-4", "4-6")
    root = ET.fromstring(render_svg(state, highlight="place 4-6@N"))
    tiles = _groups(root, "tile")
    assert sorted(n.get("data-name") for n in tiles) == ["0-5", "4-5", "5-5", "5-6"]
    assert sorted(n.get("data-target") for n in _groups(root, "open")) == ["E", "N", "S", "W"]
    assert sum(1 for n in root.iter(f"{NS}circle") if n.get("class") == "pip") == 47
    # the end N and the 4-5 at N's tip (which carries N's id, so that the last move marks
    # the tile it laid), and the 4-6 in the hand
    marked = [(n.get("data-target"), n.get("data-name")) for n in _groups(root, "highlight")]
    assert marked[:2] == [("N", None), ("N", "4-5")] and marked[2][1] == "4-6" and len(marked) == 3


def test_an_empty_table_shows_where_the_set_goes(tmp_path):
    state = _scenario(tmp_path, "", "4-6")
    root = ET.fromstring(render_svg(state))
    assert [n.get("data-target") for n in _groups(root, "open")] == ["set"] and not _groups(root, "tile")
