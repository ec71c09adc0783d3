"""`wastools new unit` and `wastools new scenario`: valid files to start from, written whole
inside the repository and never through a link (``repo_files.write_inside``)."""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from ..core.errors import UsageProblem
from ..core.model import AIRCRAFT_TYPES, Repository, Unit
from ..core.repo_files import write_inside
from ..core.slug import slugify
from ..core.suggest import unknown
from ..data import repository, yamlio
from ..data.repository.schema import PLACEHOLDER
from ..variants import VARIANTS

UNIT_WORDS = {"in": "inches", "cm": "centimeters"}  # the comment is for people, not the parser


class ScaffoldError(UsageProblem, ValueError):
    """A unit or scenario that cannot be made as asked (its id taken, no id in its name)."""


def new_unit(root: Path, repo: Repository, name: str, nation: str, unit_type: str, card_set: str, number: int) -> Path:
    unit_id = slugify(name)
    if not unit_id:
        raise ScaffoldError(f"{name!r} gives no id: use letters or digits")
    if unit_id in repo.units:
        raise ScaffoldError(f"id {unit_id!r} is taken: see CONTRIBUTING.md for the collision rule")
    if nation not in repo.nations:
        raise ScaffoldError(unknown("nation", nation, repo.nations))
    if card_set not in repo.sets:
        raise ScaffoldError(unknown("set", card_set, repo.sets))
    used = {(u.set, u.number) for u in repo.units.values()}
    if (card_set, number) in used or not 1 <= number <= repo.sets[card_set].total:
        raise ScaffoldError(f"{card_set} #{number} is taken or outside 1..{repo.sets[card_set].total}")
    aircraft = unit_type in AIRCRAFT_TYPES
    doc = CommentedMap(id=unit_id, name=name, nation=nation, type=unit_type, set=card_set, number=number)
    # what only the printed card can give: validate refuses each until it is written
    for stat in ("rarity", "year", "points", "armor", "vital_armor", "hull"):
        doc[stat] = PLACEHOLDER
    if not aircraft:
        doc["speed"] = PLACEHOLDER
    if unit_type == "carrier":
        doc["carrier_capacity"] = PLACEHOLDER
    doc["attacks"] = CommentedMap(anti_air=yamlio.flow([PLACEHOLDER, None, None, None]))
    # true until someone looks them up: validate lists them, coverage counts them
    needed = ("top_speed",) if aircraft else ("top_speed", "length")
    doc["history"] = CommentedMap(missing=CommentedMap((name, "not looked up yet") for name in needed))
    doc.yaml_set_comment_before_after_key(
        "rarity",
        before=f"Placeholders: replace each '{PLACEHOLDER}' with the printed card's value, then `wastools validate`.",
    )
    path = root / "cards" / nation / f"{unit_id}.yaml"
    write_inside(root, path, yamlio.dump_canonical(repository.canonical_unit(doc), repository.SCHEMA_REFS["unit"]))
    return path


def new_scenario(root: Path, repo: Repository, scenario_id: str, variant: str, title: str | None) -> Path:
    if slugify(scenario_id) != scenario_id:
        raise ScaffoldError(f"{scenario_id!r} is not a lowercase slug (try {slugify(scenario_id)!r})")
    path = root / "scenarios" / f"{scenario_id}.yaml"
    if path.exists():
        raise ScaffoldError(f"{path.relative_to(root)} exists already")
    board = VARIANTS[variant].board()
    width, height = board.default_size
    allied, axis = starting_unit(repo, "allies", "us"), starting_unit(repo, "axis", "japan")
    points = max(allied.points, axis.points)
    low = board.first
    doc = CommentedMap(
        id=scenario_id,
        title=title or scenario_id.replace("-", " ").title(),
        variant=variant,
        briefing="What each side knows and wants, in your own words.",
        map=CommentedMap(width=width, height=height),
        points_limit=max(100, points),
        turn_limit=8,
        sides=[
            CommentedMap(side="allies", name="Allied force", forces=[CommentedMap(unit=allied.id)]),
            CommentedMap(side="axis", name="Axis force", forces=[CommentedMap(unit=axis.id)]),
        ],
        objectives=[CommentedMap(name="Objective 1", at=yamlio.flow([low + width / 2, low + height / 2]), points=50)],
        victory=[
            "Score the points of enemy units sunk and 50 for each objective held; the higher total after 8 turns wins."
        ],
    )
    doc.yaml_set_comment_before_after_key(
        "map",
        before=(
            f"Map size and every coordinate are in {UNIT_WORDS.get(board.unit, board.unit)}; "
            "x from the west edge, y from the north edge."
        ),
    )
    write_inside(root, path, yamlio.dump_canonical(doc, repository.SCHEMA_REFS["scenario"]))
    return path


def starting_unit(repo: Repository, side: str, nation: str) -> Unit:
    """The unit a new scenario's ``side`` starts with: a destroyer of ``nation``, else of
    another nation of that side, else any ship of the side, else any unit of it; a
    ``ScaffoldError`` when the side has no unit at all."""
    units = [u for u in repo.units.values() if u.nation in repo.nations and repo.nations[u.nation].side == side]
    ranked = sorted(units, key=lambda u: (u.type != "destroyer", u.type in AIRCRAFT_TYPES, u.nation != nation))
    if not ranked:
        raise ScaffoldError(
            f"no unit of the {side} side in cards/ to start the scenario with: add one first (`wastools new unit`)"
        )
    return ranked[0]
