"""The campaign report's charts, drawn by matplotlib as SVG to put inside the page.

Text stays text (``svg.fonttype`` none: the browser draws it with a font it has, so the
page asks for no font file), names are never read as mathematics (``text.parse_math``
off), and the same campaign always draws the same SVG (a fixed ``svg.hashsalt``, no date).
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Sequence
from typing import Any

from campaigns.files.report_records import RecordedStep

LEVELS = ("Green", "Regular", "Veteran", "Elite")
# each pilot's line its own mark and dashes as well as colour, to tell apart where they meet
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h")
DASHES = ("-", "--", "-.", ":")
# pilots with the same figures would draw one line on another: each line is drawn this many
# points above or below its figures, the first pilot's highest, all within SPREAD points
GAP, SPREAD = 3.0, 15.0
RESULT_COLOURS = {"win": "#2e7d32", "draw": "#9e9e9e", "loss": "#c62828"}
# matplotlib rcParams: each setting has a type of its own
STYLE: dict[str, Any] = {"svg.fonttype": "none", "svg.hashsalt": "meks", "text.parse_math": False,
         "font.family": "sans-serif", "font.size": 9, "axes.spines.top": False,
         "axes.spines.right": False}


def _svg(figure: Any) -> str:
    """The figure as an ``<svg>`` element (the XML prologue and doctype left out, for a
    page), scaled to the width of its container.

    A name with a character matplotlib's own font lacks (an emoji) is measured without it,
    and matplotlib warns of it on standard error; the browser draws the text with its own
    fonts (``svg.fonttype`` none), so the warning tells the user nothing and is kept out."""
    buffer = io.StringIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None},
                       bbox_inches="tight")
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    # the page sets the size: the drawing keeps its proportions at any width
    return re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"', r'<svg \1', text, count=1)


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def odds_chart(steps: Sequence[RecordedStep]) -> str:
    """Each battle's odds of winning before it (a bar) against its result (the bar's
    colour, and a mark: up for a win, level for a draw, down for a loss)."""
    import matplotlib

    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
        figure = _figure(7.0, 2.6)
        ax = figure.add_subplot()
        labels = [f"{s['step']}" for s in steps]
        odds = [o.get("win") if (o := s["odds_before"]) else None for s in steps]
        for i, (share, step) in enumerate(zip(odds, steps, strict=True)):
            colour = RESULT_COLOURS.get(step["result"], "#9e9e9e")
            if share is not None:
                ax.bar(i, share * 100, color=colour, alpha=0.8, width=0.6)
                ax.text(i, share * 100 + 2, f"{share:.0%}", ha="center", fontsize=8)
            else:
                ax.text(i, 4, "no odds", ha="center", fontsize=7, color="#666666")
            ax.text(i, -12, step["result"], ha="center", fontsize=8, color=colour,
                    fontweight="bold")
        ax.set_xticks(range(len(steps)), labels)
        ax.set_xlim(-0.6, max(len(steps), 1) - 0.4)
        ax.set_ylim(-18, 105)
        ax.set_yticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
        ax.axhline(50, color="#bbbbbb", linewidth=0.8, linestyle=":")
        ax.set_xlabel("Battle (campaign step)")
        ax.set_ylabel("Odds of winning before")
        return _svg(figure)


def treasury_chart(steps: Sequence[RecordedStep],
                   broke: tuple[int, int] | None = None) -> str | None:
    """The treasury after each step, when the campaign recorded one (else None); ``broke``
    (the step it could not begin, and what the treasury held then) is the last point."""
    points = [(s["step"], s["treasury"]) for s in steps if s.get("treasury") is not None]
    if broke is not None:
        points.append(broke)
    if not points:
        return None
    import matplotlib

    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
        figure = _figure(7.0, 2.2)
        ax = figure.add_subplot()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", color="#8d6e00")
        for x, y in points:
            ax.annotate(str(y), (x, y), textcoords="offset points", xytext=(0, 5),
                        ha="center", fontsize=8)
        ax.axhline(0, color="#c62828", linewidth=0.8)
        ax.set_xticks([s["step"] for s in steps] + ([broke[0]] if broke else []))
        if broke is not None:
            ax.annotate("broke", broke, textcoords="offset points", xytext=(0, -12),
                        ha="center", fontsize=8, color="#c62828")
        ax.set_xlabel("After campaign step")
        ax.set_ylabel("Treasury (points)")
        return _svg(figure)


def _apart(n: int, pilots: int) -> float:
    """How many points the ``n``-th of ``pilots`` lines is drawn above its figures (below,
    if negative): the first highest, the last lowest, the middle one on its figures."""
    gap = min(GAP, SPREAD / (pilots - 1)) if pilots > 1 else 0.0
    return ((pilots - 1) / 2 - n) * gap


def pilots_chart(steps: Sequence[RecordedStep]) -> str | None:
    """Each pilot's kills in the campaign so far and level, step by step (None with no
    pilot). Each pilot's line has its own colour, mark and dashes, and is drawn a few points
    apart from the others (``_apart``), so that pilots with the same figures all show."""
    names: list[str] = []
    for step in steps:
        for pilot in step["pilots"]:
            if pilot["pilot"] not in names:
                names.append(pilot["pilot"])
    if not names:
        return None
    import matplotlib
    from matplotlib.transforms import offset_copy

    with matplotlib.rc_context(STYLE):  # type: ignore[arg-type]
        figure = _figure(7.0, 4.2)
        kills_ax, level_ax = figure.subplots(2, 1, sharex=True)
        handles = []
        for n, name in enumerate(names):
            xs, kills, levels = [], [], []
            for step in steps:
                p = next((p for p in step["pilots"] if p["pilot"] == name), None)
                if p is None:
                    continue
                xs.append(step["step"])
                kills.append(p["total_kills"])
                levels.append(LEVELS.index(p["level"]) if p.get("level") in LEVELS else None)
            look = {"color": f"C{n % 10}", "marker": MARKERS[n % len(MARKERS)],
                    "linestyle": DASHES[n % len(DASHES)], "markersize": 5,
                    "markeredgecolor": "white", "markeredgewidth": 0.6, "clip_on": False}
            apart = _apart(n, len(names))
            line, = kills_ax.plot(xs, kills, transform=offset_copy(
                kills_ax.transData, figure, y=apart, units="points"), **look)
            handles.append(line)
            shown = [(x, y) for x, y in zip(xs, levels, strict=True) if y is not None]
            if shown:
                level_ax.step([x for x, _ in shown], [y for _, y in shown], where="post",
                              transform=offset_copy(level_ax.transData, figure, y=apart,
                                                    units="points"), **look)
        kills_ax.set_ylabel("Kills so far")
        kills_ax.yaxis.get_major_locator().set_params(integer=True)
        # a line drawn apart from its figures leaves the axes' limits to be set here: kills
        # start at 0 and come whole, with room above and below for the lines drawn apart
        top = max([1] + [p["total_kills"] for s in steps for p in s["pilots"]])
        kills_ax.set_ylim(-0.15 * top, 1.15 * top)
        kills_ax.set_yticks([t for t in kills_ax.get_yticks() if 0 <= t <= top])
        at = [s["step"] for s in steps]
        level_ax.set_xlim(min(at) - 0.3, max(at) + 0.3)
        level_ax.set_yticks(range(len(LEVELS)), LEVELS)
        level_ax.set_ylim(-0.5, len(LEVELS) - 0.5)
        level_ax.set_ylabel("Level")
        level_ax.set_xlabel("After campaign step")
        level_ax.set_xticks([s["step"] for s in steps])
        # the labels given whole: matplotlib would leave out a name beginning with '_'
        figure.legend(handles, names, loc="outside right upper", fontsize=8, frameon=False)
        return _svg(figure)


__all__ = ["odds_chart", "pilots_chart", "treasury_chart"]
