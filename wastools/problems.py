"""Located problems: every error or warning names its file, line, column and field."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Problem:
    """One finding about one place in one data file.

    Line and column are 1-based, as editors show them. ``field`` is a dotted path
    with list indices in brackets (``attacks.main[2]``); empty for whole-file problems.
    """

    path: str
    line: int
    column: int
    field: str
    message: str
    severity: Severity = dataclasses.field(default=Severity.ERROR, compare=False)

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        subject = f"{self.field}: " if self.field else ""
        return f"{where}: {prefix}{subject}{self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def display_path(path: Path, root: Path) -> str:
    """A path as the user should see it: relative to the repository when inside it."""
    import os

    try:  # where the file sits, not where a link points: a link is reported by its own name
        return Path(os.path.normpath(path.absolute())).relative_to(os.path.normpath(root.absolute())).as_posix()
    except ValueError:
        pass
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def format_field(parts: tuple | list) -> str:
    """``('attacks', 'main', 2)`` -> ``attacks.main[2]``."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


class DataError(Exception):
    """Raised when data cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
