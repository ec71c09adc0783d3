"""Every error the tool defines derives from one root, and the command line maps that root in one place."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import click
from click.testing import CliRunner

import wastools
from wastools.cli import Commands
from wastools.core.errors import UsageProblem, WastoolsError


def _defined_exceptions() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(wastools.__path__, "wastools."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for _name, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == info.name and issubclass(value, BaseException):
                found.append(value)
    return found


def test_every_exception_class_of_the_tool_derives_from_the_one_root():
    classes = _defined_exceptions()
    assert len(classes) >= 15  # the walk found the package's errors, not an empty list
    strays = [f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, WastoolsError)]
    assert strays == []


def _group_raising(error: Exception) -> click.Group:
    @click.group(cls=Commands)
    def top() -> None:
        pass

    @top.command()
    def go() -> None:
        raise error

    return top


def test_an_error_of_the_root_ends_the_command_with_its_line_and_exit_code():
    result = CliRunner().invoke(_group_raising(WastoolsError("cannot write build/x.pdf: the disk is full")), ["go"])
    assert result.exit_code == 1
    assert result.output.strip() == "error: cannot write build/x.pdf: the disk is full"
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_usage_problem_exits_2_and_an_error_outside_the_root_is_not_swallowed():
    assert CliRunner().invoke(_group_raising(UsageProblem("no such variant")), ["go"]).exit_code == 2
    result = CliRunner().invoke(_group_raising(KeyError("bug")), ["go"])
    assert isinstance(result.exception, KeyError)  # a bug stays a bug: never printed as a user's error
