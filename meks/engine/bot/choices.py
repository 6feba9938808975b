"""The bot's choices between games: which stock Meks to field, and a pilot's next skill.

``muster`` picks stock designs for a scenario's budget, size limit and composition at a
``Difficulty``; ``design_profile`` and ``force_strength`` are the yardsticks it shops with.
``choose_skill`` picks a pilot's next skill by the Mek the pilot drives.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from meks.engine.bot.evaluation import BAND_WEIGHT
from meks.engine.decisions import BANDS
from meks.engine.units import vehicle_stats
from meks.game.catalog import Band, Catalog, Design, Family, Size, Weapon, load_catalog
from meks.game.construction import Pricing, check_design
from meks.game.pilots import FAMILIARITY, auto_skill, available_skills
from meks.game.rules import ONE_FLOAT, at_least, skill_of
from meks.game.shots import Overheat, armor_save, heat_rating, to_hit


class Difficulty(Enum):
    """How hard the bot's musters are. The value is the word players type (in any case)
    and campaigns store: ``Difficulty("hard")``, ``Difficulty.HARD.value == "hard"``."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


DIFFICULTIES = tuple(level.value for level in Difficulty)  # the words, easiest first


@dataclass(frozen=True)
class _Target:
    """A stock design as the target of a shot: its armor and its systems' names."""

    armor: int
    systems: frozenset[str]

    def has(self, name: str) -> bool:
        return name in self.systems


@dataclass(frozen=True)
class _Reference:
    """What a design is measured against: the catalog's stock designs as targets, and
    their weapons' firings (weapon, band, weight: its dice times the band's weight) as the
    shots it takes."""

    targets: tuple[_Target, ...]
    shots: tuple[tuple[Weapon, Band, float], ...]


_REFERENCES: dict[int, tuple[Catalog, _Reference]] = {}


def _reference(catalog: Catalog) -> _Reference:
    known = _REFERENCES.get(id(catalog))
    if known is not None and known[0] is catalog:
        return known[1]
    targets = []
    shots = []
    for d in catalog.designs:
        targets.append(_Target(catalog.for_size(d.size).armor,
                               frozenset(catalog.system(s).name for s in d.systems)))
        for name in d.weapons:
            w = catalog.weapon(name)
            if w.is_small:
                continue
            shots += [(w, band, w.dice * BAND_WEIGHT[band]) for band in BANDS
                      if w.to_hit_at(band) is not None]
    reference = _Reference(tuple(targets), tuple(shots))
    _REFERENCES[id(catalog)] = (catalog, reference)
    return reference


def _damaging(weapon: Weapon, band: Band, target: _Target, *, targeting_array: bool = False,
              level: int = 0, terrain: int = 0) -> float:
    """The chance that one die of a firing of ``weapon`` at ``band`` hits ``target`` and
    gets through its armor (R6.6, R6.8): Jammer, Point Defense, Phalanx and the armor
    systems as the rules core counts them; ``terrain`` is the to-hit modifier of the zone
    the target stands in."""
    need = weapon.to_hit_at(band)
    assert need is not None
    roll = to_hit(weapon, need, band, targeting_array=targeting_array, level=level,
                  terrain=terrain, terrain_name="terrain",
                  jammer=target.has("Jammer"), point_defense=target.has("Point Defense"),
                  phalanx=target.has("Phalanx"))
    return roll.chance() * armor_save(target.armor, weapon, target.has).chance()


def design_profile(design: Design, catalog: Catalog, level: int = 0, *, aim: int = 0,
                   cover: int = 0) -> tuple[float, float]:
    """A design's offence and toughness, as the rules core counts its shots and saves.

    Offence: the damaging hits a turn it can expect against the catalog's stock designs
    (the mean over them, each with its armor and defensive systems), over the range bands,
    within its heat rating. Toughness: its Hits over the chance that a shot of the stock
    designs' weapons gets through to it (its armor, Jammer, Point Defense, Phalanx and
    armor systems counted), so a design twice as hard to damage counts as twice the Hits.
    ``level`` is the pilot level's to-hit modifier (R6.6), 0 for a Regular; ``aim`` is the
    terrain's to-hit modifier on its shots and ``cover`` that on the shots it takes (both 0
    on open ground; they differ where a side doubles the terrain against its own, R6.3).
    The weights on Spaul Liner (criticals), Director and Jump Jets are the bot's judgement,
    not rules."""
    chassis = catalog.for_size(design.size)
    systems = [catalog.system(s).name for s in design.systems]
    return _profile(chassis.hits, chassis.armor, [catalog.weapon(w) for w in design.weapons],
                    systems, heat_rating(chassis.heat, systems.count("Heat Sink")), catalog,
                    level, aim, cover)


def support_profile(name: str, catalog: Catalog, *, aim: int = 0,
                    cover: int = 0) -> tuple[float, float] | None:
    """A support unit's offence and toughness as ``design_profile`` counts a Mek's (its
    crew Regular; a vehicle never overheats, R4.4; ``aim`` and ``cover`` as there), or
    None for a support result that brings no vehicle (an asset, or Commandos)."""
    stats = vehicle_stats(catalog.support_entry(name))
    if stats is None:
        return None
    return _profile(stats.hits, stats.armor, [catalog.weapon(w) for w in stats.weapons],
                    [catalog.system(s).name for s in stats.systems], None, catalog, 0, aim,
                    cover)


def _profile(hits: int, armor: int, weapons: list[Weapon], systems: list[str],
             rating: int | None, catalog: Catalog, level: int, aim: int,
             cover: int) -> tuple[float, float]:
    """Offence and toughness (``design_profile``) of a unit of ``hits`` and ``armor`` with
    ``weapons`` and ``systems`` (names), within heat ``rating`` (None: no heat)."""
    reference = _reference(catalog)
    targets = reference.targets
    array = "Targeting Array" in systems
    offence = 0.0
    for band in BANDS:
        evs = []
        for w in weapons:
            if w.is_small or w.to_hit_at(band) is None:
                continue
            p = sum(_damaging(w, band, t, targeting_array=array, level=level,
                              terrain=aim)
                    for t in targets) / len(targets)
            evs.append((w.heat, w.dice * p))
        evs.sort(key=lambda he: -he[1] / max(he[0], 0.5))
        heat = 0
        total = 0.0
        for h, ev in evs:
            if rating is None or heat + h <= rating:
                heat += h
                total += ev
            else:
                p_ok: float = Overheat(heat + h - rating, 0).kept(ONE_FLOAT)
                if p_ok > 0.6:
                    heat += h
                    total += ev * p_ok - (1 - p_ok) * 0.3
        offence += BAND_WEIGHT[band] * total
    small = sum(1 for w in weapons if w.is_small)
    offence += 0.05 * small
    me = _Target(armor, frozenset(systems))
    weight = sum(wt for _, _, wt in reference.shots)
    through = sum(wt * _damaging(w, band, me, terrain=cover)
                  for w, band, wt in reference.shots) / weight
    tough = hits / max(through, 1 / 72)
    if "Spaul Liner" in systems:
        tough *= 1.1
    if "Director" in systems:
        offence *= 1.05
    if "Jump Jets" in systems:
        offence *= 1.05
    return offence, tough


def force_strength(designs: Sequence[Design], catalog: Catalog,
                   profiles: dict[str, tuple[float, float]] | None = None) -> float:
    """A force's strength: its total offence times its total toughness (the square law)."""
    profiles = profiles if profiles is not None else {}
    offence = toughness = 0.0
    for d in designs:
        prof = profiles.get(d.name) or design_profile(d, catalog)
        offence += prof[0]
        toughness += prof[1]
    return offence * toughness


def _price(design: Design, catalog: Catalog, pricing: Pricing) -> int:
    return check_design(design, catalog).purchase_price(pricing)


def muster(budget: int, max_size: Size | None, composition: dict[Size, int] | None,
           catalog: Catalog | None = None, difficulty: Difficulty = Difficulty.NORMAL,
           pricing: Pricing = Pricing.PRINTED) -> list[Design]:
    """Stock designs for a force within ``budget``, ``max_size`` and ``composition``.

    ``hard`` finds the strongest force the budget buys (offence times toughness, summed
    over the force); ``normal`` shops for value, taking the design with the most strength
    per point while it fits; ``easy`` spends about 70% of the budget on the weaker half of
    the designs. Raises ``ValueError`` when no force fits.
    """
    if not isinstance(difficulty, Difficulty):  # a word would silently muster as hard
        raise TypeError(f"muster takes a Difficulty, not {difficulty!r}")
    catalog = catalog or load_catalog()
    pool = [d for d in catalog.designs if max_size is None or d.size <= max_size]
    if composition:
        pool = [d for d in pool if d.size in composition]
    prices = {d.name: _price(d, catalog, pricing) for d in pool}
    pool = [d for d in pool if prices[d.name] <= budget]
    if not pool:
        raise ValueError("no stock design fits the budget and size limit")
    profiles = {d.name: design_profile(d, catalog) for d in pool}

    def per_point(d: Design) -> float:
        strength: float = force_strength([d], catalog, profiles) ** 0.5
        return strength / prices[d.name]

    if difficulty is Difficulty.NORMAL:
        # A value pick keeps to the limits, so the forces need listing only when there is
        # none (listing every force of a big budget is most of a muster's time).
        value = _value_pick(pool, prices, budget, composition, per_point)
        if value is not None:
            return list(value)
    if difficulty is not Difficulty.EASY and not composition:
        # the strongest force, found without listing them all (``_strongest``)
        return list(_strongest(pool, prices, budget, profiles))
    limit = budget
    if difficulty is Difficulty.EASY:
        ranked = sorted(pool, key=lambda d: (per_point(d), d.name))
        weak = ranked[:max(1, (len(ranked) + 1) // 2)]
        if composition:
            sizes_needed = set(composition)
            for size in sizes_needed:
                if not any(d.size is size for d in weak):
                    weak += [d for d in ranked if d.size is size][:1]
        pool = weak
        limit = max(min(prices[d.name] for d in pool), int(budget * 0.7 + 0.5))
    forces = _forces(pool, prices, limit, composition)
    if not forces and difficulty is Difficulty.EASY:
        forces = _forces(pool, prices, budget, composition)
    if not forces and difficulty is Difficulty.EASY:
        pool = [d for d in catalog.designs if d.name in prices]
        forces = _forces(pool, prices, budget, composition)
    if not forces:
        raise ValueError("no force of stock designs fits the budget and the scenario's limits")

    def spent(f: Sequence[Design]) -> int:
        return sum(prices[d.name] for d in f)

    if difficulty is Difficulty.EASY:
        target = budget * 0.7

        def easy_key(f: Sequence[Design]) -> tuple[float, float, list[str]]:
            return (-abs(spent(f) - target), force_strength(f, catalog, profiles),
                    [d.name for d in f])
        picked: tuple[Design, ...] = max(forces, key=easy_key)
        return list(picked)
    # hard, or normal where no value pick fits: the strongest force of the composition
    best = max(forces, key=lambda f: (force_strength(f, catalog, profiles), -spent(f),
                                      [d.name for d in f]))
    return list(best)


def forces_within(budget: int, max_size: Size | None, composition: dict[Size, int] | None,
                  catalog: Catalog, pricing: Pricing = Pricing.PRINTED,
                  spend: float = 0.0) -> list[tuple[Design, ...]]:
    """Every force of stock designs within ``budget``, ``max_size`` and ``composition`` that
    spends at least ``spend`` of the budget (a share), cheapest designs first."""
    pool = [d for d in catalog.designs if (max_size is None or d.size <= max_size)
            and (not composition or d.size in composition)]
    prices = {d.name: _price(d, catalog, pricing) for d in pool}
    pool = [d for d in pool if prices[d.name] <= budget]
    if not pool:
        return []
    return [f for f in _forces(pool, prices, budget, composition)
            if sum(prices[d.name] for d in f) >= spend * budget]


def _forces(pool: Sequence[Design], prices: dict[str, int], budget: int,
            composition: dict[Size, int] | None) -> list[tuple[Design, ...]]:
    """Every multiset of designs from ``pool`` within ``budget`` (and of exactly the
    composition, when one is given)."""
    pool = sorted(pool, key=lambda d: (prices[d.name], d.name))
    out: list[tuple[Design, ...]] = []
    if composition:
        per_size = []
        for size, count in sorted(composition.items(), key=lambda sc: sc[0].rank):
            options = [d for d in pool if d.size is size]
            per_size.append(list(itertools.combinations_with_replacement(options, count)))
        for parts in itertools.product(*per_size):
            force = tuple(d for part in parts for d in part)
            if sum(prices[d.name] for d in force) <= budget:
                out.append(force)
        return out
    def keep(chosen: list[Design], left: int, offence: float, toughness: float) -> None:
        out.append(tuple(chosen))

    _walk(pool, prices, budget, keep)
    return out


Visit = Callable[[list[Design], int, float, float], None]


def _walk(pool: Sequence[Design], prices: dict[str, int], budget: int, visit: Visit,
          profiles: dict[str, tuple[float, float]] | None = None) -> None:
    """Call ``visit`` for every multiset of designs from ``pool`` (sorted cheapest first)
    within ``budget`` and of at most 8 Meks, in the same order each time: with the designs
    as chosen, the budget left, and their offence and toughness (``profiles``; 0 without)
    added up in the order the designs were chosen, as ``force_strength`` adds them."""
    most = min(8, budget // max(min(prices[d.name] for d in pool), 1))
    chosen: list[Design] = []

    def grow(start: int, left: int, offence: float, toughness: float) -> None:
        if chosen:
            visit(chosen, left, offence, toughness)
        if len(chosen) >= most:
            return
        for i in range(start, len(pool)):
            design = pool[i]
            price = prices[design.name]
            if price > left:
                break
            gives, takes = profiles[design.name] if profiles is not None else (0.0, 0.0)
            chosen.append(design)
            grow(i, left - price, offence + gives, toughness + takes)
            chosen.pop()

    grow(0, budget, 0.0, 0.0)


def _strongest(pool: Sequence[Design], prices: dict[str, int], budget: int,
               profiles: dict[str, tuple[float, float]]) -> tuple[Design, ...]:
    """The force of designs from ``pool`` within ``budget`` (no composition) that is the
    strongest (``force_strength``), then the cheapest, then the last by its designs' names:
    what ``max`` picks from every force ``_forces`` lists, found in the same walk without
    keeping them. Each force's offence and toughness are added up in the order its designs
    are chosen, as ``force_strength`` adds them, so the figures compared are the same to
    the last bit. ``pool`` holds at least one design within the budget."""
    pool = sorted(pool, key=lambda d: (prices[d.name], d.name))
    best: tuple[Design, ...] = ()
    best_key = (-math.inf, 0)

    def visit(chosen: list[Design], left: int, offence: float, toughness: float) -> None:
        nonlocal best, best_key
        key = (offence * toughness, left - budget)  # the strength, less what it spends
        if key > best_key or (key == best_key and [d.name for d in chosen]
                              > [d.name for d in best]):
            best, best_key = tuple(chosen), key

    _walk(pool, prices, budget, visit, profiles)
    return best


def _value_pick(pool: Sequence[Design], prices: dict[str, int], budget: int,
                composition: dict[Size, int] | None,
                score: Callable[[Design], float]) -> tuple[Design, ...] | None:
    """Shop for value: again and again, the design with the most strength per point that
    still fits (leaving room for what the composition still needs)."""
    ranked = sorted(pool, key=lambda d: (-score(d), prices[d.name], d.name))
    chosen: list[Design] = []
    left = budget
    if composition:
        need = dict(composition)
        while any(need.values()):
            cheapest_rest = {s: min(prices[d.name] for d in pool if d.size is s)
                             for s, n in need.items() if n}
            pick = None
            for d in ranked:
                if not need.get(d.size):
                    continue
                reserve = sum(cheapest_rest[s] * (n - (1 if s is d.size else 0))
                              for s, n in need.items() if n)
                if prices[d.name] + reserve <= left:
                    pick = d
                    break
            if pick is None:
                return None
            chosen.append(pick)
            left -= prices[pick.name]
            need[pick.size] -= 1
        return tuple(chosen)
    while True:
        pick = next((d for d in ranked if prices[d.name] <= left), None)
        if pick is None or len(chosen) >= 8:
            break
        chosen.append(pick)
        left -= prices[pick.name]
    return tuple(chosen) if chosen else None


def choose_skill(held: Sequence[str], design: Design | None,
                 catalog: Catalog | None = None) -> str:
    """The next skill for a pilot, by the Mek it drives: Chassis Familiarity for a Mek
    whose weapons run hotter than its rating (the extra heat and movement), Maneuver for a
    short-ranged Mek that must win the range, the to-hit skill of its main weapon family
    where a +1 matters (not for 2+ lasers), Pinpoint Attack for heavy hitters, Quick Draw
    with a Director, Ice Man with Jump Jets; then the documented priority of
    ``meks.game.pilots.auto_skill``."""
    catalog = catalog or load_catalog()
    options = available_skills(held, catalog)
    if not options:
        raise ValueError("the pilot already holds every skill")
    if design is None:
        return auto_skill(held, design, catalog)
    chassis = catalog.for_size(design.size)
    weapons = [catalog.weapon(w) for w in design.weapons]
    systems = [catalog.system(s).name for s in design.systems]
    ranged = [w for w in weapons if not w.is_small]
    rating = heat_rating(chassis.heat, systems.count("Heat Sink"))
    hot = sum(w.heat for w in ranged) > rating
    short = bool(ranged) and all(w.range is Band.SHORT for w in ranged)
    families: dict[Family, float] = {}
    for w in ranged:
        need = w.to_hit_at(w.range) or 4
        gain = (at_least(need - 1, ONE_FLOAT) - at_least(need, ONE_FLOAT)) * w.dice
        families[w.family] = families.get(w.family, 0.0) + gain
    main = max(families.items(), key=lambda fv: (fv[1], fv[0].value))[0] if families else None
    main_skill = skill_of(main) if main is not None else None
    priority: list[str] = []
    if hot:
        priority.append(FAMILIARITY)
    if short or design.size in (Size.LIGHT, Size.MEDIUM):
        priority.append("Maneuver")
    if main is not None and main_skill is not None and families[main] >= 0.3:
        priority.append(main_skill)
    if "Jump Jets" in systems:
        priority.append("Ice Man")
    if "Director" in systems:
        priority.append("Quick Draw")
    priority += ["Pinpoint Attack", "Damage Control"]
    if main_skill is not None:
        priority.append(main_skill)
    priority += ["Maneuver", FAMILIARITY]
    for skill in priority:
        if skill in options:
            return skill
    return auto_skill(held, design, catalog)
