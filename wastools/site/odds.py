"""The odds' data for the site: each variant's dice rule and every unit's attacks and defense.

``assets/odds-data.js`` sets ``window.wasOddsData``; ``assets/odds.js`` computes the chances
from it in the browser by the same convolution as ``wastools.content.odds`` (the browser
tests hold the two together). It is a script, not JSON, so pages opened from ``file://``
can load it. Every name in it is data: the page puts it in as text, never as markup.
"""

from __future__ import annotations

import json
from typing import Any

from ..content.card_view import ATTACK_LABELS, TYPE_LABELS
from ..content.odds import defense, torpedo_immune
from ..core.model import Repository, Unit
from ..variants.base import AdaptedAttack, Variant
from .data import SiteSpec, _reach, side_of


def target_class(unit: Unit) -> str:
    """What can fire at it: antiair at aircraft, ASW at submarines, the rest at ships."""
    return "aircraft" if unit.is_aircraft else "submarine" if unit.type == "submarine" else "ship"


class _Words:
    """Each distinct text once per variant (reaches and conditions repeat across units)."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str | None) -> int:
        if text is None:
            return -1
        if text not in self._index:
            self._index[text] = len(self.texts)
            self.texts.append(text)
        return self._index[text]


def _attack(attack: AdaptedAttack, words: _Words) -> list[Any]:
    """[kind, [[band, dice, reach, condition], ...]], texts as indexes into ``words``."""
    bands = [[b.band, b.dice, words(_reach(b.min, b.max, b.unit)), words(b.condition)] for b in attack.bands]
    return [attack.type, bands]


def _defense(variant: Variant, params: dict[str, Any], unit: Unit) -> list[Any]:
    """[armor, vital armor, hull, crippled armor, crippled vital armor, no torpedoes (0/1),
    vital armor by squadrons aboard, [[attack kind, dice fewer], ...]]; None where it does not apply."""
    whole = defense(variant, params, unit)
    hurt = defense(variant, params, unit, crippled=True) if whole.hull is not None and whole.hull >= 2 else None
    by_aboard = variant.adapt(unit, params).rules.get("vital_armor_by_squadrons_aboard")
    return [
        whole.armor,
        whole.vital,
        whole.hull,
        hurt.armor if hurt else None,
        hurt.vital if hurt else None,
        int(torpedo_immune(variant, params, unit)),
        list(by_aboard.value) if by_aboard is not None else None,
        [list(f) for f in whole.fewer] or None,
    ]


def _crippled_attacks(variant: Variant, params: dict[str, Any], unit: Unit, words: _Words) -> list[Any] | None:
    """A ship's attacks once crippled, where they differ from its whole ones (None where not)."""
    if unit.is_aircraft or unit.hull < 2:
        return None
    whole, hurt = (variant.adapt(unit, params, crippled=c).attacks for c in (False, True))
    if whole == hurt and not variant.dice.crippled_pips:
        return None
    return [_attack(a, words) for a in hurt if any(b.dice for b in a.bands)]


def odds_data(repo: Repository, spec: SiteSpec) -> dict[str, Any]:
    """Units as [id, name, type, type label, side, target class]; per variant its dice rule and,
    in the units' order, their attacks, defenses and attacks once crippled."""
    units = [
        [u.id, u.name, u.type, TYPE_LABELS.get(u.type, u.type), side_of(repo, u), target_class(u)] for u in spec.units
    ]
    variants = {}
    for variant, params in spec.variants:
        words = _Words()
        attacks = [
            [_attack(a, words) for a in variant.adapt(u, params).attacks if any(b.dice for b in a.bands)]
            for u in spec.units
        ]
        variants[variant.name] = {
            "title": variant.title,
            "dice": variant.dice.to_json(),
            "attacks": attacks,
            "defense": [_defense(variant, params, u) for u in spec.units],
            "crippled_attacks": [_crippled_attacks(variant, params, u, words) for u in spec.units],
            "words": words.texts,
        }
    return {"labels": ATTACK_LABELS, "units": units, "variants": variants}


def odds_script(repo: Repository, spec: SiteSpec) -> bytes:
    """``assets/odds-data.js``: ASCII-only JSON with every ``<`` escaped (``<`` is only ever
    inside a JSON string), so no name can end a script or open markup wherever it is read."""
    text = json.dumps(odds_data(repo, spec), ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.wasOddsData = {text};\n".encode("ascii")
