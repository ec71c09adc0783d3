"""The only way WeasyPrint may load anything: the project's templates, assets and fonts.

Any other URL (http, data, a file elsewhere) stops the build. Untrusted text never
reaches here because every value is escaped, so a fetch outside the allowed folders is a
bug or an injection and must not be rendered quietly.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from ..core.errors import WastoolsError
from ..core.resources import ASSETS, FONT_SCHEME, FONTS, PACKAGE, TEMPLATES

__all__ = ["ASSETS", "FONTS", "PACKAGE", "TEMPLATES", "ProjectFetcher", "ForbiddenResource"]


class ForbiddenResource(WastoolsError, FatalURLFetchingError):
    pass


class ProjectFetcher(URLFetcher):
    def __init__(self, allowed: tuple[Path, ...] = (TEMPLATES, ASSETS)):
        super().__init__(fail_on_errors=True)
        self.allowed = tuple(p.resolve() for p in allowed)

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        path = self.resolve(url)
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": _mime(path)})

    def resolve(self, url: str) -> Path:
        if url.startswith(FONT_SCHEME):
            name = url[len(FONT_SCHEME) :]
            path = (FONTS / name).resolve()
            if path.parent == FONTS and path.suffix == ".ttf" and path.is_file():
                return path
            raise ForbiddenResource(f"no such project font: {url}")
        parts = urlsplit(url)
        if parts.scheme != "file":
            raise ForbiddenResource(f"refused to fetch {url[:120]!r}: only project files may be loaded")
        path = Path(unquote(parts.path)).resolve()
        if not any(path.is_relative_to(folder) for folder in self.allowed) or not path.is_file():
            raise ForbiddenResource(f"refused to read {path}: outside the project's templates and assets")
        return path


def _mime(path: Path) -> str:
    return {".css": "text/css", ".ttf": "font/ttf", ".svg": "image/svg+xml", ".png": "image/png"}.get(
        path.suffix, "application/octet-stream"
    )
