"""The ladder as a picture: an SVG bar chart of win rate per point of price, by Mek. The SVG
is written by hand (plain text), so it needs nothing beyond Python."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 50, 60


def ladder_svg(data: dict[str, Any]) -> str:
    """The SVG text of a ladder's win rate per point of price (percentage points of win rate
    for each point the Mek costs), one bar per Mek."""
    meks = [m for m in data["meks"] if m["per_point"] is not None]
    values = [100 * m["per_point"] for m in meks]
    top = _nice_ceiling(max(values, default=0.0))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(meks), 1)
    title = (f"Win rate per point of price ({', '.join(data['terrains'])}; "
             f"{data['runs_per_pairing']} duels per pairing, draws count half)")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2:.1f}" y="24" text-anchor="middle" font-size="14" '
           f'font-weight="bold">{escape(title)}</text>']
    for i in range(5):
        value = top * i / 4
        y = TOP + plot_h - plot_h * i / 4
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                   'stroke="#dddddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value:.2f}</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + plot_h / 2:.1f})">'
               "win rate % per point</text>")
    for i, (mek, value) in enumerate(zip(meks, values, strict=True)):
        height = plot_h * value / top if top else 0.0
        x = LEFT + i * slot + slot * 0.15
        y = TOP + plot_h - height
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" '
                   f'height="{height:.1f}" fill="#4a78b0"><title>{escape(mek["mek"])}: '
                   f'{value:.3f}% per point</title></rect>')
        centre = LEFT + i * slot + slot / 2
        out.append(f'<text x="{centre:.1f}" y="{y - 4:.1f}" text-anchor="middle">'
                   f"{value:.2f}</text>")
        out.append(f'<text x="{centre:.1f}" y="{TOP + plot_h + 18:.1f}" '
                   f'text-anchor="middle">{escape(mek["mek"])}</text>')
        out.append(f'<text x="{centre:.1f}" y="{TOP + plot_h + 34:.1f}" '
                   f'text-anchor="middle" fill="#666666">{mek["price"]} pts</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" '
               f'y2="{TOP + plot_h}" stroke="black"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_ladder_svg(data: dict[str, Any], path: Path) -> None:
    path.write_text(ladder_svg(data), encoding="utf-8")


def _nice_ceiling(value: float) -> float:
    """A round number (1, 2, 2.5 or 5 times a power of ten) at or above ``value``."""
    if value <= 0:
        return 1.0
    candidates = sorted(base * 10.0 ** power for base in (1, 2, 2.5, 5)
                        for power in range(-4, 5))
    return next((c for c in candidates if c >= value), value)
