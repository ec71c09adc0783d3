"""The validated data model: frozen dataclasses built only from checked data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SHIP_TYPE_ORDER = ("battleship", "carrier", "cruiser", "destroyer", "torpedo-boat", "auxiliary")
AIRCRAFT_TYPE_ORDER = ("fighter", "dive-bomber", "torpedo-bomber", "patrol-bomber")
UNIT_TYPES = (*SHIP_TYPE_ORDER, "submarine", *AIRCRAFT_TYPE_ORDER)  # the order help and completion list them
AIRCRAFT_TYPES = frozenset(AIRCRAFT_TYPE_ORDER)
SHIP_TYPES = frozenset(SHIP_TYPE_ORDER)
ATTACK_KINDS = ("main", "secondary", "tertiary", "aircraft_gunnery", "anti_air", "asw", "torpedo", "bomb")
GUNNERY_KINDS = ("main", "secondary", "tertiary")

# Which attacks each kind of unit may print (checked by `wastools validate`).
ALLOWED_ATTACKS = {
    "ship": frozenset({"main", "secondary", "tertiary", "anti_air", "asw", "torpedo"}),
    "submarine": frozenset({"main", "torpedo", "anti_air"}),
    "aircraft": frozenset({"aircraft_gunnery", "anti_air", "asw", "torpedo", "bomb"}),
}


def category(unit_type: str) -> str:
    """'ship', 'submarine' or 'aircraft'."""
    if unit_type in AIRCRAFT_TYPES:
        return "aircraft"
    return "submarine" if unit_type == "submarine" else "ship"


# A unit card's own fields, in the order a unit file lists them (after its id).
CARD_FIELDS = (
    "name",
    "nation",
    "type",
    "set",
    "number",
    "rarity",
    "year",
    "points",
    "flagship",
    "speed",
    "carrier_capacity",
    "armor",
    "vital_armor",
    "hull",
)


@dataclass(frozen=True)
class Figure:
    """A historical figure with its source."""

    value: float
    unit: str
    source: str
    note: str | None = None


@dataclass(frozen=True)
class History:
    class_name: str | None = None
    top_speed: Figure | None = None
    length: Figure | None = None
    missing: tuple[tuple[str, str], ...] = ()

    @property
    def top_speed_kmh(self) -> float | None:
        if self.top_speed is None:
            return None
        factor = {"kn": 1.852, "mph": 1.609344}[self.top_speed.unit]
        return self.top_speed.value * factor

    @property
    def top_speed_mph(self) -> float | None:
        kmh = self.top_speed_kmh
        return None if kmh is None else kmh / 1.609344


@dataclass(frozen=True)
class Attack:
    kind: str
    bands: tuple[int | None, int | None, int | None, int | None]

    @property
    def reach(self) -> int:
        """Highest range band with dice (-1 if none)."""
        return max((i for i, dice in enumerate(self.bands) if dice), default=-1)


@dataclass(frozen=True)
class Ability:
    text: str  # as printed: 'Extended Range 5'
    pattern: str  # catalogue entry: 'Extended Range {n}'
    n: int | None = None


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    nation: str
    type: str
    set: str
    number: int
    rarity: str
    year: int
    points: int
    armor: int
    vital_armor: int
    hull: int
    speed: int | None = None
    flagship: int | None = None
    carrier_capacity: int | None = None
    attacks: tuple[Attack, ...] = ()
    abilities: tuple[Ability, ...] = ()
    history: History = field(default_factory=History)

    @property
    def category(self) -> str:
        return category(self.type)

    @property
    def is_aircraft(self) -> bool:
        return self.category == "aircraft"

    @property
    def ship_speed(self) -> int:
        """The card speed of a ship or submarine (the schema requires one; aircraft have none)."""
        if self.speed is None:
            raise ValueError(f"{self.id} has no card speed")
        return self.speed

    def attack(self, kind: str) -> Attack | None:
        return next((a for a in self.attacks if a.kind == kind), None)

    def ability(self, pattern: str) -> Ability | None:
        return next((a for a in self.abilities if a.pattern == pattern), None)

    def has_ability(self, pattern: str) -> bool:
        return self.ability(pattern) is not None


@dataclass(frozen=True)
class CardSet:
    id: str
    name: str
    year: int
    total: int


@dataclass(frozen=True)
class Nation:
    id: str
    name: str
    side: str


@dataclass(frozen=True)
class AbilityInfo:
    pattern: str
    summary: str | None = None


@dataclass(frozen=True)
class Repository:
    units: dict[str, Unit]
    sets: dict[str, CardSet]
    nations: dict[str, Nation]
    abilities: dict[str, AbilityInfo]
    # the valid scenarios by id (``data.scenarios.Scenario``, a layer above this one)
    scenarios: dict[str, Any] = field(default_factory=dict)
