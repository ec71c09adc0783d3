"""WeasyPrint loaded without a compiler run per library name.

WeasyPrint opens its system libraries (GObject, Pango, HarfBuzz, Fontconfig) by trying
several names for each, one per platform. For every name that is not a file, cffi asks
``ctypes.util.find_library``, which on Linux runs ``ldconfig``, ``gcc`` and ``ld`` for it:
24 names, each a few child processes, in each worker of every build. Each list of names also holds the
library's soname (``libpango-1.0.so.0``), which the dynamic linker finds by itself; so on
Linux, while WeasyPrint is imported here, ``find_library`` answers "not found" and the
library is opened by its soname, from the same place the linker would give
``find_library``'s answer. Should that fail on some system, WeasyPrint is imported again
the ordinary way.
"""

from __future__ import annotations

import ctypes.util
import sys


def load_weasyprint() -> None:
    if "weasyprint" in sys.modules or not sys.platform.startswith("linux"):
        import weasyprint  # noqa: F401

        return
    original = ctypes.util.find_library
    ctypes.util.find_library = _not_found
    try:
        import weasyprint  # noqa: F401

        return
    except OSError:
        _forget_weasyprint()
    finally:
        ctypes.util.find_library = original
    import weasyprint  # noqa: F401, F811 (the ordinary way)


def _not_found(name: str) -> str | None:
    del name  # every name: the soname WeasyPrint also tries is opened instead
    return None


def _forget_weasyprint() -> None:
    """What a failed import left of WeasyPrint, so that the next import starts afresh."""
    for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
        del sys.modules[name]
