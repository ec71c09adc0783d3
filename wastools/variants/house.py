"""House variants: a group's own table, named. Pure: no file is read here.

A house variant is a shipped variant with other values for some of its parameters, an id
of its own (its folder under ``build/``) and a title a player reads. It follows its base's
rules in every other respect, so it converts, prints and checks fleets exactly as its base
does at the values it sets. ``data/config.py`` reads them from ``wastools.toml``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..core.suggest import did_you_mean
from ..core.wording import setting
from .base import Parameter, ParameterError, Variant

ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
MAX_ID, MAX_TITLE, MAX_DESCRIPTION = 40, 60, 300


def check_id(name: str, shipped: dict[str, Variant]) -> None:
    if not ID_PATTERN.match(name) or len(name) > MAX_ID:
        raise ParameterError(
            f"{name!r} is not a variant id: use lowercase letters, digits and single hyphens, "
            f"starting with a letter, at most {MAX_ID} characters (e.g. 'six-inch-sectors')"
        )
    if name in shipped:
        raise ParameterError(f"{name!r} is a shipped variant: give the house variant a name of its own")


def base_of(name: Any, shipped: dict[str, Variant]) -> Variant:
    if not isinstance(name, str) or name not in shipped:
        raise ParameterError(
            f"{name!r} is not a shipped variant (one of {', '.join(shipped)}){did_you_mean(str(name), shipped)}"
        )
    return shipped[name]


def parameter_of(base: Variant, key: str) -> Parameter:
    by_name = {p.name: p for p in base.parameters}
    if key not in by_name:
        known = ", ".join(by_name) or "none"
        raise ParameterError(f"{base.name} has no setting {key!r}{did_you_mean(key, by_name)} (it has: {known})")
    return by_name[key]


def typed(parameter: Parameter, value: Any) -> Any:
    """A value as written in a settings file, as the parameter's type (a whole number where a
    number is expected is a number), checked against its range and choices."""
    kind = type(parameter.default)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, (bool, int, float, str)):
        raise ParameterError(f"{parameter.name}: {value!r} is not a {_kind_word(parameter)}")
    if kind is float and isinstance(value, int):
        value = float(value)
    if kind is str and not isinstance(value, str):
        raise ParameterError(f"{parameter.name}: {value!r} is not text")
    if kind in (int, float) and not isinstance(value, kind):
        raise ParameterError(f"{parameter.name}: {value!r} is not a {_kind_word(parameter)}")
    parameter.check(value)
    return value


def _kind_word(parameter: Parameter) -> str:
    return {bool: "true or false", int: "whole number", float: "number", str: "text"}.get(
        type(parameter.default), "value"
    )


def house_variant(
    name: str,
    base: Variant,
    title: str,
    values: dict[str, Any],
    description: str = "",
    source: str = "",
) -> Variant:
    """``base`` under ``name`` and ``title``, its parameters' defaults replaced by ``values``
    (already typed: ``typed``)."""
    parameters = tuple(replace(p, default=values[p.name]) if p.name in values else p for p in base.parameters)
    variant = replace(
        base,
        name=name,
        title=title,
        label=title,
        parameters=parameters,
        description=description,
        base=base.name,
        changes=tuple(values.items()),
        source=source,
    )
    if description:
        return variant
    # the base's own description gives its numbers ("4-inch sectors"): say what this one changes instead
    changed = changed_words(variant, {base.name: base})
    own = f"{base.title}, with " + "; ".join(changed) + "." if changed else f"{base.title} at the rules' own settings."
    return replace(variant, description=own)


def changed_words(variant: Variant, shipped: dict[str, Variant]) -> list[str]:
    """What a house variant changes, in words: 'hex size flat to flat in centimeters: 5 (the
    rules' own: 6)'."""
    if not variant.base:
        return []
    base = shipped[variant.base]
    defaults = base.defaults()
    labels = {p.name: p.label for p in base.parameters}
    return [
        f"{labels[key]}: {setting(value)} (the rules' own: {setting(defaults[key])})" for key, value in variant.changes
    ]


def command_line_variant(base: Variant, given: dict[str, str]) -> Variant:
    """The variant a build with ``--param`` makes: the base at those values, under a name that
    says so (``off-grid+leg-in-2.5``), so the shipped variant's files are never overwritten."""
    values = base.resolve(given)
    changed = {k: values[k] for k in given}
    tail = "-".join(f"{k}-{setting(v)}" for k, v in sorted(changed.items()))
    name = f"{base.name}+" + re.sub(r"[^a-z0-9.]+", "-", tail.lower()).strip("-")[:60]
    plain = {k: v for k, v in changed.items() if "." not in k}
    variant = house_variant(name, base, f"{base.title}, own settings", plain)
    # per-unit keys (footprint.bismarck) are no parameter's default: ``defaults`` adds them
    return replace(variant, label=f"{base.short}, own settings", changes=tuple(changed.items()))
