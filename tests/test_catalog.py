"""The catalog as data: complete, named as the rules print them, and checked when loaded."""

from __future__ import annotations

import copy
from importlib import resources

import pytest

from meks.game.catalog import Band, Catalog, Family, Mount, Size, catalog_from_data
from meks.game.errors import AmbiguousName, InputError, UnknownName
from meks.game.yamlio import parse_yaml

WEAPONS = [
    "Cannon", "Vulcan Cannon", "Rail Cannon", "Howitzer", "Laser", "Twin Laser",
    "Turbo Laser", "PPC", "Missile", "Swarm Missile", "Hammer Missile", "6-Pack Missile",
    "CIWS", "Grenade Launcher", "Minigun",
]
SYSTEMS = [
    "Targeting Array", "Data Link", "Jammer", "Director", "Point Defense", "Phalanx",
    "Servo Boosters", "Spaul Liner", "Jump Jets", "Reactive Armor", "BPC Armor",
    "Space-Lam Armor", "Improved Sensors", "Advanced Sensors", "Masking & Insulation",
    "Heat Sink",
]
SKILLS = [
    "Accuracy", "Guidance", "Steady Hand", "Agility", "Maneuver", "Tactics",
    "Chassis Familiarity", "Pinpoint Attack", "Gunnery", "Damage Control", "Ice Man", "Spoof",
    "Quick Draw", "Sharpshooter", "Hawkeye", "Log Hero",
]
DESIGNS = ["WASP", "VIPER", "DEMON", "SABER", "SAGITARII", "DRAKEN", "THOR", "WARTHOG", "ODIN"]


def raw_data() -> dict[str, object]:
    files = ["chassis", "weapons", "systems", "designs", "skills", "support", "pilots", "terrain"]
    base = resources.files("meks.game").joinpath("data")
    return {f: parse_yaml(base.joinpath(f"{f}.yaml").read_text("utf-8"), f) for f in files}


def test_catalog_holds_every_part_under_its_canonical_name(catalog: Catalog) -> None:
    assert [w.name for w in catalog.weapons] == WEAPONS
    assert [s.name for s in catalog.systems] == SYSTEMS
    assert [s.name for s in catalog.skills] == SKILLS
    assert [d.name for d in catalog.designs] == DESIGNS
    assert [c.size for c in catalog.chassis] == list(Size)
    assert [t.table for t in catalog.support] == ["1-2", "3-4", "5-6"]
    assert all(len(t.entries) == 6 for t in catalog.support)


@pytest.mark.parametrize(
    ("size", "hits", "armor", "heat", "move", "massive", "huge", "slots", "price"),
    [
        (Size.LIGHT, 2, 5, 2, "2d6+2", 1, 0, 1, 4),
        (Size.MEDIUM, 3, 4, 4, "2d6", 2, 0, 2, 6),
        (Size.HEAVY, 4, 3, 5, "1d6+2", 2, 1, 2, 8),
        (Size.ASSAULT, 5, 2, 6, "1d6", 2, 2, 3, 10),
        (Size.TITAN, 6, 2, 8, "1d6", 2, 4, 3, 12),
    ],
)
def test_chassis_table_R1_1(catalog: Catalog, size: Size, hits: int, armor: int, heat: int,
                            move: str, massive: int, huge: int, slots: int, price: int) -> None:
    c = catalog.for_size(size)
    assert (c.hits, c.armor, c.heat, str(c.move)) == (hits, armor, heat, move)
    assert (c.mounts.massive, c.mounts.huge) == (massive, huge)
    assert c.slots == slots  # R1.4: Hits / 2 rounded up
    assert c.price == price  # R1.1: 2 x Hits


@pytest.mark.parametrize(
    ("name", "family", "mount", "band", "to_hit", "heat", "price"),
    [
        ("Cannon", Family.CANNON, Mount.MASSIVE, Band.SHORT, 4, 1, 1),
        ("Vulcan Cannon", Family.CANNON, Mount.MASSIVE, Band.SHORT, 4, 2, 2),
        ("Rail Cannon", Family.CANNON, Mount.MASSIVE, Band.MEDIUM, 5, 1, 3),
        ("Howitzer", Family.CANNON, Mount.HUGE, Band.LONG, 4, 2, 4),
        ("Laser", Family.LASER, Mount.HUGE, Band.MEDIUM, 2, 2, 2),
        ("Twin Laser", Family.LASER, Mount.HUGE, Band.MEDIUM, 2, 2, 3),
        ("Turbo Laser", Family.LASER, Mount.HUGE, Band.LONG, 2, 3, 4),
        ("PPC", Family.LASER, Mount.HUGE, Band.LONG, 2, 4, 5),
        ("Missile", Family.MISSILE, Mount.HUGE, Band.LONG, 3, 3, 3),
        ("Swarm Missile", Family.MISSILE, Mount.HUGE, Band.MEDIUM, 3, 4, 4),
        ("Hammer Missile", Family.MISSILE, Mount.HUGE, Band.LONG, 3, 3, 4),
        ("6-Pack Missile", Family.MISSILE, Mount.MASSIVE, Band.SHORT, 3, 2, 3),
    ],
)
def test_weapon_table(catalog: Catalog, name: str, family: Family, mount: Mount, band: Band,
                      to_hit: int, heat: int, price: int) -> None:
    w = catalog.weapon(name)
    assert (w.family, w.mount, w.range, w.heat, w.price) == (family, mount, band, heat, price)
    assert w.to_hit_at(band) == to_hit


def test_rail_cannon_needs_4_at_short_and_5_at_medium_R6_7(catalog: Catalog) -> None:
    rail = catalog.weapon("Rail Cannon")
    assert rail.to_hit_at(Band.SHORT) == 4
    assert rail.to_hit_at(Band.MEDIUM) == 5
    assert rail.to_hit_at(Band.LONG) is None


def test_weapon_fires_at_its_band_and_shorter_R6_5(catalog: Catalog) -> None:
    turbo = catalog.weapon("Turbo Laser")
    assert [turbo.to_hit_at(b) for b in Band] == [2, 2, 2]
    cannon = catalog.weapon("Cannon")
    assert [cannon.to_hit_at(b) for b in Band] == [4, None, None]


def test_special_weapon_rules_are_data(catalog: Catalog) -> None:
    assert catalog.weapon("Vulcan").dice == 2 and catalog.weapon("Swarm").dice == 2
    assert catalog.weapon("Twin Laser").reroll_miss and catalog.weapon("6-Pack").reroll_miss
    assert catalog.weapon("Howitzer").ignores_terrain
    assert catalog.weapon("Grenade Launcher").ignores_terrain
    assert catalog.weapon("PPC").long_range_crit_reroll
    hammer = catalog.weapon("Hammer")
    assert (hammer.save_modifier, hammer.to_hit_vs_point_defense) == (-1, -2)


def test_small_weapons_roll_kills_against_infantry_R6_11(catalog: Catalog) -> None:
    kills = {w.name: w.kills for w in catalog.weapons if w.is_small}
    assert kills == {"CIWS": 1, "Grenade Launcher": 1, "Minigun": 2}
    assert catalog.weapon("CIWS").price_per == "pair"


def test_support_tables_entries(catalog: Catalog) -> None:
    names = [[e.name for e in t.entries] for t in catalog.support]
    assert names == [
        ["Ambush", "Battle Damage", "Surprise", "Support Fire", "Air Strike", "Minefield"],
        ["Hidden Mek", "Decoy", "Recon Drone", "Repair Truck", "Digging In", "Rich Uncle"],
        ["Gun Sled", "Panzer", "Mechanized Infantry", "Gunship", "Howitzer Battery",
         "Commandos"],
    ]
    sled = catalog.support_entry("Gun Sled").unit
    assert sled is not None
    assert (sled.hits, sled.armor, str(sled.move), sled.weapons) == (3, 3, "1d6+2",
                                                                     ("Rail Cannon",))
    panzer = catalog.support_entry("Panzer").unit
    assert panzer is not None and panzer.systems == ("Space-Lam Armor",)  # R4.4


def test_pilot_levels_R2_1(catalog: Catalog) -> None:
    levels = [(lv.level, lv.move, lv.to_hit, lv.skill_roll, lv.kills, lv.scenarios)
              for lv in catalog.levels]
    assert levels == [
        ("Green", -1, -1, 0, 0, 0),
        ("Regular", 0, 0, 0, 0, 1),
        ("Veteran", 1, 0, 1, 5, 3),
        ("Elite", 2, 1, 2, 10, 10),
    ]
    assert catalog.level("regular").hire_price == 5  # R2.2
    assert not catalog.level("green").can_learn


def test_terrain_modifiers(catalog: Catalog) -> None:
    table = {t.name: (t.move, t.to_hit, t.heat) for t in catalog.terrain}
    assert table == {
        "Plains": (0, 0, 0), "Desert": (0, 0, 0), "Woods": (-1, -1, 0),
        "Urban": (-2, -2, 0), "Highlands": (-2, -1, 0), "Moors": (-1, -1, 1),
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("rail", "Rail Cannon"), ("RAIL-CANNON", "Rail Cannon"), ("railcannon", "Rail Cannon"),
        ("vulcan", "Vulcan Cannon"), ("twin", "Twin Laser"), ("turbo", "Turbo Laser"),
        ("swarm", "Swarm Missile"), ("hammer", "Hammer Missile"), ("6 pack", "6-Pack Missile"),
        ("6-pack missiles", "6-Pack Missile"), ("grenade lchr", "Grenade Launcher"),
        ("cannon", "Cannon"), ("laser", "Laser"), ("missile", "Missile"), ("ppc", "PPC"),
        ("Howitzer-Cannon", "Howitzer"),
    ],
)
def test_weapon_lookup_ignores_case_spaces_hyphens_and_family_word(
        catalog: Catalog, query: str, expected: str) -> None:
    assert catalog.weapon(query).name == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("masking", "Masking & Insulation"), ("Masking and Insulation", "Masking & Insulation"),
        ("improved", "Improved Sensors"), ("Sensor, Advanced", "Advanced Sensors"),
        ("reactive", "Reactive Armor"), ("space lam", "Space-Lam Armor"), ("bpc", "BPC Armor"),
        ("heatsink", "Heat Sink"), ("jump-jets", "Jump Jets"), ("spaul", "Spaul Liner"),
    ],
)
def test_system_lookup(catalog: Catalog, query: str, expected: str) -> None:
    assert catalog.system(query).name == expected


def test_unknown_name_suggests_nearest(catalog: Catalog) -> None:
    with pytest.raises(UnknownName) as info:
        catalog.weapon("Lazer")
    assert "Laser" in info.value.suggestions
    assert "Did you mean" in info.value.message


def test_ambiguous_start_of_name_lists_the_candidates(catalog: Catalog) -> None:
    with pytest.raises(AmbiguousName) as info:
        catalog.system("sensor")
    assert set(info.value.matches) == {"Improved Sensors", "Advanced Sensors"}


def test_find_any_prefers_a_whole_name(catalog: Catalog) -> None:
    assert getattr(catalog.find_any("Howitzer"), "name", None) == "Howitzer"
    assert getattr(catalog.find_any("howitzer battery"), "name", None) == "Howitzer Battery"
    assert getattr(catalog.find_any("titan"), "size", None) is Size.TITAN
    with pytest.raises(UnknownName):
        catalog.find_any("zzzz")


def test_catalog_data_is_checked_at_load_with_every_problem() -> None:
    data = raw_data()
    broken = copy.deepcopy(data)
    weapons = broken["weapons"]
    assert isinstance(weapons, list)
    weapons[0]["heat"] = "hot"
    weapons[1]["colour"] = "red"
    del weapons[2]["price"]
    weapons[3]["mount"] = "enormous"
    with pytest.raises(InputError) as info:
        catalog_from_data(broken)
    problems = info.value.problems
    assert any("[0].heat" in p and "whole number" in p for p in problems)
    assert any("unknown key 'colour'" in p for p in problems)
    assert any("missing required key 'price'" in p for p in problems)
    assert any("enormous" in p for p in problems)


def test_catalog_cross_checks_stock_parts() -> None:
    data = raw_data()
    designs = data["designs"]
    assert isinstance(designs, list)
    designs[0]["weapons"] = ["Plasma Torch"]
    with pytest.raises(InputError, match="Plasma Torch"):
        catalog_from_data(data)


def test_catalog_data_as_shipped_builds() -> None:
    assert catalog_from_data(raw_data()).designs
