"""The model after a change to a few unit files, without reading every file again.

A build after a one-unit edit spent most of its loading on the other 288 units: their
cached parses unpickled (positions and all) and checked again, for a result that cannot
have changed. ``revalidate`` starts from the last validated model instead, and checks
again what the changed files can affect: each changed unit on its own and against the
catalogues, its set number against every other unit's, and every scenario (a scenario
keeps to a points limit, and lists the units it names). Anything it cannot settle that way
(a file other than a unit's changed, a unit added, removed or renamed) and any error at all
gives None: the caller then validates the whole repository, which reports every problem
with its place as always. So a valid change takes the fast way, and an invalid one is
reported exactly as before.
"""

from __future__ import annotations

from pathlib import Path

from .. import model
from ..data_paths import plain_path
from ..yamlio import Limits
from .cache import FileCache
from .files import CATALOGUE_FILES, kind_of, load_file
from .integrity import Context, KnownUnits, check_unit
from .schema import schemas_checked


def revalidate(
    root: Path, previous: model.Repository, changed: list[Path], limits: Limits, cache: Path | None
) -> model.Repository | None:
    """``previous`` (a model validated without a problem) with ``changed`` read and checked
    again: every data file (paths inside ``root``) that differs from those ``previous`` was
    validated from. None when the whole repository must be validated instead (see the
    module's docstring). Only unit files may have changed, so the schemas are the ones the
    whole validation checked against the meta-schema: that check is not made again."""
    with schemas_checked():
        return _revalidate(root, previous, changed, limits, cache)


def _revalidate(
    root: Path, previous: model.Repository, changed: list[Path], limits: Limits, cache: Path | None
) -> model.Repository | None:
    from .. import scenarios

    cards = plain_path(root / "cards")
    if not changed or any(
        plain_path(path).parent.parent != cards or kind_of(path, root) != "unit" or path.stem not in previous.units
        for path in changed
    ):
        return None
    problems: list = []
    files = FileCache(cache, root, limits)
    catalogues = {
        kind: load_file(root / "cards" / name, root, kind, limits, problems, files)
        for name, kind in CATALOGUE_FILES.items()
    }
    context = Context.build(catalogues)
    units = dict(previous.units)
    for path in changed:
        unit = check_unit(load_file(plain_path(path), root, "unit", limits, problems, files), root, context, problems)
        if unit is None or unit.id != path.stem or _number_taken(unit, units):
            return None
        units[unit.id] = unit
    known = KnownUnits(units)
    known.broken = set()  # the previous model had no unit with an error, and no changed one has
    loaded = [load_file(p, root, "scenario", limits, problems, files) for p in scenarios.scenario_files(root)]
    built = scenarios.check_all(loaded, known, problems)
    if any(problem.is_error for problem in problems) or len(built) != len(loaded):
        return None
    files.flush()
    return model.Repository(
        units=dict(sorted(units.items())),
        sets=context.sets,
        nations=context.nations,
        abilities=context.abilities,
        extra={"scenarios": built},
    )


def _number_taken(unit: model.Unit, units: dict[str, model.Unit]) -> bool:
    """Another unit has this unit's set number (whole validation reports it in both files)."""
    return any(other.id != unit.id and (other.set, other.number) == (unit.set, unit.number) for other in units.values())
