"""Player aids laid out with WeasyPrint from the sections in ``wastools.aids``."""

from __future__ import annotations

from ..content.aids import aid, colophon
from ..core import templating
from ..core.resources import TEMPLATES
from ..variants import VARIANTS
from .pages import EITHER_PAPER, PAPERS, with_check_bars

SHORT_TABLE = 12  # rows: a table this short is kept on one page, never split a row or two from the rest


def aid_layout(name: str, repo, params: dict, moved: tuple = ()) -> bytes:
    """The aid laid out for either paper (``pages.EITHER_PAPER``), as WeasyPrint writes it:
    the costly step, done once for both papers."""
    from weasyprint import HTML

    from .fetcher import ProjectFetcher

    env = templating.environment(TEMPLATES)
    sections = aid(name, repo, params, moved)
    html = env.get_template("aid/aid.html.j2").render(
        variant=VARIANTS[name],
        sections=sections,
        colophon=colophon(sections),
        page=EITHER_PAPER,
        short_table=SHORT_TABLE,
    )
    return HTML(
        string=html, base_url=(TEMPLATES / "aid" / "aid.html.j2").as_uri(), url_fetcher=ProjectFetcher()
    ).write_pdf()


def aid_pdf(
    name: str,
    repo,
    params: dict,
    paper: str,
    key: str | None = None,
    moved: tuple = (),
    layout: bytes | None = None,
) -> tuple[bytes, int]:
    """The player aid on ``paper``: its layout (``layout``, else laid out now) placed in the
    middle of the sheet, with the check bars."""
    pdf = layout if layout is not None else aid_layout(name, repo, params, moved)
    return with_check_bars(pdf, f"{VARIANTS[name].title}: player aid", key, PAPERS[paper])
