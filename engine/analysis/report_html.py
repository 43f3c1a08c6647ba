"""Self-contained HTML reports of `simulate` and `compare`: the tables, and plots drawn
with matplotlib (the `plots` extra) as inline SVG, so the file reads offline and links
to nothing. The page is well-formed XML (XHTML), so any XML parser reads it."""

from __future__ import annotations

import html
import io
import re
from typing import Sequence

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 70em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.sig { font-weight: bold; }
figure { margin: 1em 0; }
"""


def plots_available() -> bool:
    """Whether matplotlib (the `plots` extra) can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


# -- pictures -------------------------------------------------------------------

def _figure(width: float = 7.0, height: float = 3.2):
    from matplotlib.figure import Figure  # no pyplot: no global drawing state

    return Figure(figsize=(width, height), layout="constrained")


def svg_text(fig) -> str:
    """A figure as inline SVG: no XML prolog, no metadata, the same text for the same data."""
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "rulecraft", "svg.fonttype": "none"}):
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None, "Format": None,
                                                 "Type": None})
    text = buf.getvalue()
    return re.sub(r"^.*?(?=<svg)", "", text, flags=re.S)


def histogram(series: dict[str, Sequence[float]], title: str, xlabel: str) -> str:
    """Overlaid histograms of several named series (one colour each), as SVG."""
    fig = _figure()
    ax = fig.add_subplot()
    values = [v for s in series.values() for v in s]
    low, high = (min(values), max(values)) if values else (0, 1)
    bins = _bins(low, high)
    for name, data in series.items():
        ax.hist(list(data), bins=bins, alpha=0.55, label=name, histtype="stepfilled")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    if len(series) > 1:
        ax.legend(fontsize="small")
    return svg_text(fig)


def _bins(low: float, high: float) -> list[float]:
    if high <= low:
        return [low - 0.5, low + 0.5]
    step = max(1.0, (high - low) / 30)
    count = int((high - low) / step) + 2
    return [low - step / 2 + i * step for i in range(count + 1)]


def bars(labels: Sequence[str], series: dict[str, Sequence[float]], title: str, xlabel: str) -> str:
    """Horizontal bars, one group per label and one bar per named series, as SVG."""
    fig = _figure(7.0, max(2.0, 0.32 * len(labels) * max(1, len(series)) + 1.0))
    ax = fig.add_subplot()
    height = 0.8 / max(1, len(series))
    for k, (name, data) in enumerate(series.items()):
        ax.barh([i + k * height for i in range(len(labels))], list(data), height=height, label=name)
    ax.set_yticks([i + height * (len(series) - 1) / 2 for i in range(len(labels))], list(labels))
    ax.invert_yaxis()
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    if len(series) > 1:
        ax.legend(fontsize="small")
    return svg_text(fig)


def intervals(labels: Sequence[str], diffs: Sequence[tuple[float, float, float]], title: str) -> str:
    """Each difference as a point with its 95% interval (whiskers), 0 marked, as SVG."""
    fig = _figure(7.0, max(2.0, 0.35 * len(labels) + 1.0))
    ax = fig.add_subplot()
    ys = list(range(len(labels)))
    centre = [d for d, _, _ in diffs]
    lower = [d - lo for d, lo, _ in diffs]
    upper = [hi - d for d, _, hi in diffs]
    ax.errorbar(centre, ys, xerr=[lower, upper], fmt="o", capsize=3)
    ax.axvline(0, color="#888", linewidth=1)
    ax.set_yticks(ys, list(labels))
    ax.invert_yaxis()
    ax.set_title(title)
    ax.set_xlabel("difference from A (95% CI)")
    return svg_text(fig)


# -- pages ----------------------------------------------------------------------

def table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """An HTML table, every cell escaped."""
    out = ["<table>", "<tr>" + "".join(f"<th>{html.escape(str(h))}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    return "\n".join(out + ["</table>"])


def page(title: str, sections: Sequence[tuple[str, str]]) -> str:
    """The whole document: a title, then (heading, body HTML) sections."""
    body = "\n".join(f"<h2>{html.escape(h)}</h2>\n{content}" for h, content in sections)
    return ("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
            f"<head><meta charset=\"utf-8\"/><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head>\n<body>\n<h1>{html.escape(title)}</h1>\n"
            f"{body}\n</body>\n</html>\n")


def figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def coverage_section(rules: Sequence[dict], series: dict[str, Sequence[float]]) -> str:
    """The rule coverage table rows are `rules`; `series` the share of games per ruleset."""
    labels = [r["rule"] for r in rules]
    return figure(bars(labels, series, "rule coverage", "share of games in which it fired (%)"),
                  "How often each scoring rule fired; a rule at 0 never fired.")


def simulation_report(name: str, summary: dict, rows: Sequence[dict], coverage: Sequence[dict]) -> str:
    """The report of one `simulate` run: seats, score distributions, game length, coverage."""
    seats = summary["seats"]
    sections = [("Setup", f"<p>{html.escape(name)}: {summary['games']} games, "
                 f"{html.escape(summary.get('title', ''))}; overlays: "
                 f"{html.escape(', '.join(summary.get('overlays') or []) or 'none')}</p>")]
    sections.append(("Seats", table(["seat", "agent", "mean score", "win rate"],
                                    [[s["seat"], s["agent"], f"{s['mean_score']:.2f}",
                                      f"{s['win_rate'] * 100:.1f}%"] for s in seats])))
    scores = {f"seat {s['seat']} ({s['agent']})": [r["scores"][s["seat"]] for r in rows]
              for s in seats}
    sections.append(("Score distributions", figure(histogram(scores, "final scores", "score"),
                                                   "Final score per seat over the games (seats from 0).")))
    sections.append(("Game length", figure(histogram({"turns": [r["turns"] for r in rows]},
                                                     "game length", "turns"),
                                           "Turns per game.")))
    if coverage:
        n = max(1, summary["games"])
        share = {name: [c["games"] / n * 100 for c in coverage]}
        body = table(["rule", "fired", "games", "points", "where"],
                     [[c["rule"], c["fired"], c["games"], c["points"], c["where"] or "-"]
                      for c in coverage])
        sections.append(("Rule coverage", body + coverage_section(coverage, share)))
    return page(f"simulate {name}", sections)


def comparison_report(comparison, titles: Sequence[str] = ()) -> str:
    """The report of one `compare` run: the metric table, score distributions per ruleset
    and seat, the paired differences with intervals, rule coverage, game length.
    `titles`: each ruleset's title and overlays, listed in the setup."""
    c = comparison
    letters = [chr(65 + k) if k < 26 else str(k) for k in range(len(c.specs))]
    names = [f"{x}: {s.name}" for x, s in zip(letters, c.specs)]
    listed = [f"{n}, {t}" for n, t in zip(names, titles)] if titles else names
    setup = (f"<p>{len(c.seeds)} games per ruleset (seeds {c.seeds[0]}..{c.seeds[-1]}), "
             f"{c.players} player{'s' if c.players != 1 else ''}, agents {html.escape(','.join(c.agents))}.</p><ul>"
             + "".join(f"<li>{html.escape(n)}</li>" for n in listed) + "</ul>")
    sections = [("Setup", setup), ("Metrics", _metric_table(c, letters))]
    for m in (m for m in c.metrics if m.key.startswith("score.seat")):
        series = dict(zip(names, m.values))
        sections.append((m.label, figure(histogram(series, m.label, "score"),
                                         "Final scores under each ruleset, same seeds.")))
    sections.append(("Paired differences", _differences(c, letters)))
    turns = next(m for m in c.metrics if m.key == "turns")
    sections.append(("Game length", figure(histogram(dict(zip(names, turns.values)), "game length",
                                                     "turns"), "Turns per game.")))
    if c.coverage and c.coverage[0]:
        n = max(1, len(c.seeds))
        rules = [r.as_dict() for r in c.coverage[0]]
        share = {name: [next((r.games for r in cov if r.name == rule["rule"]), 0) / n * 100
                        for rule in rules] for name, cov in zip(names, c.coverage)}
        sections.append(("Rule coverage", coverage_section(rules, share)))
    return page("compare " + " vs ".join(s.name for s in c.specs), sections)


def _metric_table(c, letters) -> str:
    head = ["metric"] + letters + [f"{x} - A [95% CI]" for x in letters[1:]]
    rows = []
    for m in c.metrics:
        cells = [m.label] + [f"{x:.2f}" for x in m.means]
        for d in m.diffs[1:]:
            cells.append("" if d is None else f"{d.diff:+.2f} [{_bound(d.low)}, {_bound(d.high)}]"
                         + (" *" if d.significant else ""))
        rows.append(cells)
    return table(head, rows) + "<p>* the 95% confidence interval excludes 0.</p>"


def _bound(x: float) -> str:
    return "inf" if abs(x) > 1e300 else f"{x:+.2f}"


def _differences(c, letters) -> str:
    """Per ruleset, the intervals of the rates (share of games) and of the counts apart:
    on one axis a win rate's +-0.1 would vanish beside a score's +-50."""
    out = []
    for k, letter in enumerate(letters[1:], 1):
        shown = [(m, m.diffs[k]) for m in c.metrics if m.group in ("outcome", "length")
                 and m.diffs[k] is not None and abs(m.diffs[k].low) < 1e300
                 and abs(m.diffs[k].high) < 1e300]
        for rates, what in ((True, "rates (share of games)"), (False, "scores and lengths")):
            part = [(m.label, d) for m, d in shown if m.key.startswith("win.") == rates]
            if part:
                svg = intervals([label for label, _ in part],
                                [(d.diff, d.low, d.high) for _, d in part], f"{letter} - A: {what}")
                out.append(figure(svg, f"Paired differences of {letter} from A, {what}, with 95%"
                                       " intervals."))
    return "\n".join(out) or "<p>No differences to draw.</p>"
