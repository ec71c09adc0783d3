"""One command-line grammar: checked names with suggestions, --param everywhere, settings
from wastools.toml, shell completion, subset builds under their own names."""

from __future__ import annotations

import json

import pytest
from click.shell_completion import ShellComplete

from tests.conftest import DATA
from wastools.cli import main


def complete(args: list[str], incomplete: str) -> list[str]:
    shell = ShellComplete(main, {}, "wastools", "_WASTOOLS_COMPLETE")
    return [c.value for c in shell.get_completions(["--root", str(DATA), *args], incomplete)]


@pytest.mark.parametrize(
    "args, hint, suggestion",
    [
        (["build", "--nation", "uk", "--nation", "germnay"], "'--nation'", "'germany'"),
        (["build", "--variant", "hexx"], "'--variant'", "'hex'"),
        (["build", "--type", "destroyr"], "'--type'", "'destroyer'"),
        (["build", "--set", "surface-actoin"], "'--set'", "'surface-action'"),
        (["build", "--unit", "ryujou"], "'--unit'", "'ryujo'"),
        (["build", "--unit", "jintu"], "'--unit'", "'jintsu'"),
        (["build", "--unit", "hms-hod"], "'--unit'", "'hms-hood'"),
        (["show", "bismarkc"], "'UNIT'", "'bismarck'"),
    ],
)
def test_an_unknown_name_is_a_usage_error_naming_the_closest(cli, args, hint, suggestion):
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert hint in result.output and "did you mean" in result.output
    assert suggestion in result.output.split("did you mean", 1)[1].split("?")[0]


def test_every_wrong_value_is_named_once(cli):
    result = cli("build", "--unit", "ryujou", "--unit", "jintu")
    assert result.exit_code == 2
    assert result.output.count("unknown unit") == 2


def test_param_takes_variant_dot_key_in_build_and_show_and_plain_key_with_one_variant(cli):
    qualified = cli("show", "hms-cossack", "--variant", "off-grid", "--param", "off-grid.leg_in=2.5", "--json")
    plain = cli("show", "hms-cossack", "--variant", "off-grid", "--param", "leg_in=2.5", "--json")
    assert qualified.exit_code == plain.exit_code == 0
    assert json.loads(qualified.output) == json.loads(plain.output)
    assert json.loads(plain.output)["parameters"]["leg_in"] == 2.5
    several = cli("build", "--param", "leg_in=2.5")
    assert several.exit_code == 2 and "off-grid.leg_in=2.5" in several.output
    typo = cli("build", "--param", "off-grid.leg_inn=2.5")
    assert typo.exit_code == 2 and "did you mean 'leg_in'" in typo.output


def test_variants_prints_what_build_accepts(cli):
    import re

    text = cli("variants").output
    offered = [p.rstrip(":") for p in re.findall(r"--param (\S+?=\S+)", text)]
    assert offered and all("." in pair.split("=")[0] for pair in offered)
    from wastools.data import params
    from wastools.variants import VARIANTS

    plain = [p for p in offered if "<unit-id>" not in p]
    assert params.parse(plain, list(VARIANTS))  # every advertised spelling parses for build


def test_completion_of_commands_variants_nations_sets_types_units():
    assert "build" in complete([], "bu") and "validate" in complete([], "va")
    assert complete(["build", "--variant"], "of") == ["off-grid"]
    assert "germany" in complete(["build", "--nation"], "ge")
    assert "surface-action" in complete(["build", "--set"], "surf")
    assert complete(["build", "--type"], "destr") == ["destroyer"]
    assert "hms-cossack" in complete(["build", "--unit"], "hms-co")
    assert "bismarck" in complete(["show"], "bism")


# --- wastools.toml -------------------------------------------------------------------------


CONFIG = """\
[build]
papers = ["a4"]
variants = ["off-grid"]

[printer]
scale_x = 1.02
back_offset_x = 1.5
duplex_edge = "short"
landscape_turn = "clockwise"

[params.off-grid]
leg_in = 2.5
"""


def test_config_reports_each_setting_and_its_source(cli, tmp_repo):
    (tmp_repo / "wastools.toml").write_text(CONFIG)
    text = cli("config", root=tmp_repo).output
    lines = {line.split("=")[0].strip(): line for line in text.splitlines()}
    assert "wastools.toml:2" in lines["build.papers"] and '["a4"]' in lines["build.papers"]
    assert "wastools.toml:6" in lines["printer.scale_x"]
    assert "(default)" in lines["printer.scale_y"]
    assert "2.5" in lines["params.off-grid.leg_in"] and "wastools.toml:12" in lines["params.off-grid.leg_in"]
    assert "clockwise" in lines["printer.landscape_turn"] and "wastools.toml:9" in lines["printer.landscape_turn"]


def test_the_printer_settings_reach_the_builds_printer_profile(tmp_repo):
    """wastools.toml's printer section, and the command line over it, make the profile the
    sheets are imposed with (the landscape turn as well as the duplex edge)."""
    from wastools.cli.build import _options
    from wastools.data import config
    from wastools.render.sheets import MM

    (tmp_repo / "wastools.toml").write_text(CONFIG)
    profile = _options(config.effective(tmp_repo, {}), 1).profile
    assert (profile.duplex_edge, profile.landscape_turn, profile.back_dx) == ("short", "clockwise", 1.5 * MM)
    given = {"printer.landscape_turn": "counterclockwise", "printer.duplex_edge": None}
    profile = _options(config.effective(tmp_repo, given), 1).profile
    assert (profile.duplex_edge, profile.landscape_turn) == ("short", "counterclockwise")


def test_config_applies_to_show_and_the_command_line_wins(cli, tmp_repo):
    (tmp_repo / "wastools.toml").write_text(CONFIG)
    from_file = json.loads(cli("show", "hms-cossack", "--variant", "off-grid", "--json", root=tmp_repo).output)
    assert from_file["parameters"]["leg_in"] == 2.5
    overridden = json.loads(
        cli("show", "hms-cossack", "--variant", "off-grid", "--param", "leg_in=3.5", "--json", root=tmp_repo).output
    )
    assert overridden["parameters"]["leg_in"] == 3.5


@pytest.mark.parametrize(
    "text, where",
    [
        ('[build]\npapers = ["a5"]\n', "wastools.toml:2:1: build.papers: 'a5' is not one of letter, a4"),
        ("[printer]\nscale_x = 3\n", "wastools.toml:2:1: printer.scale_x: expected a number between 0.5 and 1.5"),
        ("[printer]\nsclae_x = 1.0\n", "did you mean 'scale_x'"),
        (
            '[printer]\nlandscape_turn = "sideways"\n',
            'wastools.toml:2:1: printer.landscape_turn: expected "counterclockwise" or "clockwise"',
        ),
        ("[params.off-grid]\nleg_inn = 2\n", "did you mean 'leg_in'"),
        ("[params.hexx]\nhex_cm = 2\n", "did you mean 'hex'"),
        ("[build]\npapers = [\n", "wastools.toml:2:"),
    ],
)
def test_a_bad_settings_file_gives_located_errors(cli, tmp_repo, text, where):
    (tmp_repo / "wastools.toml").write_text(text)
    result = cli("config", root=tmp_repo)
    assert result.exit_code == 1 and where in result.output, result.output


def test_build_checks_printer_options(cli):
    result = cli("build", "--scale-x", "7")
    assert result.exit_code == 2 and "between 0.5 and 1.5" in result.output


# --- builds of a subset ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_subset_build_writes_its_own_files_and_the_manifest_says_so(cli, tmp_path):
    out = tmp_path / "out"
    first = cli(
        "build", "--variant", "hex", "--unit", "hms-cossack", "--paper", "letter", "--jobs", "1", "--out", str(out)
    )
    assert first.exit_code == 0, first.output
    assert (out / "hex/cards-hms-cossack.pdf").exists() and not (out / "hex/cards.pdf").exists()
    assert f"wrote {out}/hex/cards-hms-cossack.pdf" in first.output
    named = cli(
        "build",
        "--variant",
        "hex",
        "--nation",
        "uk",
        "--type",
        "destroyer",
        "--name",
        "uk-destroyers",
        "--paper",
        "letter",
        "--jobs",
        "1",
        "--out",
        str(out),
    )
    assert named.exit_code == 0, named.output
    manifest = json.loads((out / "manifest.json").read_text())["outputs"]
    assert manifest["hex/cards-hms-cossack.pdf"]["selection"] == {"units": ["hms-cossack"]}
    assert manifest["hex/cards-uk-destroyers.pdf"]["selection"] == {"nations": ["uk"], "types": ["destroyer"]}
    assert (out / "hex/cards-hms-cossack.pdf").exists()  # the second subset did not replace the first
    bad = cli("build", "--unit", "hms-cossack", "--name", "My Deck", "--out", str(out))
    assert bad.exit_code == 2 and "'my-deck'" in bad.output


@pytest.mark.slow
def test_config_settings_shape_the_outputs_and_their_keys(cli, tmp_repo):
    from pypdf import PdfReader

    (tmp_repo / "wastools.toml").write_text(CONFIG)
    result = cli("build", "--unit", "hms-cossack", "--jobs", "1", root=tmp_repo)
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_repo / "build/manifest.json").read_text())["outputs"]
    assert "off-grid/rulers-a4.pdf" in manifest and not any(k.startswith("hex/") for k in manifest)
    assert not any(k.endswith(".pdf") and "-a4" not in k and k.startswith("off-grid") for k in manifest)
    page = PdfReader(tmp_repo / "build/off-grid/cards-hms-cossack-a4.pdf").pages[0]
    assert round(float(page.mediabox.width), 2) == 595.28
    key = manifest["off-grid/rulers-a4.pdf"]["key"]
    (tmp_repo / "wastools.toml").write_text(CONFIG.replace("leg_in = 2.5", "leg_in = 3"))
    again = cli("build", "--unit", "hms-cossack", "--jobs", "1", root=tmp_repo)
    assert again.exit_code == 0
    manifest = json.loads((tmp_repo / "build/manifest.json").read_text())["outputs"]
    assert manifest["off-grid/rulers-a4.pdf"]["key"] != key
    assert "wrote build/off-grid/rulers-a4.pdf" in again.output


# --- coloured maps --------------------------------------------------------------------------


def test_colour_maps_reach_every_map_job_and_change_its_key(repo):
    from wastools import pipeline as builder
    from wastools.data.config import DEFAULTS
    from wastools.pipeline.plan import sheet_targets

    assert DEFAULTS["build.colour_maps"] is False  # ink-light unless asked
    selection = builder.Selection(variants=("large-map", "hex"))
    plain, coloured = builder.Options(papers=("letter",)), builder.Options(papers=("letter",), colour_maps=True)
    targets = {
        name: {t.path: t for t in sheet_targets(repo, selection, options) + _packs(repo, selection, options)}
        for name, options in (("plain", plain), ("coloured", coloured))
    }
    maps = {rel for rel in targets["plain"] if "/map-" in rel or rel.endswith("-poster.pdf")}
    assert maps == {
        "large-map/map-square.pdf",
        "hex/map-hex.pdf",
        "large-map/map-square-poster.pdf",
        "hex/map-hex-poster.pdf",
        "scenarios/mers-el-kebir-1940-poster.pdf",
        "scenarios/savo-island-1942-poster.pdf",
    }
    for rel in maps | {rel for rel in targets["plain"] if rel.startswith("scenarios/")}:
        assert targets["coloured"][rel].args[-1] is True and targets["plain"][rel].args[-1] is False, rel
        assert targets["coloured"][rel].key != targets["plain"][rel].key, rel


def _packs(repo, selection, options):
    import tempfile

    from wastools.core.store import Store
    from wastools.pipeline.plan import pack_targets, plan_cards

    with tempfile.TemporaryDirectory() as scratch:
        from pathlib import Path

        store = Store(Path(scratch), Path(scratch) / "store")
        return pack_targets(repo, selection, options, plan_cards(repo, selection, options, store))


def test_colour_maps_in_wastools_toml_and_on_the_command_line(cli, tmp_repo):
    (tmp_repo / "wastools.toml").write_text("[build]\ncolour_maps = true\n")
    lines = {line.split()[0]: line for line in cli("config", root=tmp_repo).output.splitlines() if line.strip()}
    assert "true" in lines["build.colour_maps"] and "wastools.toml:2" in lines["build.colour_maps"]
    (tmp_repo / "wastools.toml").write_text('[build]\ncolour_maps = "blue"\n')
    result = cli("config", root=tmp_repo)
    assert result.exit_code != 0 and "wastools.toml:2:1: build.colour_maps: expected true or false" in result.output
    assert "--colour-maps / --no-colour-maps" in cli("build", "--help").output


@pytest.mark.slow
def test_colour_maps_print_a_blue_sea(cli, tmp_repo, tmp_path):
    from tests.e2e.test_print_standard import ink_coverage

    (tmp_repo / "scenarios").mkdir()
    out = tmp_path / "out"
    args = ("build", "--variant", "large-map", "--paper", "letter", "--unit", "hms-cossack", "--jobs", "2")
    assert cli(*args, "--out", str(out / "plain"), root=tmp_repo).exit_code == 0
    result = cli(*args, "--colour-maps", "--out", str(out / "blue"), root=tmp_repo)
    assert result.exit_code == 0, result.output
    light = ink_coverage((out / "plain/large-map/map-square.pdf").read_bytes(), 14)
    blue = ink_coverage((out / "blue/large-map/map-square.pdf").read_bytes(), 14)
    assert light < 0.05 < blue


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--help"], 0, "Usage:"),
        (["build", "--bogus"], 2, "No such option"),
        (["show", "no-such-unit"], 2, "no-such-unit"),
        (["show", "hms-cossack"], 0, "HMS Cossack"),
    ],
)
def test_the_command_exits_with_its_status_and_all_it_printed(args, status, said):
    """``python -m wastools`` (and the installed ``wastools``) leaves without tearing the
    interpreter down (``cli.run``): the status and every line printed must still come out."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "wastools", "--root", str(DATA), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == status, done.stderr
    assert said in done.stdout + done.stderr
