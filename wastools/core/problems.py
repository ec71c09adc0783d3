"""Located problems: every error or warning names its file, line, column and field."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from .errors import WastoolsError

MAX_MESSAGE = 400  # characters of one message


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
    more: int = dataclasses.field(default=0, compare=False)  # further problems this line stands for

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE:  # a value quoted whole can be any size
            cut = self.message[: MAX_MESSAGE - 157] + " [...] " + self.message[-150:]
            object.__setattr__(self, "message", cut)

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        subject = f"{self.field}: " if self.field else ""
        return f"{where}: {prefix}{subject}{self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def capped(problems: list[Problem], per_file: int, per_kind: int) -> list[Problem]:
    """``problems`` sorted, at most ``per_file`` of one file and ``per_kind`` of one kind (the
    same message about other values, see ``kind_of``), each cut replaced by one line that
    says how many more there are: a thousand broken files, or one file broken a thousand
    times, still give a report a person can read."""
    shown: list[Problem] = []
    hidden_in_file: dict[str, list[Problem]] = {}
    hidden_of_kind: dict[str, list[Problem]] = {}
    per_path: dict[str, int] = {}
    kinds: dict[str, int] = {}
    for problem in sorted(problems):
        kind = kind_of(problem)
        if per_path.get(problem.path, 0) >= per_file:
            hidden_in_file.setdefault(problem.path, []).append(problem)
        elif kinds.get(kind, 0) >= per_kind:
            hidden_of_kind.setdefault(kind, []).append(problem)
        else:
            shown.append(problem)
            per_path[problem.path] = per_path.get(problem.path, 0) + 1
            kinds[kind] = kinds.get(kind, 0) + 1
    for rest in hidden_in_file.values():
        count = sum(1 + p.more for p in rest)
        severity = Severity.ERROR if any(p.is_error for p in rest) else Severity.WARNING
        message = f"and {count} more problems in this file, not listed (limit max_messages_per_file)"
        shown.append(dataclasses.replace(rest[0], field="", message=message, severity=severity, more=count - 1))
    for rest in hidden_of_kind.values():
        count = rest[0].more + sum(1 + p.more for p in rest[1:])
        files = len({p.path for p in rest[1:]})
        note = (
            f" [and {count} more like it in {files} files, not listed (limit max_messages_per_kind)]" if count else ""
        )
        shown.append(dataclasses.replace(rest[0], message=rest[0].message + note, more=count))
    return sorted(shown)


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|[\w./-]+\.(yaml|json)\b|\d+(\.\d+)?")


def kind_of(problem: Problem) -> str:
    """What a problem says, without the values it names: "duplicate id 'x'" and "duplicate
    id 'y'" are one kind."""
    return problem.severity + ":" + re.sub(r"\[\d+\]", "[]", problem.field) + ":" + _QUOTED.sub("_", problem.message)


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


class DataError(WastoolsError):
    """Raised when data cannot be used; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
