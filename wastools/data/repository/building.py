"""Step 4: the frozen model objects, from data that passed every check."""

from __future__ import annotations

from ...core import model


def build_unit(data: dict, abilities: list[model.Ability]) -> model.Unit:
    attacks = tuple(
        model.Attack(kind, tuple(data["attacks"][kind]))  # type: ignore[arg-type]
        for kind in model.ATTACK_KINDS
        if kind in (data.get("attacks") or {})
    )
    return model.Unit(
        id=data["id"],
        name=data["name"],
        nation=data["nation"],
        type=data["type"],
        set=data["set"],
        number=data["number"],
        rarity=data["rarity"],
        year=data["year"],
        points=data["points"],
        armor=data["armor"],
        vital_armor=data["vital_armor"],
        hull=data["hull"],
        speed=data.get("speed"),
        flagship=data.get("flagship"),
        carrier_capacity=data.get("carrier_capacity"),
        attacks=attacks,
        abilities=tuple(abilities),
        history=build_history(data.get("history") or {}),
    )


def build_history(h: dict) -> model.History:
    def figure(d: dict | None) -> model.Figure | None:
        return model.Figure(float(d["value"]), d["unit"], d["source"], d.get("note")) if d else None

    return model.History(
        h.get("class"),
        figure(h.get("top_speed")),
        figure(h.get("length")),
        tuple(sorted((h.get("missing") or {}).items())),
    )
