"""Load the data repository, validate it whole, and build the model: one module per step.

1. ``files``: find the data files and load each with positions (links refused, unopened);
2. ``schema``: JSON Schema problems, located, with suggestions;
3. ``integrity``: what a schema cannot express (ids, folders, references, unit types,
   reasons for missing figures, unique ids and numbers across files);
4. ``building``: the frozen model from the files that passed.

Every problem is collected with its file, line and column; nothing stops at the first.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from ...core import model
from ...core.data_paths import RepositoryNotFound, find_root, plain_path, refusal, unit_files
from ...core.problems import Problem, display_path
from ...core.store import Store
from ..yamlio import DEFAULT_LIMITS, Limits
from .cache import FileCache
from .canonical import FIGURE_KEY_ORDER, HISTORY_KEY_ORDER, UNIT_KEY_ORDER, canonical_unit
from .files import CATALOGUE_FILES, SCHEMA_REFS, LoadedFile, existing_units, kind_of, load_file, read_plain
from .integrity import Context, KnownUnits, check_unit, cross_unit_problems
from .schema import SCHEMA_FILES, schema_problems, schema_validator, schemas, schemas_checked, validator

__all__ = [
    "CATALOGUE_FILES",
    "FIGURE_KEY_ORDER",
    "HISTORY_KEY_ORDER",
    "SCHEMA_FILES",
    "SCHEMA_REFS",
    "UNIT_KEY_ORDER",
    "LoadedFile",
    "RepositoryNotFound",
    "Validation",
    "canonical_unit",
    "existing_units",
    "find_root",
    "kind_of",
    "plain_path",
    "read_plain",
    "refusal",
    "schema_problems",
    "schema_validator",
    "unit_files",
    "validate",
    "validator",
]


@dataclass
class Validation:
    """Everything one validation run found, plus the model when there were no errors."""

    problems: list[Problem] = field(default_factory=list)
    repository: model.Repository | None = None  # the model, when there is no error at all
    files_checked: int = 0
    usable: model.Repository | None = None  # the model without the scenarios that have errors
    blocked: list[str] = field(default_factory=list)  # scenario files left out of ``usable``

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]


def _schema_faults(root: Path, limits: Limits, files_cache: FileCache | None) -> tuple[list[Problem], bool]:
    """The schemas' own problems, and whether these very schemas are known to pass the
    meta-schema: the store holds that they did (the entry's key holds their bytes' hash, the
    code's version and the limits, ``FileCache``). Their check (a tenth of a second, and
    again for every file read afresh) is then left out for the whole validation."""
    if files_cache is None or files_cache.folder is None:
        return schemas(root, limits).problems, False
    passed = files_cache.key(b"", "schemas passed the meta-schema")
    if files_cache.get(passed):
        with schemas_checked():
            return schemas(root, limits).problems, True
    faults = schemas(root, limits).problems
    if not faults:
        files_cache.put(passed, True)
    return faults, False


def validate(
    root: Path, paths: Iterable[Path] | None = None, limits: Limits = DEFAULT_LIMITS, cache: Store | None = None
) -> Validation:
    """Validate the repository at ``root``. With ``paths``, report only problems in those
    files (the rest of the repository is still read, so that cross-file checks work).
    With ``cache`` (the store), each file's own parse and problems are kept there and reused
    while its bytes are unchanged (written only when the data can be used); checks across
    files always run whole."""
    files_cache = FileCache(cache, root, limits) if cache is not None else None
    schema_faults, passed = _schema_faults(root, limits, files_cache)  # reported whatever files were asked for
    with schemas_checked() if passed else nullcontext():
        return _validated(root, paths, limits, files_cache, schema_faults)


def _validated(
    root: Path,
    paths: Iterable[Path] | None,
    limits: Limits,
    files_cache: FileCache | None,
    schema_faults: list[Problem],
) -> Validation:
    """``validate`` once the schemas' own problems are known."""
    problems: list[Problem] = []
    catalogues = {
        kind: load_file(root / "cards" / name, root, kind, limits, problems, files_cache)
        for name, kind in CATALOGUE_FILES.items()
    }
    extra = [plain_path(p) for p in (paths or [])]
    files = list(
        dict.fromkeys([plain_path(p) for p in unit_files(root)] + [p for p in extra if kind_of(p, root) == "unit"])
    )
    units = [load_file(p, root, "unit", limits, problems, files_cache) for p in files]
    context = Context.build(catalogues)
    problems.extend(context.catalogue_problems(catalogues))
    repo_units: dict[str, model.Unit] = {}
    for loaded in units:
        unit = check_unit(loaded, root, context, problems)
        if unit is not None:
            repo_units.setdefault(unit.id, unit)
    problems.extend(cross_unit_problems(units))
    from .. import scenarios  # scenarios build on the unit model

    known = scenarios.scenario_files(root)
    scenario_paths = known + [p for p in extra if kind_of(p, root) == "scenario" and p not in known]
    loaded_scenarios = [
        load_file(p, root, "scenario", limits, problems, files_cache) for p in dict.fromkeys(scenario_paths)
    ]
    known_units = KnownUnits(repo_units)
    known_units.broken = {u.path.stem for u in units} - set(repo_units)
    built_scenarios = scenarios.check_all(loaded_scenarios, known_units, problems, limits)
    files += scenario_paths
    from . import rules_register  # the rules registers, rules/<variant>.yaml

    problems.extend(rules_register.check(root, limits, files_cache)[0])
    files += rules_register.register_files(root)
    if paths is not None:
        wanted = {display_path(p, root) for p in extra}
        wanted_dirs = tuple(w.rstrip("/") + "/" for w in wanted)
        problems = [p for p in problems if p.path in wanted or p.path.startswith(wanted_dirs)]
    problems += schema_faults
    result = Validation(problems=sorted(set(problems)), files_checked=len(files) + len(catalogues))
    shown_scenarios = {display_path(p, root) for p in scenario_paths}
    bad_files = {p.path for p in problems if p.is_error}
    if paths is None and bad_files <= shown_scenarios:
        # errors only in scenarios: everything else is usable, each bad scenario blocks its own pack
        good = {
            sid: s
            for sid, s in built_scenarios.items()
            if display_path(root / "scenarios" / f"{sid}.yaml", root) not in bad_files
        }
        result.usable = model.Repository(
            units=dict(sorted(repo_units.items())),
            sets=context.sets,
            nations=context.nations,
            abilities=context.abilities,
            scenarios=good,
        )
        result.blocked = sorted(bad_files)
        if not bad_files:
            result.repository = result.usable
    if files_cache is not None and (not result.errors or result.usable is not None):
        files_cache.flush()  # a run stopped by bad data writes nothing
    return result
