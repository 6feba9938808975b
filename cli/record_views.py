"""Rich views of a company's record: its battles (``battle list``) and its campaign step by
step (``campaign show``)."""

from __future__ import annotations

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from campaigns.files.report_records import BattleListing, CampaignStory, PilotProgress, RecordedStep
from campaigns.record import broke_words
from cli.store_views import counted_names

WRAPPED = ("Scenario", "Salvage", "Pilot", "1", "2", "3", "4", "5", "6", "7", "8", "9")
NONE = "—"  # a figure that is not known (a battle played on a real table, no odds given)
LONGEST_WORD = 12  # the widest a pilot's column is held for one word of its cells


def _text(value: object) -> Text:
    return Text(NONE if value is None or value == "" else str(value))


def _pct(share: object) -> str:
    return f"{share:.0%}" if isinstance(share, int | float) else NONE


def battle_list(data: BattleListing) -> RenderableType:
    battles = data["battles"]
    if not battles:
        return Text(f"{data['company']} has fought no battle yet.")
    table = _table(f"{data['company']}: battles",
                   (("Id", "right"), ("Date", "left"), ("Scenario", "left"),
                    ("Seat", "left"), ("Result", "left"), ("Turns", "right"),
                    ("Kills", "right"), ("Lost", "right"), ("Odds", "right")))
    for b in battles:
        table.add_row(*(_text(v) for v in (b["id"], str(b["date"])[:10], b["scenario"],
                                           b["seat"], b["result"], b["turns"], b["kills"],
                                           b["losses"])), Text(_pct(b["odds_before"])))
    return Group(table, Text(
        f"Kills and Lost count Meks destroyed (from the battle's log; {NONE} for a battle "
        "recorded by its result alone); odds: the chance of winning worked out before a "
        "campaign's battle. 'meks battle show ID' prints a battle's report."))


def _progress(p: PilotProgress) -> str:
    """A pilot's step: kills in the battle (and in the campaign so far), level after it,
    what happened to it, each apart by a comma (a skill's name has spaces of its own)."""
    bits = [f"+{p['kills']} ({p['total_kills']})"]
    if p.get("level"):
        bits.append(str(p["level"]))
    if p.get("promoted"):
        bits.append("promoted")
    if p.get("new_skill"):
        bits.append(str(p["new_skill"]))
    if p.get("dead"):
        bits.append("killed")
    elif p.get("mek_destroyed"):
        bits.append("Mek lost")
    return ", ".join(bits)


def _table(title: str, columns: tuple[tuple[str, str], ...]) -> Table:
    table = Table(title=Text(title), box=box.SIMPLE_HEAD, title_justify="left",
                  padding=(0, 1), pad_edge=False, collapse_padding=True)
    for name, justify in columns:  # names and salvage wrap, the short figures never do
        table.add_column(name, justify=justify,  # type: ignore[arg-type]
                         overflow="fold", no_wrap=name not in WRAPPED)
    return table


def campaign_show(data: CampaignStory) -> RenderableType:
    steps = data["steps"]
    table = _table(f"{data['company']}: {data['campaign']} ({data['difficulty']}, "
                   f"{data['status']}, {len(steps)} of {data['of']} played)",
                   (("#", "right"), ("Scenario", "left"), ("Battle", "right"),
                    ("Odds", "right"), ("Result", "left"), ("Kills", "right"),
                    ("Lost", "right"), ("Salvage", "left"), ("Treasury", "right")))
    for s in steps:
        odds = s["odds_before"]
        # the name, which wraps at its spaces in a narrow terminal (an id, where none is kept)
        table.add_row(_text(s["step"]), Text(f"{s['name'] or s['scenario']} ({s['side']})"),
                      _text(s["battle_id"]), Text(_pct(odds["win"]) if odds else NONE),
                      _text(s["result"]), _text(s["kills"]),
                      _text(s["losses"]),
                      Text(counted_names(s["salvage"]) if s["salvage"] else NONE),
                      _text(s["treasury"]))
    names: list[str] = []
    for s in steps:
        names += [p["pilot"] for p in s["pilots"] if p["pilot"] not in names]
    pilots = _table("Pilots: kills in the battle (in the campaign so far), level after it",
                    (("Pilot", "left"), *((str(s["step"]), "left") for s in steps)))
    def cell(step: RecordedStep, name: str) -> str:
        p = next((p for p in step["pilots"] if p["pilot"] == name), None)
        return _progress(p) if p else ""

    rows = [[cell(s, name) for s in steps] for name in names]
    for name, cells in zip(names, rows, strict=True):
        pilots.add_row(Text(name), *(Text(c) for c in cells))
    words = [min(max((len(w) for c in cells for w in c.split()), default=1), LONGEST_WORD)
             for cells in zip(*rows, strict=True)]
    record = data["record"]
    lines: list[RenderableType] = [table, Text(
        f"Record: {record['win']} won, {record['loss']} lost, {record['draw']} drawn. Odds: "
        "the company's chance of winning worked out before the battle.")]
    by_hand = [f"before step {s['step']} {s['by_hand']:+d}" for s in steps if "by_hand" in s]
    if by_hand:
        lines.append(Text("The treasury changed between steps, outside their getting ready "
                          "(Meks bought or sold by hand, parts sold, or a step undone and "
                          "fought again): " + ", ".join(by_hand) + "."))
    if data["status"] == "broke":
        lines.append(Text(broke_words(data)))
    if names:
        lines += [Text(""), _Whole(pilots, max(len("Pilot"), *map(len, names)), words)]
    return Group(*lines)


class _Whole:
    """A table whose columns after the first (``first`` wide) are held as wide as their
    longest word (``words``) where the console is wide enough for all of them, so that a
    skill's name ("Familiarity") is not cut in two; where it is not, the columns share the
    width as usual and a long word folds, rather than a column being dropped."""

    def __init__(self, table: Table, first: int, words: list[int]) -> None:
        self.table, self.first, self.words = table, first, words  # first: the names' width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # the names, each column's longest word, and one space between columns
        fits = self.first + sum(self.words) + len(self.words) <= options.max_width
        for column, width in zip(self.table.columns[1:], self.words, strict=True):
            column.min_width = width if fits else None
        yield self.table
