"""The one canonical layout of a unit file (key order, flow style), keeping comments."""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap

from ...core import model
from ..yamlio import flow

UNIT_KEY_ORDER = ("id", *model.CARD_FIELDS, "attacks", "abilities", "history")
HISTORY_KEY_ORDER = ("class", "top_speed", "length", "missing", "note")
FIGURE_KEY_ORDER = ("value", "unit", "source", "note")


def _ordered(data: dict, order: tuple[str, ...]) -> CommentedMap:
    out = CommentedMap()
    for key in order:
        if key in data:
            out[key] = data[key]
    for key in data:  # unknown keys keep their place at the end: validate reports them
        if key not in out:
            out[key] = data[key]
    return out


def canonical_unit(data: dict) -> CommentedMap:
    """Key order and flow style of a unit file; keeps comments when given a round-trip map."""
    out = _ordered(data, UNIT_KEY_ORDER)
    _copy_comments(data, out)
    if isinstance(out.get("attacks"), dict):
        attacks = _ordered(out["attacks"], model.ATTACK_KINDS)
        _copy_comments(out["attacks"], attacks)
        for kind, bands in list(attacks.items()):
            if isinstance(bands, list):
                attacks[kind] = flow(list(bands))
        out["attacks"] = attacks
    if isinstance(out.get("history"), dict):
        history = _ordered(out["history"], HISTORY_KEY_ORDER)
        _copy_comments(out["history"], history)
        for key in ("top_speed", "length"):
            if isinstance(history.get(key), dict):
                fig = _ordered(history[key], FIGURE_KEY_ORDER)
                _copy_comments(history[key], fig)
                history[key] = fig
        out["history"] = history
    return out


def _copy_comments(source: Any, target: CommentedMap) -> None:
    if isinstance(source, CommentedMap):
        for key, value in source.ca.items.items():
            if key in target:
                target.ca.items[key] = value
        if source.ca.comment:
            target.ca.comment = source.ca.comment
