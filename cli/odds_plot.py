"""The ladder as a picture: a bar chart of win rate per point of price, by Mek, as SVG or PNG.

The chart is laid out once as a list of shapes (rectangles, lines, text), then drawn: as SVG
text written by hand, or as a PNG image with Pillow. Both show the same chart."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from campaigns.files.odds_records import Ladder

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 70, 60
EM = 0.62  # a generous width of one character of a sans-serif font, in font sizes
PNG_SCALE = 2  # the PNG is drawn at twice the SVG's size, so its text stays sharp
FORMATS = (".svg", ".png")
BAR, GRID, FAINT, INK = "#4a78b0", "#dddddd", "#666666", "#000000"


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str
    tip: str = ""  # shown on hover in the SVG


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    anchor: str = "start"  # start, middle or end: where x is along the text
    size: int = 12
    bold: bool = False
    fill: str = INK
    vertical: bool = False  # turned a quarter left, reading upwards, centred on (x, y)


Shape = Rect | Line | Text


def ladder_chart(data: Ladder) -> list[Shape]:
    """The shapes of a ladder's win rate per point of price chart (percentage points of win
    rate for each point the Mek costs), one bar per Mek."""
    meks = [m for m in data["meks"] if m["per_point"] is not None]
    values = [100 * (m["per_point"] or 0.0) for m in meks]  # each one kept has one
    top = _nice_ceiling(max(values, default=0.0))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(meks), 1)
    shapes: list[Shape] = [
        Rect(0, 0, WIDTH, HEIGHT, "#ffffff"),
        Text(WIDTH / 2, 24, "Win rate per point of price", "middle", size=14, bold=True)]
    for n, line in enumerate(fitted(chart_subtitle(data), size=11)):
        shapes.append(Text(WIDTH / 2, 42 + 14 * n, line, "middle", size=11, fill=FAINT))
    for i in range(5):
        y = TOP + plot_h - plot_h * i / 4
        shapes.append(Line(LEFT, y, WIDTH - RIGHT, y, GRID))
        shapes.append(Text(LEFT - 6, y + 4, f"{top * i / 4:.2f}", "end"))
    shapes.append(Text(16, TOP + plot_h / 2, "win rate % per point", "middle", vertical=True))
    for i, (mek, value) in enumerate(zip(meks, values, strict=True)):
        height = plot_h * value / top if top else 0.0
        y = TOP + plot_h - height
        shapes.append(Rect(LEFT + i * slot + slot * 0.15, y, slot * 0.7, height, BAR,
                           f"{mek['mek']}: {value:.3f}% per point"))
        centre = LEFT + i * slot + slot / 2
        shapes.append(Text(centre, y - 4, f"{value:.2f}", "middle"))
        shapes.append(Text(centre, TOP + plot_h + 18, mek["mek"], "middle"))
        shapes.append(Text(centre, TOP + plot_h + 34, f"{mek['price']} pts", "middle",
                           fill=FAINT))
    shapes.append(Line(LEFT, TOP + plot_h, WIDTH - RIGHT, TOP + plot_h, INK))
    return shapes


def chart_subtitle(data: Ladder) -> str:
    return (f"{', '.join(data['terrains'])}; {data['runs_per_pairing']:,} duels per pairing, "
            "draws count half")


def chart_title(data: Ladder) -> str:
    return f"Win rate per point of price ({chart_subtitle(data)})"


def fitted(text: str, size: int, lines: int = 2) -> list[str]:
    """``text`` in at most ``lines`` lines that fit the chart's width at font ``size``
    (characters counted at ``EM`` of the size, wide for any sans-serif font); a last line
    still too long ends in an ellipsis rather than running off the picture."""
    import textwrap

    room = int((WIDTH - 20) / (EM * size))
    wrapped = textwrap.wrap(text, room)
    if len(wrapped) > lines:
        wrapped = [*wrapped[:lines - 1], textwrap.shorten(" ".join(wrapped[lines - 1:]), room,
                                                         placeholder="…")]
    return wrapped


# ---- SVG --------------------------------------------------------------------------------------

def ladder_svg(data: Ladder) -> str:
    """The chart as SVG text."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(chart_title(data))}</title>"]
    out.extend(_svg_shape(shape) for shape in ladder_chart(data))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_shape(shape: Shape) -> str:
    if isinstance(shape, Rect):
        tip = f"<title>{escape(shape.tip)}</title>" if shape.tip else ""
        return (f'<rect x="{shape.x:.1f}" y="{shape.y:.1f}" width="{shape.width:.1f}" '
                f'height="{shape.height:.1f}" fill="{shape.fill}">{tip}</rect>')
    if isinstance(shape, Line):
        return (f'<line x1="{shape.x1:.1f}" y1="{shape.y1:.1f}" x2="{shape.x2:.1f}" '
                f'y2="{shape.y2:.1f}" stroke="{shape.stroke}"/>')
    attrs = [f'x="{shape.x:.1f}"', f'y="{shape.y:.1f}"', f'text-anchor="{shape.anchor}"']
    if shape.size != 12:
        attrs.append(f'font-size="{shape.size}"')
    if shape.bold:
        attrs.append('font-weight="bold"')
    if shape.fill != INK:
        attrs.append(f'fill="{shape.fill}"')
    if shape.vertical:
        attrs.append(f'transform="rotate(-90 {shape.x:.1f} {shape.y:.1f})"')
    return f"<text {' '.join(attrs)}>{escape(shape.text)}</text>"


# ---- PNG --------------------------------------------------------------------------------------

def ladder_png(data: Ladder) -> bytes:
    """The chart as a PNG image (``PNG_SCALE`` times the SVG's size)."""
    from PIL import Image, ImageDraw

    k = PNG_SCALE
    image = Image.new("RGB", (WIDTH * k, HEIGHT * k), "#ffffff")
    draw = ImageDraw.Draw(image)
    for shape in ladder_chart(data):
        if isinstance(shape, Rect):
            if shape.width > 0 and shape.height > 0:
                draw.rectangle((shape.x * k, shape.y * k, (shape.x + shape.width) * k - 1,
                                (shape.y + shape.height) * k - 1), fill=shape.fill)
        elif isinstance(shape, Line):
            draw.line((shape.x1 * k, shape.y1 * k, shape.x2 * k, shape.y2 * k),
                      fill=shape.stroke, width=k)
        elif shape.vertical:
            _png_vertical_text(image, shape, k)
        else:
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[shape.anchor]
            draw.text((shape.x * k, shape.y * k), shape.text, fill=shape.fill,
                      font=_font(shape.size * k), anchor=anchor,
                      stroke_width=1 if shape.bold else 0, stroke_fill=shape.fill)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _png_vertical_text(image: Any, shape: Text, k: int) -> None:
    """Text turned a quarter left, centred on its point: drawn level, then rotated."""
    from PIL import Image, ImageDraw

    font = _font(shape.size * k)
    left, top, right, bottom = font.getbbox(shape.text)
    level = Image.new("RGBA", (right - left, bottom - top), (255, 255, 255, 0))
    ImageDraw.Draw(level).text((-left, -top), shape.text, fill=shape.fill, font=font)
    turned = level.rotate(90, expand=True)
    image.paste(turned, (round(shape.x * k - turned.width / 2),
                         round(shape.y * k - turned.height / 2)), turned)


def _font(size: int) -> Any:
    """Pillow's own scalable font, so nothing depends on the fonts a machine has."""
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


# ---- files ------------------------------------------------------------------------------------

def ladder_picture(data: Ladder, suffix: str) -> str | bytes:
    """The chart in the format of a file ending ``suffix`` (one of ``FORMATS``): SVG text or
    PNG bytes."""
    return ladder_png(data) if suffix.lower() == ".png" else ladder_svg(data)


def _nice_ceiling(value: float) -> float:
    """A round number (1, 2, 2.5 or 5 times a power of ten) at or above ``value``."""
    if value <= 0:
        return 1.0
    candidates = sorted(base * 10.0 ** power for base in (1, 2, 2.5, 5)
                        for power in range(-4, 5))
    return next((c for c in candidates if c >= value), value)
