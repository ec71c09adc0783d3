"""wastools.toml: the project's own settings, at the data repository's root (optional).

    [build]
    papers = ["a4"]                 # letter, a4
    variants = ["hex", "off-grid"]  # what a plain `wastools build` makes
    backs = false
    bleed = false
    colour_maps = false             # boards and scenario maps with a blue sea and sandy land

    [printer]                       # read off the calibration sheet once
    scale_x = 1.0
    scale_y = 1.0
    back_offset_x = 0.0             # mm
    back_offset_y = 0.0             # mm
    duplex_edge = "long"            # long or short
    landscape_turn = "counterclockwise"  # or clockwise: read off the landscape calibration sheet

    [params.off-grid]
    leg_in = 2.5

    [site]
    address = "https://example.org/was/"  # where build/site is published: QR codes on printed fleets link there

Command-line options override the file; `wastools config` shows the effective settings
and where each came from.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.data_paths import refusal
from ..core.problems import DataError, Problem
from ..core.safe_text import bad_characters
from ..core.suggest import did_you_mean
from ..variants import SHIPPED, VARIANTS, ParameterError, Variant, use_house
from .yamlio import DEFAULT_LIMITS, read_limited

CONFIG_NAME = "wastools.toml"
PAPERS = ("letter", "a4")
DEFAULTS: dict[str, Any] = {
    "build.papers": list(PAPERS),
    "build.variants": list(SHIPPED),  # and the house variants: ``effective``
    "build.backs": False,
    "build.bleed": False,
    "build.colour_maps": False,
    "printer.scale_x": 1.0,
    "printer.scale_y": 1.0,
    "printer.back_offset_x": 0.0,
    "printer.back_offset_y": 0.0,
    "printer.duplex_edge": "long",
    "printer.landscape_turn": "counterclockwise",
    "site.address": "",
}
LANDSCAPE_TURNS = ("counterclockwise", "clockwise")
SITE_ADDRESS_MAX = 200
SCALE_RANGE = (0.5, 1.5)
SECTIONS = ["build", "printer", "params", "site", "variants"]


@dataclass(frozen=True)
class Setting:
    value: Any
    source: str  # "default", "wastools.toml:3", "command line"


@dataclass
class Settings:
    values: dict[str, Setting]

    def __getitem__(self, name: str) -> Any:
        return self.values[name].value

    def params(self) -> dict[str, dict[str, str]]:
        """{variant: {key: text}} from every ``params.<variant>.<key>`` setting."""
        out: dict[str, dict[str, str]] = {}
        for name, setting in self.values.items():
            if name.startswith("params."):
                variant, key = name[len("params.") :].split(".", 1)
                out.setdefault(variant, {})[key] = _text(setting.value)
        return out

    def lines(self) -> list[str]:
        width = max(len(n) for n in self.values)
        return [f"{name:<{width}} = {_show(s.value)}   ({s.source})" for name, s in sorted(self.values.items())]


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return _text(value)


def read(root: Path) -> dict[str, Setting]:
    """The settings written in ``root/wastools.toml`` (none when there is no such file)."""
    parsed = _parse(root)
    if parsed is None:
        return {}
    text, data = parsed
    problems: list[Problem] = []
    out: dict[str, Setting] = {}
    from .house_variants import from_table

    house, problems = from_table(text, data["variants"], CONFIG_NAME) if "variants" in data else ([], [])
    variants = {**SHIPPED, **{v.name: v for v in house}}
    for section, table in data.items():
        if section not in SECTIONS:
            problems.append(_problem(text, section, section, f"unknown section{did_you_mean(section, SECTIONS)}"))
            continue
        if section == "variants":
            continue
        if not isinstance(table, dict):
            problems.append(_problem(text, section, section, f"expected a table [{section}], not {_shape(table)}"))
            continue
        if section == "params":
            _read_params(text, table, out, problems, variants)
            continue
        for key, value in table.items():
            name = f"{section}.{key}"
            known = [n.split(".", 1)[1] for n in DEFAULTS if n.startswith(section + ".")]
            if name not in DEFAULTS:
                problems.append(_problem(text, key, name, f"unknown setting{did_you_mean(key, known)}"))
                continue
            complaint = check(name, value, variants)
            if complaint:
                problems.append(_problem(text, key, name, complaint))
            else:
                out[name] = Setting(value, f"{CONFIG_NAME}:{_line(text, key)}")
    if problems:
        raise DataError(problems)
    return out


def problems(root: Path) -> list[Problem]:
    """Every problem of ``root``'s settings file (its house variants among them); none when
    there is no such file."""
    try:
        read(root)
    except DataError as exc:
        return list(exc.problems)
    return []


def _shape(value: Any) -> str:
    """What a TOML value is, in the words of the file: ``[[build]]`` is an array of tables."""
    if isinstance(value, list):
        return "an array of tables ([[...]])" if value and all(isinstance(v, dict) for v in value) else "a list"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return "text" if isinstance(value, str) else "a date or time"


def _parse(root: Path) -> tuple[str, dict[str, Any]] | None:
    """The settings file's text and its TOML, None when there is none; raises ``DataError``
    for a file that is no plain file, too big, not TOML, nested too deep, or that holds a
    number that is not finite or a character no data may hold."""
    path = root / CONFIG_NAME
    if not os.path.lexists(path):
        return None
    why = refusal(path, root)
    raw, why = (None, why) if why else read_limited(path, DEFAULT_LIMITS)
    if raw is None:
        raise DataError([Problem(CONFIG_NAME, 1, 1, "", f"{why}: the settings file must be a plain file")])
    text = raw.decode("utf-8", errors="replace")
    for index, what in bad_characters(text):
        line = text.count("\n", 0, index) + 1
        raise DataError([Problem(CONFIG_NAME, line, index - text.rfind("\n", 0, index), "", f"{what}: remove it")])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        lines = text.rstrip("\n").split("\n")
        line, col = (int(found[1]), int(found[2])) if found else (len(lines), len(lines[-1]) + 1)
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        raise DataError([Problem(CONFIG_NAME, line, col, "", f"not valid TOML: {message}")]) from None
    except RecursionError:
        raise DataError([Problem(CONFIG_NAME, 1, 1, "", "not valid TOML: nested too deep")]) from None
    return text, data


def use_house_variants(root: Path) -> None:
    """Make the registry the shipped variants plus ``root``'s house variants (those without
    problems: ``read``, and so every command that reads the settings, reports the others)."""
    from .house_variants import from_table

    text, table = house_table(root)
    use_house(from_table(text, table, CONFIG_NAME)[0] if table is not None else [])


def house_table(root: Path) -> tuple[str, Any]:
    """The settings file's text and its ``[variants]`` table (None when it has none, or when
    the file cannot be read: ``read`` reports why)."""
    try:
        parsed = _parse(root)
    except DataError:
        return "", None
    if parsed is None:
        return "", None
    text, data = parsed
    return text, data.get("variants")


def _read_params(
    text: str, table: dict, out: dict[str, Setting], problems: list[Problem], known: dict[str, Variant]
) -> None:
    for variant, values in table.items():
        if variant not in known:
            problems.append(
                _problem(text, variant, f"params.{variant}", f"not a variant{did_you_mean(variant, known)}")
            )
            continue
        if not isinstance(values, dict):
            shape = f"expected a table [params.{variant}], not {_shape(values)}"
            problems.append(_problem(text, variant, f"params.{variant}", shape))
            continue
        from .params import check as check_params

        for key, value in values.items():
            try:
                check_params({variant: {key: _text(value)}}, known)
            except ParameterError as exc:
                problems.append(_problem(text, key, f"params.{variant}.{key}", str(exc)))
                continue
            out[f"params.{variant}.{key}"] = Setting(value, f"{CONFIG_NAME}:{_line(text, key)}")


def check(name: str, value: Any, known: dict[str, Variant] | None = None) -> str | None:
    """Why ``value`` cannot be the setting ``name``, or None (``known``: the variants there are,
    by default the registry's)."""
    if name in ("build.papers", "build.variants"):
        allowed = PAPERS if name == "build.papers" else tuple(known if known is not None else VARIANTS)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            return f"expected a list of names from: {', '.join(allowed)}"
        wrong = [v for v in value if v not in allowed]
        if wrong:
            return f"{wrong[0]!r} is not one of {', '.join(allowed)}{did_you_mean(wrong[0], allowed)}"
    elif name in ("build.backs", "build.bleed", "build.colour_maps"):
        if not isinstance(value, bool):
            return "expected true or false"
    elif name.startswith("printer.scale_"):
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not SCALE_RANGE[0] <= value <= SCALE_RANGE[1]  # false for not-a-number too
        ):
            return f"expected a number between {SCALE_RANGE[0]} and {SCALE_RANGE[1]} (1.01 = 1 % larger)"
    elif name.startswith("printer.back_offset_"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) <= 20:
            return "expected a shift in millimeters between -20 and 20"
    elif name == "printer.duplex_edge" and value not in ("long", "short"):
        return 'expected "long" or "short"'
    elif name == "printer.landscape_turn" and value not in LANDSCAPE_TURNS:
        return 'expected "counterclockwise" or "clockwise"'
    elif name == "site.address":
        return _address_problem(value)
    return None


def _address_problem(value: Any) -> str | None:
    """Why ``value`` cannot be the site's published address (printed as a link and a QR code)."""
    from urllib.parse import urlsplit

    wanted = 'expected the http(s) address the site is published at, e.g. "https://example.org/was/"'
    if not isinstance(value, str):
        return wanted
    if value == "":
        return None
    parts = urlsplit(value)
    plain = value.isascii() and value.isprintable() and not any(c in value for c in ' "<>`{}|^')
    if len(value) > SITE_ADDRESS_MAX or not plain or parts.scheme not in ("http", "https") or not parts.netloc:
        return wanted + f" (at most {SITE_ADDRESS_MAX} characters, no spaces)"
    if parts.query or parts.fragment:
        return wanted + ": the folder of the site, without ? or #"
    return None


def _line(text: str, key: str) -> int:
    pattern = re.compile(
        r"^[ \t]*(\[[^\]]*\b" + re.escape(key) + r"\b[^\]]*\]|[\"']?" + re.escape(key) + r"[\"']?\s*=)", re.M
    )
    found = pattern.search(text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def _problem(text: str, key: str, name: str, message: str) -> Problem:
    line = _line(text, key)
    return Problem(CONFIG_NAME, line, 1, name, message)


def effective(root: Path, given: dict[str, Any]) -> Settings:
    """Defaults, overlaid by wastools.toml, overlaid by ``given`` (command-line values; None = not given)."""
    values = {name: Setting(value, "default") for name, value in DEFAULTS.items()}
    values["build.variants"] = Setting(list(VARIANTS), "default")  # the shipped six and the house variants
    values.update(read(root))
    for name, value in given.items():
        if value is not None and value != ():
            values[name] = Setting(list(value) if isinstance(value, tuple) else value, "command line")
    return Settings(values)


def with_params(settings: Settings, cli: dict[str, dict[str, str]]) -> Settings:
    values = dict(settings.values)
    for variant, pairs in cli.items():
        for key, text in pairs.items():
            values[f"params.{variant}.{key}"] = Setting(text, "command line")
    return Settings(values)


def board_problems(settings: Settings, max_pages: int, max_cells: int) -> list[str]:
    """The boards a build of ``build.variants`` draws (each variant's ``sheet``) against the map
    limits (``map_size``); each message names the settings that make the board and where each
    came from."""
    from .map_size import map_problems, sheet_geometry

    given = settings.params()
    out = []
    for name in settings["build.variants"]:
        variant = VARIANTS.get(name)
        try:
            sheet = variant.sheet(variant.resolve(given.get(name, {}))) if variant else None
        except ParameterError:
            continue  # said where the values are read
        if sheet is None:
            continue
        made = ", ".join(
            f"{n.removeprefix('params.')}={_text(v.value)} ({v.source})"
            for n, v in settings.values.items()
            if n.startswith(f"params.{name}.")
        )
        for _limit, message in map_problems(sheet_geometry(sheet), None, max_pages, max_cells, f"the {name} board"):
            out.append(message + (f" (made by {made})" if made else ""))
    return out
