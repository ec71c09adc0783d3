"""What a build was asked for: which units and variants (``Selection``) and how to print
them (``Options``), and the names of the files that follow from them."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..core.model import Repository, Unit
from ..render import sheets
from ..variants import VARIANTS, Variant


@dataclass(frozen=True)
class Selection:
    variants: tuple[str, ...] = ()
    nations: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    name: str | None = None  # what a subset's files are called (default: from the filters)
    scenarios: tuple[str, ...] = ()  # only these scenario packs (and nothing else)

    @property
    def is_everything(self) -> bool:
        """No unit filter: every deck is whole, so the outputs every deck shares may be made."""
        return not (self.nations or self.sets or self.types or self.units or self.scenarios)

    def label(self) -> str:
        """'' for the whole deck; else the part of a file name that says which subset it is:
        ``uk``, ``uk+us``, ``uk_destroyer``, or the given name."""
        if not (self.nations or self.sets or self.types or self.units):
            return ""
        if self.name:
            return self.name
        groups = ["+".join(sorted(values)) for values in (self.nations, self.sets, self.types, self.units) if values]
        text = "_".join(groups)
        return text if len(text) <= 60 else "selection-" + hashlib.sha256(text.encode()).hexdigest()[:10]

    def describe(self) -> dict[str, list[str]]:
        """The filters, for the manifest."""
        pairs = (("nations", self.nations), ("sets", self.sets), ("types", self.types), ("units", self.units))
        return {k: sorted(v) for k, v in pairs if v}

    def chosen_variants(self) -> list[Variant]:
        return [VARIANTS[v] for v in (self.variants or tuple(VARIANTS))]

    def chosen_units(self, repo: Repository) -> list[Unit]:
        def keep(u: Unit) -> bool:
            return (
                (not self.nations or u.nation in self.nations)
                and (not self.sets or u.set in self.sets)
                and (not self.types or u.type in self.types)
                and (not self.units or u.id in self.units)
            )

        return [u for u in repo.units.values() if keep(u)]


@dataclass(frozen=True)
class Options:
    papers: tuple[str, ...] = ("letter", "a4")
    profile: sheets.PrinterProfile = sheets.PrinterProfile()
    backs: bool = False
    bleed: bool = False
    jobs: int = 2
    params: tuple[tuple[str, str, str], ...] = ()  # (variant, key, value) overrides
    colour_maps: bool = False  # boards with a blue sea instead of ink-light white

    def variant_params(self, variant: Variant) -> dict:
        return variant.resolve({k: v for name, k, v in self.params if name == variant.name})


def paper_suffix(paper: str) -> str:
    return "" if paper == "letter" else f"-{paper}"


def deck_name(variant: str, paper: str, options: Options, label: str = "") -> str:
    suffix = paper_suffix(paper) + ("-bleed" if options.bleed else "") + ("-duplex" if options.backs else "")
    return f"{variant}/cards{'-' + label if label else ''}{suffix}.pdf"


def layout_name(paper: str, options: Options) -> str:
    return f"{paper}-bleed" if options.bleed else paper


def card_bleed(options: Options) -> float:
    """The bleed every card face of this build is laid out with (the first paper's layout)."""
    return sheets.shared_layout(layout_name(options.papers[0], options)).get("bleed", 0) if options.papers else 0.0
