"""Balancing a campaign battle: the enemy's muster chosen so that the company's odds sit near
the difficulty's target, and the odds the company is shown before the battle.

The levers are the ones the rules leave to whoever musters a force: the budget (within a band
around the scenario's, ``SCALES``) and the level of the enemy's pilots. The Meks are the bot's
own muster for that budget at the campaign's difficulty. A company that even the band's
weakest enemy leaves far behind (``FLOOR_GAP`` under the target) is also judged against the
floor below the band (``floor_candidates``), whichever of the two ways below judges them.

Two ways to judge a candidate:

- **Estimated** (the built-in scenarios, the bot commanding): ``meks.analysis.estimate`` gives every
  candidate's odds from the two forces at once, with curves fitted to the bot's battles; the
  candidate nearest the target wins (on a tie, the one nearest the scenario's budget and the
  difficulty's pilots). The estimate alone misjudges many of the match-ups it picks, so
  trial battles of the chosen one are fought (``TRIALS``) and the odds shown weigh them with
  the estimate; nothing else is fought unless odds are asked for with ``runs``.
- **Fought** (any other scenario or controller): candidates at the difficulty's pilot level
  (one level either side only once the band is used up) are ordered from the weakest to the
  strongest; the search starts at the scenario's own budget and walks towards the target,
  fighting ``SEARCH_RUNS`` battles with each candidate (the same run seeds for each), and stops
  once it has crossed the target or run out of candidates. Its odds are then fought out to the
  full number of runs.

Everything is seeded from the campaign's seed, so the same campaign always musters the same
enemy. See docs/rules.md, "Balanced campaign battles", for the numbers and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from campaigns.errors import Refused
from campaigns.files.records import EstimatedOdds, OddsView, Share, TrialOdds, Tried
from campaigns.files.scenario_model import rules_digest
from campaigns.odds_work import controllers
from meks.analysis.estimate import Estimate, estimate, model_for
from meks.analysis.odds import Tally, simulate, sub_seed, wilson
from meks.engine.bot.choices import Difficulty
from meks.engine.bot.choices import muster as bot_muster
from meks.engine.units import ForceSpec, PilotSpec, UnitSpec
from meks.game.catalog import Catalog
from meks.game.dice import Dice
from meks.game.scenario import Scenario
from meks.game.support import SupportResult, roll_support
from meks.game.vocabulary import Side

ENEMY_LEVEL = {Difficulty.EASY: "Green", Difficulty.NORMAL: "Regular",
               Difficulty.HARD: "Veteran"}
"""The enemy pilots' level by difficulty, before balancing."""
LEVELS = ("Green", "Regular", "Veteran", "Elite")
TARGET = {Difficulty.EASY: 0.65, Difficulty.NORMAL: 0.50, Difficulty.HARD: 0.35}
"""The company's chance of winning that balancing aims at, by difficulty."""
SCALES = (0.70, 0.85, 1.00, 1.15, 1.30)
"""The enemy's budget, as shares of the scenario's budget, that balancing may choose."""
FLOOR_SCALES = (0.40, 0.55)
"""Budgets below the band (shares of the scenario's), weakest first, that balancing goes on
to only for a company the whole band leaves far behind (``FLOOR_GAP``)."""
FLOOR_GAP = 0.20
"""How far under the target the company's chance against every candidate of the band must
be for balancing to go on below it (``FLOOR_SCALES``)."""
ESTIMATED_CONTROLLER = "bot"
"""The controller whose battles the estimate's curves were fitted to."""
SEARCH_RUNS = 8
"""Battles fought with each candidate muster during the search."""
ODDS_RUNS = 24
"""Battles fought for the odds shown before a campaign battle when they cannot be estimated
(``--runs`` unset)."""


@dataclass(frozen=True)
class Trials:
    """Trial battles of the match-up balancing chose: how many, and how many battles' worth
    the estimate counts for beside them."""

    battles: int
    weight: float


TRIALS = Trials(20, 6.0)
"""The trial battles balancing fights of the match-up the estimate chose, in every scenario it
balances by the estimate, and how many battles' worth the estimate counts for beside them
(``CITADEL_TRIALS`` in the Citadel). The estimate alone missed the odds fought with the same
forces by 7 to 13 points on average in five scenarios and by 25 in the Citadel (40 normal
campaigns): among the match-ups balancing picks it can seldom tell a 35% battle from a 65%
one. Twenty trials with the estimate counted as six battles bring the expected miss to 6.5
to 7.7 points everywhere, whatever the estimate gets wrong, for the time of twenty battles
(about 1.4 s in the Citadel). See docs/rules.md, "Trial battles"."""
CITADEL_TRIALS = Trials(20, 1.5)
"""The Citadel's trials: there the forces all but decide most match-ups and the estimate
tells too few of them apart, so it counts for less beside them (the best weight there)."""


def trials_for(scenario: Scenario) -> Trials:
    """The trial battles balancing by the estimate fights of ``scenario``'s chosen match-up
    (the printed Citadel and the campaign's copy have their own weight)."""
    return CITADEL_TRIALS if scenario.id in ("citadel", "citadel-campaign") else TRIALS


ODDS_OFFSET = 1_000_000
"""The odds of step N are seeded with the campaign's seed for position ODDS_OFFSET + N, a
stream no battle of the campaign uses."""


def enemy_support(scenario: Scenario, side: Side, catalog: Catalog,
                  dice: Dice | None) -> list[SupportResult]:
    """The enemy side's support rolls (none without ``dice``), rolled before its muster so
    that a Rich Uncle's points add to the budget (R4.2)."""
    count = scenario.side(side).support_rolls
    return [roll_support(dice, catalog) for _ in range(count)] if dice is not None else []


def enemy_force(scenario: Scenario, side: Side, difficulty: Difficulty, catalog: Catalog,
                dice: Dice | None = None, *, rolls: list[SupportResult] | None = None,
                budget: int | None = None, level: str | None = None) -> ForceSpec:
    """The force the tool musters against the company (R3.3 limits, by difficulty), with
    the side's support rolls when ``dice`` are given (or the ``rolls`` already made),
    rolled before the muster so that a Rich Uncle's points add to the budget (R4.2).
    ``budget`` replaces the scenario's budget (balancing) and ``level`` the pilots' level
    the difficulty gives."""
    rules = scenario.side(side)
    level = level or ENEMY_LEVEL[difficulty]
    if rolls is None:
        rolls = enemy_support(scenario, side, catalog, dice)
    budget = (rules.budget if budget is None else budget) + sum(r.points for r in rolls)
    try:
        designs = bot_muster(budget, rules.max_size, rules.composition, catalog,
                             difficulty, scenario.house_rules.pricing)
    except ValueError:
        raise Refused(f"No enemy force fits {scenario.name}'s limits for the "
                      f"{side.value}.") from None
    units = []
    counts: dict[str, int] = {}
    for design in designs:
        counts[design.name] = counts.get(design.name, 0) + 1
        name = f"Enemy {design.name}-{counts[design.name]}"
        units.append(UnitSpec(name, design, PilotSpec(f"{name} pilot", level),
                              points=design.price or 0))
    support = tuple(r.entry.name for r in rolls)
    return ForceSpec(tuple(units), support, f"Enemy ({difficulty.value})")


@dataclass(frozen=True)
class Candidate:
    """One enemy muster balancing may choose: its budget and its pilots' level."""

    scale: float
    budget: int
    level: str


def candidates(scenario: Scenario, side: Side, difficulty: Difficulty) -> list[Candidate]:
    """The enemy musters balancing chooses from, the weakest first: every budget of the band
    at the difficulty's pilot level, then a level lower at the band's bottom and a level
    higher at its top."""
    budget = scenario.side(side).budget
    usual = LEVELS.index(ENEMY_LEVEL[difficulty])
    out = [Candidate(s, round(budget * s), LEVELS[usual]) for s in SCALES]
    if usual > 0:
        out.insert(0, Candidate(SCALES[0], round(budget * SCALES[0]), LEVELS[usual - 1]))
    if usual + 1 < len(LEVELS):
        out.append(Candidate(SCALES[-1], round(budget * SCALES[-1]), LEVELS[usual + 1]))
    return out


def floor_candidates(scenario: Scenario, side: Side, difficulty: Difficulty) -> list[Candidate]:
    """The enemy musters below the band, the weakest first: each budget of ``FLOOR_SCALES``
    with the pilots of the band's bottom (a level under the difficulty's, Green at the
    lowest). Balancing turns to them only when even the band's weakest enemy leaves the
    company more than ``FLOOR_GAP`` under the target: a company worn down to a Mek or two
    then meets an enemy it can fight, instead of one it can only run from."""
    budget = scenario.side(side).budget
    level = LEVELS[max(LEVELS.index(ENEMY_LEVEL[difficulty]) - 1, 0)]
    return [Candidate(s, round(budget * s), level) for s in FLOOR_SCALES]


def _floor_musters(scenario: Scenario, side: Side, difficulty: Difficulty, catalog: Catalog,
                   rolls: list[SupportResult], strongest_first: bool = False
                   ) -> Iterator[tuple[Candidate, ForceSpec]]:
    """Each candidate of the floor (``floor_candidates``, the weakest first unless
    ``strongest_first``) with the enemy's muster for it; a budget that buys no force is
    left out."""
    options = floor_candidates(scenario, side, difficulty)
    for option in reversed(options) if strongest_first else options:
        try:
            enemy = enemy_force(scenario, side, difficulty, catalog, rolls=rolls,
                                budget=option.budget, level=option.level)
        except Refused:
            continue
        yield option, enemy


@dataclass
class Balanced:
    """The enemy balancing chose, and the company's odds against it."""

    enemy: ForceSpec
    chosen: Candidate
    target: float
    side: Side
    tally: Tally
    seed: int
    controller: str
    scenario_budget: int
    tried: list[Tried] = field(default_factory=list)
    estimate: Estimate | None = None  # the chosen muster's estimated odds, when estimated
    trials: Tally | None = None  # the trial battles of the chosen muster (``TRIALS``)
    trial_weight: float = 0.0  # how many battles' worth the estimate counts for beside them

    def company(self, tally: Tally) -> tuple[int, int, int]:
        """The company's wins, draws and losses in ``tally``."""
        mine = tally.attacker if self.side is Side.ATTACKER else tally.defender
        theirs = tally.defender if self.side is Side.ATTACKER else tally.attacker
        return mine, tally.draws, theirs

    def view(self) -> OddsView:
        """The odds as the campaign's records and ``--json`` give them: fought (``runs``
        above 0, each share with its 95% interval) or else estimated (``estimated``)."""
        runs = self.tally.runs
        won, drawn, lost = self.company(self.tally)

        def share(count: int) -> Share:
            low, high = wilson(count, runs)
            return {"p": count / runs if runs else 0.0, "low": low, "high": high,
                    "count": count}

        est = self.estimate
        guess: EstimatedOdds | None = None if est is None else {  # to 4 places, as the rest
            "win": round(est.win(self.side), 4), "draw": round(est.draw, 4),
            "loss": round(est.loss(self.side), 4), "edge": round(est.edge, 4)}
        trials = self.trial_odds()
        if runs:
            win, draw, loss = share(won), share(drawn), share(lost)
        elif trials is not None:
            win, draw, loss = {"p": trials["win"]}, {"p": trials["draw"]}, {"p": trials["loss"]}
        else:
            assert guess is not None
            win, draw, loss = {"p": guess["win"]}, {"p": guess["draw"]}, {"p": guess["loss"]}
        view: OddsView = {
            "runs": runs, "seed": self.seed, "controller": self.controller,
            "estimated": guess, "win": win, "draw": draw, "loss": loss,
            "balance": {"target": self.target,
                        "scenario_budget": self.scenario_budget,
                        "budget": self.chosen.budget, "scale": self.chosen.scale,
                        "spent": sum(u.points for u in self.enemy.units),
                        "level": self.chosen.level,
                        "enemy": [u.design.name for u in self.enemy.units
                                  if u.design is not None],
                        "support": list(self.enemy.support),
                        "by": "estimate" if est is not None else "battles",
                        "search_runs": 0 if est is not None else min(SEARCH_RUNS, runs),
                        "tried": self.tried}}
        if trials is not None:
            view["trials"] = trials
        return view

    def trial_odds(self) -> TrialOdds | None:
        """The trial battles and the odds they give with the estimate (None without them):
        each outcome's share counts the estimate's chance of it as ``trial_weight`` battles
        beside the battles fought, so that a few trials move the estimate as far as they
        tell."""
        if self.trials is None or self.estimate is None:
            return None
        won, drawn, lost = self.company(self.trials)
        weight, battles = self.trial_weight, self.trials.runs
        est = self.estimate

        def mixed(chance: float, count: int) -> float:
            return round((weight * chance + count) / (weight + battles), 4)

        return {"battles": battles, "won": won, "drawn": drawn, "lost": lost,
                "weight": weight, "win": mixed(est.win(self.side), won),
                "draw": mixed(est.draw, drawn), "loss": mixed(est.loss(self.side), lost)}


def balance(scenario: Scenario, side: Side, force: ForceSpec, difficulty: Difficulty,
            catalog: Catalog, rolls: list[SupportResult], *, seed: int, runs: int | None,
            controller_name: str) -> Balanced:
    """Choose the enemy's muster against the company's ``force`` (fighting as ``side``) so
    that the company's chance of winning is near ``TARGET[difficulty]``, and give its odds:
    estimated when the scenario has curves for the controller and weighed with its trial
    battles (``trials_for``; ``runs``: that many battles fought as well), else fought ``runs`` times
    (``ODDS_RUNS`` when None). See the module's docstring."""
    if controller_name == ESTIMATED_CONTROLLER and \
            model_for(scenario, rules_digest(scenario)) is not None:
        return _estimated(scenario, side, force, difficulty, catalog, rolls, seed=seed,
                          runs=runs or 0, controller_name=controller_name)
    runs = max(1, ODDS_RUNS if runs is None else runs)
    search = min(SEARCH_RUNS, runs)
    target = TARGET[difficulty]
    enemy_side = side.enemy
    make = controllers(controller_name)
    options = candidates(scenario, enemy_side, difficulty)
    forces: dict[int, ForceSpec] = {}
    for i, option in enumerate(options):
        try:
            forces[i] = enemy_force(scenario, enemy_side, difficulty, catalog, rolls=rolls,
                                    budget=option.budget, level=option.level)
        except Refused:
            continue
    if not forces:
        raise Refused(f"No enemy force fits {scenario.name}'s limits for the "
                      f"{enemy_side.value}.")
    tallies: dict[int, Tally] = {}
    seen: dict[tuple[tuple[str, str], ...], int] = {}
    tried: list[Tried] = []

    def win_share(i: int) -> float:
        if i not in tallies:
            key = tuple((u.design.name if u.design else "", u.pilot.level if u.pilot else "")
                        for u in forces[i].units)
            if key in seen:  # the same Meks and pilots as a candidate already fought
                tallies[i] = tallies[seen[key]]
            else:
                seen[key] = i
                tallies[i] = simulate(scenario, {side: force, enemy_side: forces[i]}, seed,
                                      range(search), make, catalog)
            won = _won(tallies[i], side)
            tried.append({"budget": options[i].budget, "level": options[i].level,
                          "win": won / search, "runs": search})
        return _won(tallies[i], side) / search

    usual = next(i for i, o in enumerate(options)
                 if o.scale == 1.0 and o.level == ENEMY_LEVEL[difficulty])
    order = sorted(forces)
    start = min(order, key=lambda i: (abs(i - usual), i))
    at = order.index(start)
    p = win_share(start)
    step = 1 if p > target else -1  # the company too strong: a stronger enemy
    while 0 <= at + step < len(order) and (p > target if step > 0 else p < target):
        at += step
        p = win_share(order[at])
    if step < 0 and at == 0 and p < target - FLOOR_GAP:
        # Even the band's weakest enemy leaves the company far behind: on below the band,
        # the strongest of the floor first, until the target is crossed.
        for option, floor in _floor_musters(scenario, enemy_side, difficulty, catalog, rolls,
                                            strongest_first=True):
            forces[len(options)] = floor
            options.append(option)
            p = win_share(len(options) - 1)
            if p >= target:
                break
    best = min(tallies, key=lambda i: (abs(win_share(i) - target), abs(i - usual), i))
    tally = Tally()
    tally.add(tallies[best])
    if runs > search:
        tally.add(simulate(scenario, {side: force, enemy_side: forces[best]}, seed,
                           range(search, runs), make, catalog))
    return Balanced(forces[best], options[best], target, side, tally, seed, controller_name,
                    scenario.side(enemy_side).budget, tried)


def estimated_candidates(scenario: Scenario, side: Side,
                         difficulty: Difficulty) -> list[Candidate]:
    """What the estimate judges: the candidates balancing by battles walks through
    (``candidates``). Judging every budget at every pilot level let balancing pick the
    match-ups the curves misjudge most (in 8 normal campaigns the Citadel's enemy was Elite
    in 5, the estimate said 50% each time, and the company lost all 5)."""
    return candidates(scenario, side, difficulty)


def _estimated(scenario: Scenario, side: Side, force: ForceSpec, difficulty: Difficulty,
               catalog: Catalog, rolls: list[SupportResult], *, seed: int, runs: int,
               controller_name: str) -> Balanced:
    """Balancing by the estimate: the candidate whose estimated chance for the company is
    nearest the target (on a tie, the nearest the scenario's budget and the difficulty's
    pilot level); its odds fought ``runs`` times as well when ``runs`` is above 0, and its
    trial battles fought (``trials_for``, on seeds of their own)."""
    target = TARGET[difficulty]
    enemy_side = side.enemy
    usual = LEVELS.index(ENEMY_LEVEL[difficulty])
    rules = rules_digest(scenario)
    musters: dict[int, ForceSpec | None] = {}
    scenario_budget = scenario.side(enemy_side).budget
    for scale in SCALES:
        budget = round(scenario_budget * scale)
        try:
            musters[budget] = enemy_force(scenario, enemy_side, difficulty, catalog,
                                          rolls=rolls, budget=budget)
        except Refused:
            musters[budget] = None
    judged: list[tuple[tuple[float, float, int], Candidate, ForceSpec, Estimate]] = []
    tried: list[Tried] = []
    seen: set[tuple[int, str]] = set()

    def judge(option: Candidate, enemy: ForceSpec) -> None:
        odds = estimate(scenario, {side: force, enemy_side: enemy}, catalog, rules)
        assert odds is not None  # model_for(scenario) was checked by the caller
        win = odds.win(side)
        tried.append({"budget": option.budget, "level": option.level, "win": round(win, 4)})
        away = abs(option.scale - 1.0) / (SCALES[1] - SCALES[0]) + \
            abs(LEVELS.index(option.level) - usual)
        judged.append(((round(abs(win - target), 3), away, len(judged)), option, enemy, odds))

    for option in estimated_candidates(scenario, enemy_side, difficulty):
        if musters.get(option.budget) is None and option.level != LEVELS[usual]:
            # A level lower (higher) at the band's end whose budget buys no force (a fixed
            # composition): at the nearest budget inward that does.
            inward = SCALES if option.scale < 1 else tuple(reversed(SCALES))
            option = next((Candidate(s, round(scenario_budget * s), option.level)
                           for s in inward if musters.get(round(scenario_budget * s))),
                          option)
        base = musters.get(option.budget)
        if base is None or (option.budget, option.level) in seen:
            continue
        seen.add((option.budget, option.level))
        judge(option, _with_level(base, option.level))
    if judged and max(j[3].win(side) for j in judged) < target - FLOOR_GAP:
        # Even the band's weakest enemy leaves the company far behind: the floor as well.
        for option, enemy in _floor_musters(scenario, enemy_side, difficulty, catalog, rolls):
            if (option.budget, option.level) in seen:
                continue
            seen.add((option.budget, option.level))
            judge(option, enemy)
    if not judged:
        raise Refused(f"No enemy force fits {scenario.name}'s limits for the "
                      f"{enemy_side.value}.")
    _, chosen, enemy, odds = min(judged, key=lambda j: j[0])
    forces = {side: force, enemy_side: enemy}
    tally = Tally()
    if runs > 0:
        tally.add(simulate(scenario, forces, seed, range(runs), controllers(controller_name),
                           catalog))
    plan = trials_for(scenario)
    trials = None if plan.battles == 0 else simulate(
        scenario, forces, sub_seed(seed, "trials"), range(plan.battles),
        controllers(controller_name), catalog)
    return Balanced(enemy, chosen, target, side, tally, seed, controller_name,
                    scenario.side(enemy_side).budget, tried, odds, trials,
                    plan.weight)


def _with_level(force: ForceSpec, level: str) -> ForceSpec:
    """``force`` with every pilot at ``level``."""
    units = tuple(u if u.pilot is None else replace(u, pilot=replace(u.pilot, level=level))
                  for u in force.units)
    return replace(force, units=units)


def _won(tally: Tally, side: Side) -> int:
    return tally.attacker if side is Side.ATTACKER else tally.defender


__all__ = ["CITADEL_TRIALS", "ENEMY_LEVEL", "FLOOR_GAP", "FLOOR_SCALES", "ODDS_RUNS", "SCALES",
           "SEARCH_RUNS", "TARGET", "TRIALS", "Balanced", "Candidate", "Trials", "balance",
           "candidates", "enemy_force", "enemy_support", "estimated_candidates",
           "floor_candidates", "trials_for"]
