"""Ability names as printed and as catalogued: 'Extended Range 5' ~ 'Extended Range {n}'."""

from __future__ import annotations

import re

_NUMBER = re.compile(r"\b\d+\b")


def ability_pattern(name: str) -> str:
    """'Extended Range 5' -> 'Extended Range {n}'; names without a number stay as they are."""
    return _NUMBER.sub("{n}", name, count=1)


def ability_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression that a catalogue name matches on a card."""
    return re.compile("^" + re.escape(pattern).replace(r"\{n\}", r"(\d+)") + "$")
