"""How a duplex printer turns paper, as the tests model it (independent of the code's own
geometry): paper goes through portrait; a landscape page is turned a quarter turn onto it,
counterclockwise by default (its top to the paper's left) or clockwise (its top to the
paper's right); a long-edge flip turns the paper about its long axis, a short-edge flip about
its short one; the back offset is measured in the paper's frame, on the portrait calibration
sheet."""

from __future__ import annotations

CCW, CW = "counterclockwise", "clockwise"


def to_paper(x: float, y: float, w: float, h: float, turn: str = CCW) -> tuple[float, float]:
    """A point of a w x h page on the (portrait) paper."""
    if h >= w:
        return x, y
    return (h - y, x) if turn == CCW else (y, w - x)


def from_paper(u: float, v: float, w: float, h: float, turn: str = CCW) -> tuple[float, float]:
    if h >= w:
        return u, v
    return (v, h - u) if turn == CCW else (w - v, u)


def behind(x: float, y: float, w: float, h: float, edge: str, turn: str = CCW) -> tuple[float, float]:
    """The back page's point behind the front page's (x, y), by turning the paper."""
    u, v = to_paper(x, y, w, h, turn)
    pw, ph = min(w, h), max(w, h)
    u, v = (pw - u, v) if edge == "long" else (u, ph - v)
    return from_paper(u, v, w, h, turn)


def paper_shift(dx: float, dy: float, w: float, h: float, turn: str = CCW) -> tuple[float, float]:
    """A shift (dx, dy) of the paper's frame, in the frame of a w x h page."""
    x0, y0 = from_paper(0, 0, w, h, turn)
    x1, y1 = from_paper(dx, dy, w, h, turn)
    return x1 - x0, y1 - y0
