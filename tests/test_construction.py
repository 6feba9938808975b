"""Construction rules (docs/rules.md section 1): mounts, small weapons, slots, one of each,
size limits and prices. Every design's problems are all reported, never just the first."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.files.designs import design_from_data
from meks.game.catalog import Catalog, Design, Mount, Size, load_catalog
from meks.game.construction import Pricing, Rule, check_design
from meks.game.errors import InputError

CATALOG = load_catalog()


def design(size: str, weapons: list[str] | None = None, systems: list[str] | None = None,
           name: str = "Test") -> Design:
    return Design(name=name, size=Size(size), weapons=tuple(weapons or ()),
                  systems=tuple(systems or ()))


def rules_broken(d: Design) -> list[Rule]:
    return [p.rule for p in check_design(d, CATALOG).problems]


# ---- R1.7: the stock Meks ---------------------------------------------------------------

@pytest.mark.parametrize("name", [d.name for d in CATALOG.designs])
def test_every_stock_mek_is_legal_R1_7(name: str) -> None:
    report = check_design(CATALOG.design(name), CATALOG)
    assert report.legal, report.problems


@pytest.mark.parametrize(
    ("name", "printed", "computed"),
    [("WASP", 9, 9), ("VIPER", 12, 12), ("DEMON", 15, 15), ("SABER", 14, 14),
     ("SAGITARII", 15, 15), ("DRAKEN", 24, 24), ("THOR", 28, 28), ("WARTHOG", 24, 24),
     ("ODIN", 27, 33)],
)
def test_stock_prices_printed_and_computed_R1_7(name: str, printed: int, computed: int) -> None:
    report = check_design(CATALOG.design(name), CATALOG)
    assert report.printed_price == printed
    assert report.price == computed


def test_odin_reactive_armor_costs_eight_minus_ar_R1_5() -> None:
    odin = check_design(CATALOG.design("ODIN"), CATALOG)
    reactive = next(p for p in odin.parts if p.name == "Reactive Armor")
    assert reactive.price == 8 - 2


def test_purchase_uses_printed_price_unless_house_rule_says_computed_R1_7() -> None:
    odin = check_design(CATALOG.design("ODIN"), CATALOG)
    assert odin.purchase_price() == 27
    assert odin.purchase_price(Pricing.COMPUTED) == 33
    custom = check_design(design("Titan", ["Laser"]), CATALOG)
    assert custom.purchase_price(Pricing.PRINTED) == custom.price == 12 + 2


# ---- R1.2 mounts --------------------------------------------------------------------------

def test_massive_weapon_cannot_use_a_huge_mount_R1_2() -> None:
    # A Titan has 2 Massive and 4 Huge mounts: a third Massive weapon has nowhere to go.
    assert rules_broken(design("Titan", ["Cannon", "Cannon", "Cannon"])) == [Rule.MOUNT_SIZE]


def test_huge_weapon_cannot_use_a_massive_mount_R1_2() -> None:
    assert rules_broken(design("Medium", ["Laser"])) == [Rule.MOUNT_SIZE]
    assert rules_broken(design("Heavy", ["Laser", "Missile"])) == [Rule.MOUNT_SIZE]
    assert rules_broken(design("Heavy", ["Laser", "Cannon", "Cannon"])) == []


# ---- R1.3 small weapons -------------------------------------------------------------------

def test_small_weapons_use_no_mount_R1_3() -> None:
    assert rules_broken(design("Light", ["Cannon", "CIWS", "Minigun"])) == []


def test_one_ciws_pair_per_massive_mount_R1_3() -> None:
    assert rules_broken(design("Light", ["CIWS", "CIWS"])) == [Rule.SMALL_WEAPONS]
    assert rules_broken(design("Medium", ["CIWS", "CIWS"])) == []


def test_one_other_small_weapon_per_massive_mount_R1_3() -> None:
    assert rules_broken(design("Light", ["Minigun", "Grenade Launcher"])) == [Rule.SMALL_WEAPONS]
    assert rules_broken(design("Titan", ["Minigun", "Grenade Launcher", "CIWS", "CIWS"])) == []


def test_ciws_entry_is_one_pair_priced_one_point_R1_3() -> None:
    report = check_design(design("Light", ["CIWS"]), CATALOG)
    assert report.price == 4 + 1
    assert report.ciws_pairs.used == 1


# ---- R1.4 slots and one of each ---------------------------------------------------------

def test_system_slots_are_half_hits_rounded_up_R1_4(catalog: Catalog) -> None:
    for chassis in catalog.chassis:
        assert chassis.slots == math.ceil(chassis.hits / 2)


@pytest.mark.parametrize("system", ["Phalanx", "Reactive Armor", "BPC Armor",
                                    "Space-Lam Armor"])
def test_two_slot_systems_R1_4(system: str) -> None:
    assert CATALOG.system(system).slots == 2
    assert Rule.SLOTS in rules_broken(design("Light", systems=[system]))


def test_too_many_systems_for_the_slots_R1_4() -> None:
    assert rules_broken(design("Medium", systems=["Phalanx", "Jammer"])) == [Rule.SLOTS]
    assert rules_broken(design("Assault", systems=["Phalanx", "Jammer"])) == []


def test_several_heat_sinks_allowed_R1_4() -> None:
    assert rules_broken(design("Assault", systems=["Heat Sink", "Heat Sink", "Heat Sink"])) == []


def test_one_of_each_armor_system_R1_4() -> None:
    broken = rules_broken(design("Titan", systems=["BPC Armor", "BPC Armor"]))
    assert Rule.ONE_OF_EACH in broken


def test_one_of_each_other_system_R1_4a() -> None:
    assert rules_broken(design("Assault", systems=["Jammer", "Jammer"])) == [Rule.ONE_OF_EACH]


def test_one_sensor_upgrade_R1_4a() -> None:
    broken = rules_broken(design("Medium", systems=["Improved Sensors", "Advanced Sensors"]))
    assert broken == [Rule.ONE_OF_EACH]


# ---- R1.5 prices --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("system", "size", "price"),
    [
        ("Servo Boosters", "Heavy", 4), ("Spaul Liner", "Medium", 3), ("Jump Jets", "Light", 2),
        ("Advanced Sensors", "Titan", 6), ("Improved Sensors", "Light", 1),
        ("Improved Sensors", "Medium", 2), ("Improved Sensors", "Assault", 3),
        ("Masking & Insulation", "Titan", 8), ("Masking & Insulation", "Light", 2),
        ("Reactive Armor", "Light", 3), ("BPC Armor", "Medium", 3),
        ("Space-Lam Armor", "Heavy", 3), ("Space-Lam Armor", "Light", 1),
        ("Phalanx", "Titan", 4), ("Data Link", "Light", 4),
    ],
)
def test_variable_system_prices_R1_5(system: str, size: str, price: int) -> None:
    assert CATALOG.system(system).price_for(CATALOG.for_size(Size(size))) == price


# ---- R1.6 size limits ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("system", "allowed"),
    [
        ("Director", ["Heavy", "Assault", "Titan"]),
        ("Servo Boosters", ["Light", "Medium", "Heavy"]),
        ("Space-Lam Armor", ["Light", "Medium", "Heavy"]),
        ("Jump Jets", ["Light", "Medium"]),
        ("Jammer", ["Light", "Medium", "Heavy", "Assault", "Titan"]),
    ],
)
def test_size_limits_R1_6(system: str, allowed: list[str]) -> None:
    assert [s.value for s in Size if CATALOG.system(system).allows(s)] == allowed


def test_director_on_a_medium_mek_is_refused_R1_6() -> None:
    assert rules_broken(design("Medium", systems=["Director"])) == [Rule.SIZE_LIMIT]


# ---- every problem, not the first -------------------------------------------------------

def test_every_problem_is_reported_R1_8() -> None:
    d = design("Light", ["Laser", "Cannon", "Cannon", "CIWS", "CIWS", "Minigun", "Minigun",
                         "Plasma"], ["Director", "Phalanx", "Jammer", "Jammer"])
    broken = rules_broken(d)
    assert set(broken) == {Rule.UNKNOWN_PART, Rule.MOUNT_SIZE, Rule.SMALL_WEAPONS, Rule.SLOTS,
                           Rule.ONE_OF_EACH, Rule.SIZE_LIMIT}
    assert broken.count(Rule.MOUNT_SIZE) == 2
    assert broken.count(Rule.SMALL_WEAPONS) == 2


def test_unknown_part_suggests_the_nearest_name_R1_0() -> None:
    report = check_design(design("Light", ["Canon"]), CATALOG)
    assert "did you mean 'Cannon'" in report.problems[0].message


def test_report_uses_canonical_names() -> None:
    report = check_design(design("Heavy", ["rail", "RAIL CANNON"], ["jammer"]), CATALOG)
    assert report.design.weapons == ("Rail Cannon", "Rail Cannon")
    assert report.design.systems == ("Jammer",)


# ---- design files ---------------------------------------------------------------------------

def test_design_from_data_reports_every_field_problem() -> None:
    with pytest.raises(InputError) as info:
        design_from_data({"size": "Huge", "weapons": 5, "armour": 1}, "x.yaml")
    problems = "\n".join(info.value.problems)
    assert "missing required key 'name'" in problems
    assert "Huge" in problems
    assert "expected a list" in problems
    assert "unknown key 'armour'" in problems


def test_custom_design_may_not_claim_a_printed_price_R1_7() -> None:
    with pytest.raises(InputError, match="price"):
        design_from_data({"name": "X", "size": "Light", "price": 1}, "x.yaml")


# ---- properties -------------------------------------------------------------------------

WEAPON_NAMES = [w.name for w in CATALOG.weapons]
SYSTEM_NAMES = [s.name for s in CATALOG.systems]

any_design = st.builds(
    lambda size, weapons, systems: design(size.value, weapons, systems),
    st.sampled_from(list(Size)),
    st.lists(st.sampled_from(WEAPON_NAMES), max_size=9),
    st.lists(st.sampled_from(SYSTEM_NAMES), max_size=5),
)


@st.composite
def legal_design(draw: st.DrawFn) -> Design:
    """A design built within the rules: mounts, small weapons, slots, one of each, sizes."""
    size = draw(st.sampled_from(list(Size)))
    chassis = CATALOG.for_size(size)
    weapons: list[str] = []
    for mount, free in ((Mount.MASSIVE, chassis.mounts.massive),
                        (Mount.HUGE, chassis.mounts.huge)):
        options = [w.name for w in CATALOG.weapons if w.mount is mount]
        weapons += draw(st.lists(st.sampled_from(options), max_size=free))
    weapons += ["CIWS"] * draw(st.integers(0, chassis.mounts.massive))
    others = ["Minigun", "Grenade Launcher"]
    weapons += draw(st.lists(st.sampled_from(others), max_size=chassis.mounts.massive))
    systems: list[str] = []
    free_slots = chassis.slots
    candidates = draw(st.permutations([s for s in CATALOG.systems if s.allows(size)]))
    for system in candidates:
        if system.slots > free_slots or not draw(st.booleans()):
            continue
        if system.category.value == "sensor" and any(
                CATALOG.system(s).category.value == "sensor" for s in systems):
            continue
        systems.append(system.name)
        free_slots -= system.slots
    while free_slots and draw(st.booleans()):
        systems.append("Heat Sink")
        free_slots -= 1
    return design(size.value, draw(st.permutations(weapons)), systems)


@given(legal_design())
@settings(max_examples=300)
def test_property_rules_accept_every_design_built_within_them(d: Design) -> None:
    assert check_design(d, CATALOG).legal


@given(any_design)
@settings(max_examples=400)
def test_property_accepted_designs_fit_and_price_is_sum_of_parts(d: Design) -> None:
    report = check_design(d, CATALOG)
    chassis = CATALOG.for_size(d.size)
    expected = (chassis.price + sum(CATALOG.weapon(w).price for w in d.weapons)
                + sum(CATALOG.system(s).price_for(chassis) for s in d.systems))
    assert report.price == expected
    if report.legal:
        weapons = [CATALOG.weapon(w) for w in d.weapons]
        assert sum(w.mount is Mount.MASSIVE for w in weapons) <= chassis.mounts.massive
        assert sum(w.mount is Mount.HUGE for w in weapons) <= chassis.mounts.huge
        assert sum(CATALOG.system(s).slots for s in d.systems) <= chassis.slots
        assert all(CATALOG.system(s).allows(d.size) for s in d.systems)
    else:
        assert all(isinstance(p.rule, Rule) and p.message for p in report.problems)


@given(st.one_of(legal_design(), any_design), st.data())
@settings(max_examples=300)
def test_property_removing_a_part_never_crashes_and_keeps_legal_designs_legal(
        d: Design, data: st.DataObject) -> None:
    parts = [("weapons", i) for i in range(len(d.weapons))] + [
        ("systems", i) for i in range(len(d.systems))]
    if not parts:
        return
    field, index = data.draw(st.sampled_from(parts))
    items = list(getattr(d, field))
    del items[index]
    smaller = Design(d.name, d.size, **{**{"weapons": d.weapons, "systems": d.systems},
                                       field: tuple(items)})
    before = check_design(d, CATALOG)
    after = check_design(smaller, CATALOG)
    assert all(isinstance(p.rule, Rule) for p in after.problems)
    if before.legal:
        assert after.legal
