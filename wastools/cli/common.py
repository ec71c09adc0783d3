"""What the commands share: the data repository's root, problems printed within their
limits, names completed from the data and checked with suggestions, effective settings."""

from __future__ import annotations

from pathlib import Path

import click

from ..core import data_paths, model
from ..core.problems import Problem

DEFAULT_SHARED = Path("../shared/data")


def repo_root(ctx: click.Context) -> Path:
    given = ctx.obj.get("root")
    return data_paths.find_root(Path(given) if given else Path.cwd())


def print_problems(problems: list[Problem]) -> None:
    """Every problem, sorted, within the limits on messages per file and per kind."""
    from ..core.problems import capped
    from ..data.yamlio import DEFAULT_LIMITS

    ctx = click.get_current_context(silent=True)
    limits = (ctx.find_root().obj or {}).get("limits", DEFAULT_LIMITS) if ctx else DEFAULT_LIMITS
    for problem in capped(problems, limits.max_messages_per_file, limits.max_messages_per_kind):
        click.echo(str(problem))


def counted(n: int, noun: str) -> str:
    """'1 error', '2 errors', '0 files': a count and its noun, in the number it takes."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def load_repository(ctx: click.Context):
    from ..data import repository

    result = repository.validate(repo_root(ctx), limits=ctx.obj["limits"])
    if result.repository is None:
        print_problems(result.errors)
        click.echo("the data is invalid: run `wastools validate`", err=True)
        ctx.exit(1)
    return result.repository


UNIT_TYPES = model.UNIT_TYPES


def _completion_root(ctx: click.Context) -> Path | None:
    given = ctx.find_root().params.get("root")
    try:
        return data_paths.find_root(Path(given) if given else Path.cwd())
    except data_paths.RepositoryNotFound:
        return None


def _catalogue_ids(root: Path, name: str, key: str) -> list[str]:
    from ..data import repository

    try:
        data = repository.read_plain(root / "cards" / name)
        return sorted(str(e["id"]) for e in data.get(key, []) if isinstance(e, dict) and "id" in e)
    except Exception:  # completion must never fail loudly
        return []


def _names(kind: str, root: Path | None) -> list[str]:
    from ..variants import VARIANTS

    if kind == "variant":
        return list(VARIANTS)
    if kind == "type":
        return list(UNIT_TYPES)
    if root is None:
        return []
    if kind == "nation":
        return _catalogue_ids(root, "nations.yaml", "nations")
    if kind == "set":
        return _catalogue_ids(root, "sets.yaml", "sets")
    if kind == "scenario":
        return sorted(p.stem for p in (root / "scenarios").glob("*.yaml"))
    return sorted(p.stem for p in data_paths.unit_files(root))


class Name(click.ParamType):
    """A variant, nation, set, type or unit id: completed from the data, checked with suggestions."""

    def __init__(self, kind: str):
        self.kind = kind
        self.name = kind

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(n) for n in _names(self.kind, _completion_root(ctx)) if n.startswith(incomplete)]

    def convert(self, value, param, ctx):
        if self.kind in ("variant", "type"):
            valid = _names(self.kind, None)
            if value not in valid:
                from ..core.suggest import unknown

                self.fail(unknown(self.kind, value, valid), param, ctx)
        return value


def check_names(kind: str, option: str, given: tuple[str, ...], valid) -> None:
    from ..core.suggest import unknown

    wrong = [unknown(kind, value, valid) for value in dict.fromkeys(given) if value not in valid]
    if wrong:
        raise click.BadParameter("; ".join(wrong), param_hint=f"'{option}'")


def effective_settings(ctx: click.Context, given: dict, pairs: tuple[str, ...], selected: list[str] | None = None):
    """Defaults < wastools.toml < command line; exits 1 on a bad settings file, 2 on a bad --param."""
    from ..core.problems import DataError
    from ..data import config, params
    from ..variants import ParameterError

    try:
        settings = config.effective(repo_root(ctx), given)
    except DataError as exc:
        print_problems(exc.problems)
        click.echo(f"{config.CONFIG_NAME} is invalid", err=True)
        ctx.exit(1)
    try:
        cli_params = params.parse(pairs, selected if selected is not None else settings["build.variants"])
    except ParameterError as exc:
        raise click.BadParameter(str(exc), param_hint="--param") from None
    settings = config.with_params(settings, cli_params)
    if ctx.command.name == "build":  # the boards it draws must keep to the map limits
        limits = ctx.obj["limits"]
        for message in config.board_problems(settings, limits.max_map_pages, limits.max_map_cells):
            raise click.BadParameter(message, param_hint="--param or wastools.toml")
    return settings
