"""The one root of every error the tool raises.

A command ends on a ``WastoolsError`` with its ``lines`` on standard error and its
``exit_code``; the command line maps them in one place (``cli.Commands.invoke``), so a new
error needs no new ``except`` there. Errors that stay inside one module (a limit passed while
reading a file, a card left to WeasyPrint) derive from it too, so the class tree tells every
error the tool can raise.
"""

from __future__ import annotations


class WastoolsError(Exception):
    """An error for a person to read: one line naming what and where, exit code 1."""

    exit_code = 1

    def lines(self) -> list[str]:
        return [f"error: {self}"]


class UsageProblem(WastoolsError):
    """Asked for something the tool cannot do as asked (a setting, a name): exit code 2."""

    exit_code = 2
