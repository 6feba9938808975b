"""Rich views of campaigns: the plan, each scenario's outcome and the final summary."""

from __future__ import annotations

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from campaigns.balance import SCALES
from campaigns.files.records import (
    BrokeStep,
    FoughtStep,
    MusterMenuView,
    OddsView,
    Share,
    StepOutcome,
)
from campaigns.files.view_records import CampaignView, CompanyCampaign
from campaigns.postbattle import WITHDRAWAL_WORDS, outcome_bits
from cli.store_views import counted_names
from meks.game.text import plural


def _row(table: Table, *cells: object) -> None:
    table.add_row(*(Text(str(c)) for c in cells))


def status(view: CompanyCampaign) -> RenderableType:
    table = Table(title=Text(f"{view['company']}: {view['name']} ({view['difficulty']}, "
                             f"{view['status']})"), box=box.SIMPLE_HEAD, title_justify="left")
    for column in ("#", "Scenario", "Side", "Result", "House rules"):
        table.add_column(column)
    results = view["results"]
    for i, step in enumerate(view["plan"]):
        outcome = results[i]["result"] if i < len(results) else (
            ("broke" if view["status"] == "broke" else "next")
            if i == view["position"] else "")
        _row(table, i + 1, step["scenario"], step["side"], outcome,
             ", ".join(view["in_force"][i]) or "as ruled")
    record = view["record"]
    lines: list[RenderableType] = [table, Text(
        f"Record: {record['win']} won, {record['loss']} lost, {record['draw']} drawn.")]
    lines += [Text(line) for line in treasury_lines(view)]
    return Group(*lines)


def treasury_lines(view: CampaignView) -> list[str]:
    """The treasury and, when the company went broke, where (house rule treasury)."""
    out = []
    if "treasury" in view:
        out.append(f"Treasury: {plural(view['treasury'], 'point')}.")
    if view["status"] == "broke":
        where = view.get("broke_at")
        out.append(f"Broke: the company could not field a legal force for "
                   f"{where['scenario'] if where else 'its next scenario'}; the campaign is "
                   "over.")
    return out


def played_summary(outcome: StepOutcome) -> RenderableType:
    """A campaign step whose battle was played at the terminal, as ``scenario_summary``
    shows one the tool fought; the odds were shown before the battle began."""
    step: FoughtStep = {**outcome, "controllers": {}, "difficulty": "", "odds": None}
    return scenario_summary(step)


def scenario_summary(result: FoughtStep | BrokeStep) -> RenderableType:
    if "controllers" not in result:  # a BrokeStep: its result is "broke"
        return Group(Text(f"{result['position'] + 1}/{result['of']} {result['name']} as the "
                          f"{result['side']}: BROKE - {result['reason']} The campaign is "
                          "over.", style="bold"))
    head = Text(f"{result['position']}/{result['of']} {result['name']} as the "
                f"{result['side']}: {result['result'].upper()} - {result['reason']} "
                f"({result['turns']} turn{'s' * (result['turns'] != 1)}, "
                f"battle {result['battle_id']})",
                style="bold")
    lines: list[RenderableType] = [head]
    if result.get("changes"):
        lines.append(Text("  Changed from the printed scenario: "
                          + "; ".join(result["changes"]) + "."))
    odds = result.get("odds")
    if odds:
        lines += [Text("  " + line) for line in odds_lines(odds)]
    if result["support"]:
        lines.append(Text("  Support: " + ", ".join(result["support"])))
    if result["bought"]:
        lines.append(Text("  Bought: " + ", ".join(result["bought"])))
    if result.get("salvage"):
        lines.append(Text("  Salvaged: " + counted_names(result["salvage"])))
    if result.get("withdrawal"):
        lines.append(Text("  Ended early: " + WITHDRAWAL_WORDS[result["withdrawal"]]))
    for repair in result.get("repairs", []):
        lines.append(Text("  Repaired " + repair))
    if "income" in result:
        held = f"{result['held']} at the start, " if "held" in result else ""
        spent = f"spent {result['spent']} getting ready, " if "spent" in result else ""
        lines.append(Text(f"  Treasury: {held}{spent}paid {result['income']} for the "
                          f"{result['result']}, {plural(result['treasury'], 'point')} now"))
    for p in result["pilots"]:
        bits = outcome_bits(p, all_kills=True)
        lines.append(Text(f"  {p['pilot']} ({p['mek']}): " + ", ".join(bits)))
    return Group(*lines)


def odds_lines(odds: OddsView, secret: bool = False) -> list[str]:
    """The company's odds before a battle and what balancing did, as lines of text.
    ``secret``: the player is to command the battle, so neither the enemy's Meks and
    support nor any figure worked out from them is told (R8.1: a side is told of the
    enemy's units only as the battle shows them); only how the enemy was chosen."""
    def pct(share: Share) -> str:
        return f"{share['p']:.0%} ({share['low']:.0%}-{share['high']:.0%})"

    bal = odds["balance"]
    if secret:
        # Every figure of the odds reads the enemy's Meks and support, which the side may
        # not know yet (its support can swing them by 30 points): none is shown until the
        # battle is over. The target is the difficulty's, the budget and pilots the side's
        # to know, as at a table.
        return [f"Enemy chosen for a {bal['target']:.0%} chance of winning by the tool, "
                f"which reads both forces: budget {bal['budget']} of the "
                f"scenario's {bal['scenario_budget']} ({bal['scale']:.0%}), {bal['level']} "
                "pilots; its Meks and support are for the battle to show.",
                "The odds count them too, so they are kept until the battle is over: 'meks "
                "campaign show' gives them then, beside the result."]
    enemy = ", ".join(bal["enemy"]) or "no Meks"
    lines = []
    if odds["runs"]:
        lines.append(f"Odds before the battle ({odds['runs']} battles, {odds['controller']}, "
                     f"95% intervals): win {pct(odds['win'])}, draw {pct(odds['draw'])}, "
                     f"loss {pct(odds['loss'])}.")
    guess = odds.get("estimated")
    if guess:
        lines.append(f"Estimated odds ({odds['controller']} on both sides, from the two "
                     f"forces): win {guess['win']:.0%}, draw {guess['draw']:.0%}, loss "
                     f"{guess['loss']:.0%}.")
    trials = odds.get("trials")
    if trials:
        lines.append(f"Trial battles of this match-up ({trials['battles']}, "
                     f"{odds['controller']} on both sides): won {trials['won']}, drawn "
                     f"{trials['drawn']}, lost {trials['lost']}; with the estimate counted "
                     f"as {trials['weight']:g} battles: win {trials['win']:.0%}, draw "
                     f"{trials['draw']:.0%}, loss {trials['loss']:.0%}.")
    chosen = (f"budget {bal['budget']} of the scenario's {bal['scenario_budget']} "
              f"({bal['scale']:.0%}), {bal['spent']} spent, {bal['level']} pilots: {enemy}")
    if bal.get("support"):  # a Rich Uncle's points add to the budget (R4.2)
        chosen += "; its support: " + ", ".join(bal["support"])
    if bal["scale"] < SCALES[0]:
        chosen += (f" (under the usual {SCALES[0]:.0%}, since even the weakest enemy there "
                   "left the company far behind)")
    if guess and abs(guess["win"] - bal["target"]) > 0.1:
        how = (f"Enemy chosen as near a {bal['target']:.0%} chance of winning as the budgets "
               f"and pilot levels allowed, {guess['win']:.0%} by the estimate: {chosen}.")
    elif guess:
        how = (f"Enemy chosen for a {bal['target']:.0%} chance of winning by the estimate "
               f"({guess['win']:.0%}): {chosen}.")
    else:  # judged by battles fought against each candidate (no estimate for this battle)
        mine = next((t for t in bal.get("tried", []) if t["budget"] == bal["budget"]
                     and t["level"] == bal["level"] and t.get("runs")), None)
        if mine is None:
            how = f"Enemy chosen for a {bal['target']:.0%} chance of winning: {chosen}."
        else:
            how = (f"Enemy chosen as near a {bal['target']:.0%} chance of winning as the "
                   f"budgets and pilot levels allowed, judged by {mine.get('runs')} battles "
                   f"against each (won {mine['win']:.0%} against this one): {chosen}.")
    return [*lines, how]


def campaign_summary(view: CampaignView) -> RenderableType:
    record = view["record"]
    kills: dict[str, int] = {}
    promotions: list[str] = []
    skills: list[str] = []
    lost: list[str] = []
    bought: list[str] = []
    salvaged: list[str] = []
    repairs: list[str] = []
    worn: dict[str, int] = {}
    withdrawals: list[str] = []
    for result in view["results"]:
        if result.get("withdrawal"):
            withdrawals.append(f"{result['name']}: {WITHDRAWAL_WORDS[result['withdrawal']]}")
        bought += result.get("bought", [])
        salvaged += result.get("salvage", [])
        repairs += result.get("repairs", [])
        for p in result.get("pilots", []):
            if p.get("repair_cost"):
                n = p["repair_cost"]
                repairs.append(f"{p['mek']}: Hits mended for {n} point{'s' * (n != 1)}")
            if p.get("heat_lost"):
                worn[p["mek"]] = p["heat_lost"]
        for p in result.get("pilots", []):
            kills[p["pilot"]] = kills.get(p["pilot"], 0) + p.get("kills", 0)
            if p.get("promoted"):
                promotions.append(f"{p['pilot']} {p['promoted']}")
            if p.get("new_skill"):
                skills.append(f"{p['pilot']}: {p['new_skill']}")
            if p.get("mek_destroyed"):
                lost.append(p["mek"])
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("Pilot")
    table.add_column("Kills", justify="right")
    for name, n in sorted(kills.items(), key=lambda kv: (-kv[1], kv[0])):
        _row(table, name, n)
    lines: list[RenderableType] = [
        Text(f"Campaign summary: {view['name']}", style="bold"),
        Text(f"Record: {record['win']} won, {record['loss']} lost, {record['draw']} drawn "
             f"({view['status']})."),
        *(Text(line) for line in treasury_lines(view)),
        table,
        Text("Promotions: " + (", ".join(promotions) or "none")),
        Text("Skills gained: " + (", ".join(skills) or "none")),
        Text("Meks lost: " + (", ".join(lost) or "none")),
        Text("Meks bought at its musters: " + (", ".join(bought) or "none")),
    ]
    # The lines of the campaign house rules (R3.6-R3.8, R6.13): shown when the plan switches
    # the rule on, or when something happened under it (a scenario of the plan may have).
    switched = {key: value for step in view.get("plan", [])
                for key, value in (step.get("house_rules") or {}).items()}
    wear_text = ", ".join(f"{mek} -{n} heat" for mek, n in sorted(worn.items()))
    for label, text, on in (
            ("Parts salvaged", counted_names(salvaged), switched.get("salvage", "none")
             != "none"),
            ("Repairs", "; ".join(repairs), switched.get("repair", "free") != "free"
             or bool(switched.get("spare_parts"))),
            ("Wear", wear_text, bool(switched.get("wear"))),
            ("Withdrawals and overruns", "; ".join(withdrawals),
             bool(switched.get("withdrawal")))):
        if text or on:
            lines.append(Text(f"{label}: {text or 'none'}"))
    return Group(*lines)



def muster_menu(menu: MusterMenuView) -> RenderableType:
    """What a campaign's muster chooses from: the company's Meks and the suggested force."""
    limits = [f"budget {menu['budget']} points"]
    if menu["treasury"] is not None:
        limits.append(f"treasury {plural(menu['treasury'], 'point')}")
    if menu["composition"]:
        limits.append("exactly " + ", ".join(f"{n} {size}" for size, n in
                                             menu["composition"].items()))
    elif menu["max_size"]:
        limits.append(f"largest size {menu['max_size']}")
    table = Table(title=Text(f"Muster for {menu['name']} as the {menu['side']}: "
                             + ", ".join(limits)), box=box.SIMPLE_HEAD, title_justify="left")
    for column in ("Mek", "Design", "Size", "Counts", "Pays now", "Suggested"):
        table.add_column(column)
    suggested = set(menu["suggestion"])
    lines = []
    for mek in menu["owned"]:
        _row(table, mek["callsign"], mek["design"], mek["size"], mek["price"], mek["owes"],
             "yes" if mek["callsign"] in suggested else "home")
        lines.append(Text(f"{mek['callsign']}: {mek['design']}, {mek['size']}, counts "
                          f"{mek['price']}, pays {mek['owes']} now, "
                          + ("suggested" if mek["callsign"] in suggested else "stays home")))
    owned = {m["callsign"] for m in menu["owned"]}
    buys = [name for name in menu["suggestion"] if name not in owned]
    pay = f", {menu['paid']} of it from the treasury" if menu["treasury"] is not None else ""
    return Group(_WholeCallsigns(table, Group(
        table.title or "", Text(""), Padding(Group(*lines), (0, 0, 0, 2)), Text(""))), Text(
        "Suggested: " + ", ".join(n if n in owned else f"buy {n}" for n in menu["suggestion"])
        + f" ({menu['cost']} points{pay})." + ("" if buys else " Nothing to buy.")))


class _WholeCallsigns:
    """The muster menu's table where it fits the console as it is; where it would have to
    shrink, a line for each Mek instead, its callsign first, so that no callsign is cut
    short (it is what the player types back)."""

    def __init__(self, table: Table, narrow: RenderableType) -> None:
        self.table, self.narrow = table, narrow

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = console.measure(self.table, options=options.update_width(10_000)).maximum
        yield self.table if wide <= options.max_width else self.narrow
