"""The tool's own files (templates, layouts and their schema), found inside the package
with importlib.resources, so an installed wheel and a checkout read the same files."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import reportlab

PACKAGE = Path(str(files("wastools")))  # wheels install unzipped: a real folder
TEMPLATES = PACKAGE / "templates"
LAYOUTS = PACKAGE / "layouts"
LAYOUT_SCHEMA = LAYOUTS / "layout.schema.json"
ASSETS = PACKAGE / "assets"
# Bitstream Vera ships with ReportLab: the same font for WeasyPrint and ReportLab
# drawings, identical on every machine that installs the project.
FONTS = Path(reportlab.__file__).resolve().parent / "fonts"
FONT_SCHEME = "wastools-font:"  # how card and site CSS name a project font
