"""'Did you mean' for every name a person types: difflib's closest matches."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, options: Iterable[str], n: int = 3) -> list[str]:
    """The valid names closest to ``word`` (case-insensitive), best first."""
    choices = sorted({str(o) for o in options})
    lowered = {c.lower(): c for c in choices}
    found = difflib.get_close_matches(str(word).lower(), list(lowered), n=n, cutoff=0.6)
    if not found:  # 'ryujou' vs 'ijn-ryujo': compare with the part after a prefix too
        tails = {c.split("-", 1)[-1].lower(): c for c in choices if "-" in c}
        found = [tails[t] for t in difflib.get_close_matches(str(word).lower(), list(tails), n=n, cutoff=0.7)]
        return found
    return [lowered[f] for f in found]


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """' (did you mean 'speed'?)' or '' when nothing is close."""
    found = closest(word, options)
    if not found:
        return ""
    return " (did you mean " + " or ".join(repr(f) for f in found) + "?)"


def unknown(kind: str, word: str, options: Iterable[str]) -> str:
    """ "unknown nation 'germnay' (did you mean 'germany'?)", listing the valid names when few."""
    options = sorted({str(o) for o in options})
    hint = did_you_mean(word, options)
    if not hint and len(options) <= 12:
        hint = f" (one of: {', '.join(options)})"
    return f"unknown {kind} {word!r}{hint}"
