"""Player aids laid out with WeasyPrint from the sections in ``wastools.aids``."""

from __future__ import annotations

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..content.aids import aid, colophon
from ..core.resources import TEMPLATES
from ..variants import VARIANTS
from .pages import with_check_bars
from .scenario_pack import PAGE_SIZES


def aid_pdf(name: str, repo, params: dict, paper: str, key: str | None = None, moved: tuple = ()) -> tuple[bytes, int]:
    from weasyprint import HTML

    from .fetcher import ProjectFetcher

    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
    )
    sections = aid(name, repo, params, moved)
    html = env.get_template("aid/aid.html.j2").render(
        variant=VARIANTS[name], sections=sections, colophon=colophon(sections), page=PAGE_SIZES[paper]
    )
    pdf = HTML(
        string=html, base_url=(TEMPLATES / "aid" / "aid.html.j2").as_uri(), url_fetcher=ProjectFetcher()
    ).write_pdf()
    return with_check_bars(pdf, f"{VARIANTS[name].title}: player aid", key)
