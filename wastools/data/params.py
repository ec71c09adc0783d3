"""The one grammar of variant parameters, for every command and for wastools.toml.

``variant.key=value`` names the variant (``off-grid.leg_in=2.5``); plain ``key=value``
is allowed wherever exactly one variant is selected. Per-unit keys keep their own dot
(``hex.footprint.bismarck=3``): the first part is a variant name or it is not a prefix.
"""

from __future__ import annotations

from ..core.suggest import did_you_mean
from ..variants import VARIANTS, ParameterError, Variant


def split_pair(pair: str) -> tuple[str, str]:
    key, sep, value = pair.partition("=")
    if not sep or not key.strip():
        raise ParameterError(f"{pair!r}: expected VARIANT.KEY=VALUE (or KEY=VALUE with one --variant)")
    return key.strip(), value.strip()


def parse(pairs: tuple[str, ...] | list[str], selected: list[str]) -> dict[str, dict[str, str]]:
    """{variant: {key: text}} from ``--param`` texts; checked against each variant's parameters."""
    out: dict[str, dict[str, str]] = {}
    for pair in pairs:
        key, value = split_pair(pair)
        prefix, dot, rest = key.partition(".")
        if dot and prefix in VARIANTS:
            variant, name = prefix, rest
        elif len(selected) == 1:
            variant, name = selected[0], key
        else:
            owners = [v.name for v in VARIANTS.values() if any(p.name == key for p in v.parameters)]
            example = f"{owners[0]}.{key}={value}" if len(owners) == 1 else f"VARIANT.{key}={value}"
            if dot and not owners:
                raise ParameterError(f"{key!r}: {prefix!r} is not a variant{did_you_mean(prefix, VARIANTS)}")
            raise ParameterError(
                f"{pair!r}: name the variant, e.g. {example} (plain KEY=VALUE needs exactly one --variant)"
            )
        out.setdefault(variant, {})[name] = value
    check(out)
    return out


def check(given: dict[str, dict[str, str]], variants: dict[str, Variant] | None = None) -> None:
    """Each ``variant.key=value`` against the variant's parameters (``variants``: by default the registry)."""
    variants = variants if variants is not None else VARIANTS
    for variant, values in given.items():
        if variant not in variants:
            raise ParameterError(f"{variant!r} is not a variant{did_you_mean(variant, variants)}")
        v = variants[variant]
        for key in values:
            known = [p.name for p in v.parameters]
            per_unit = any(key.startswith(pattern[:-1]) for pattern in v.per_unit)
            if key not in known and not per_unit:
                listed = ", ".join(f"{variant}.{k}" for k in known) or "none"
                raise ParameterError(
                    f"unknown parameter {variant}.{key}{did_you_mean(key, known)}; {variant} takes: {listed}"
                )
        try:
            v.resolve(values)
        except ParameterError as exc:
            raise ParameterError(f"{variant}.{exc}") from None
