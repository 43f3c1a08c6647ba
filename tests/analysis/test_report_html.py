"""`simulate --html` and `compare --html` (#19 item 3): one self-contained file, read back
with an XML parser: its tables, its inline SVG plots, and nothing fetched from elsewhere."""

import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from engine.cli import app

pytest.importorskip("matplotlib")
runner = CliRunner()
XHTML, SVG = "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/2000/svg}"


def _parsed(path):
    root = ET.parse(path).getroot()
    assert root.tag == f"{XHTML}html"
    for element in root.iter():
        assert element.tag not in (f"{XHTML}script", f"{XHTML}link", f"{XHTML}img")
        for name, value in element.attrib.items():
            if name.endswith("href") or name == "src":
                assert value.startswith("#"), (element.tag, value)  # links inside the file only
    return root


def _headings(root):
    return [h.text for h in root.iter(f"{XHTML}h2")]


def test_simulate_html_report(tmp_path):
    report = tmp_path / "sim.html"
    result = runner.invoke(app, ["simulate", "tripeaks", "-n", "6", "--html", str(report)])
    assert result.exit_code == 0, result.output
    root = _parsed(report)
    assert _headings(root) == ["Setup", "Seats", "Score distributions", "Game length",
                               "Rule coverage"]
    assert len(list(root.iter(f"{SVG}svg"))) == 3  # scores, length, coverage
    cells = [td.text for td in root.iter(f"{XHTML}td")]
    assert "card" in cells  # Tri Peaks' rule for each card played, in the coverage table


def test_compare_html_report(tmp_path):
    report = tmp_path / "cmp.html"
    result = runner.invoke(app, ["compare", "tripeaks", "tripeaks+no-wrap", "-n", "6",
                                 "--html", str(report)])
    assert result.exit_code == 0, result.output
    root = _parsed(report)
    heads = _headings(root)
    assert heads[:2] == ["Setup", "Metrics"] and "Paired differences" in heads
    assert "Game length" in heads and "Rule coverage" in heads
    # one score distribution (one seat), the intervals of B - A (rates, then scores and
    # lengths), game length, coverage
    assert len(list(root.iter(f"{SVG}svg"))) == 5
    items = [li.text for li in root.iter(f"{XHTML}li")]
    assert items == ["A: tripeaks, Tri Peaks, Aisleriot scoring (overlays: none)",
                     "B: tripeaks+no-wrap, Tri Peaks, Aisleriot scoring (overlays: no-wrap)"]


def test_without_matplotlib_one_line_names_the_extra(tmp_path, monkeypatch):
    # matplotlib is installed here, so its absence is simulated at the one place asked
    import engine.analysis.report_html as report_html

    monkeypatch.setattr(report_html, "plots_available", lambda: False)
    result = runner.invoke(app, ["simulate", "tripeaks", "-n", "1", "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --html needs matplotlib: pip install 'rulecraft[plots]'"
