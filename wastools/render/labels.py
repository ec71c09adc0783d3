"""Where the words of a map go: beside their symbols or inside their areas, clear of every
other word, symbol, mark and page edge. Pure geometry on boxes; the map draws what it finds.

A word's box is measured as a PDF reader measures it (the font size from just under the
baseline), so what these functions keep apart, tests that read the PDF find apart.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Point = tuple[float, float]

DESCENT = 0.24  # of the font size below the baseline, as a reader measures a word (above: 1 - DESCENT)
PAD = 1.0  # clear space kept round every word
TRIES = 400  # places tried inside an area before its name goes beside it: bounded work on any map


def text_box(cx: float, baseline: float, width: float, size: float, pad: float = PAD) -> Box:
    """The box of a line of text centred on ``cx``, padded by ``pad``."""
    low = baseline - DESCENT * size
    return cx - width / 2 - pad, low - pad, cx + width / 2 + pad, low + size + pad


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def within(box: Box, bounds: Box) -> bool:
    return bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1] and box[3] <= bounds[3]


def shrink(box: Box, by: float) -> Box:
    return box[0] + by, box[1] + by, box[2] - by, box[3] - by


def square(point: Point, radius: float) -> Box:
    return point[0] - radius, point[1] - radius, point[0] + radius, point[1] + radius


class Taken:
    """The boxes already used on a page, filed by the cells of a coarse grid that each box
    covers, so that asking whether a new box is free looks only at its neighbours: a hex
    map names thousands of hexes, and every word placed is tried in many places."""

    CELL = 48.0  # points

    def __init__(self, boxes: Iterable[Box] = ()) -> None:
        self._boxes: list[Box] = []
        self._cells: dict[tuple[int, int], list[Box]] = {}
        for box in boxes:
            self.append(box)

    @classmethod
    def of(cls, boxes: Iterable[Box]) -> Taken:
        return boxes if isinstance(boxes, Taken) else cls(boxes)

    def _cells_of(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self.CELL
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def append(self, box: Box) -> None:
        self._boxes.append(box)
        for cell in self._cells_of(box):
            self._cells.setdefault(cell, []).append(box)

    def __add__(self, more: Iterable[Box]) -> Taken:
        return Taken([*self._boxes, *more])

    def __iter__(self) -> Iterator[Box]:
        return iter(self._boxes)

    def __len__(self) -> int:
        return len(self._boxes)

    def meets(self, box: Box) -> bool:
        """Whether ``box`` overlaps a box taken (``overlaps``, written out: this is the
        innermost test of placing words, called millions of times on a crowded map)."""
        x0, y0, x1, y1 = box
        c, cells = self.CELL, self._cells
        for i in range(math.floor(x0 / c), math.floor(x1 / c) + 1):
            for j in range(math.floor(y0 / c), math.floor(y1 / c) + 1):
                for other in cells.get((i, j), ()):
                    if x0 < other[2] and other[0] < x1 and y0 < other[3] and other[1] < y1:
                        return True
        return False


def free(box: Box, taken: Iterable[Box], bounds: Box) -> bool:
    return within(box, bounds) and not Taken.of(taken).meets(box)


@dataclass(frozen=True)
class Placed:
    """A word placed: centre x, baseline, its box, and a leader line from what it names
    when it sits away from it."""

    x: float
    baseline: float
    box: Box
    leader: tuple[Point, Point] | None = None


def _nearest_on(box: Box, point: Point) -> Point:
    return min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3])


def _segment_meets(a: Point, b: Point, box: Box) -> bool:
    """Whether a line from a to b passes through a box (sampled finely enough for words)."""
    steps = max(2, int(max(abs(b[0] - a[0]), abs(b[1] - a[1])) / 1.5))
    return any(
        box[0] < a[0] + (b[0] - a[0]) * k / steps < box[2] and box[1] < a[1] + (b[1] - a[1]) * k / steps < box[3]
        for k in range(1, steps)
    )


def beside(
    anchor: Point,
    radius: float,
    width: float,
    size: float,
    taken: Iterable[Box],
    bounds: Box,
    rings: int = 10,
    around: Box | None = None,
) -> Placed | None:
    """A label beside a symbol of ``radius`` at ``anchor`` (or beside the box ``around``, an
    area's extent): right, left, below or above it, then its corners; then the same one step
    further out at a time, with a leader line from the anchor that crosses no other word
    (or, as a last resort, one that does). None when nothing within ``rings`` steps is free."""
    taken = Taken.of(taken)
    start = around or square(anchor, radius)
    for strict in (True, False):
        for ring in range(rings + 1):
            for cx, baseline in _around(start, anchor, ring * (size + 2) + 2 + 2 * PAD, width, size):
                box = text_box(cx, baseline, width, size)
                if not free(box, taken, bounds):
                    continue
                if ring == 0:
                    return Placed(cx, baseline, box)
                end = _nearest_on(box, anchor)
                crossing = any(_segment_meets(anchor, end, other) for other in taken if not overlaps(other, start))
                if not (strict and crossing):
                    return Placed(cx, baseline, box, (anchor, end))
    return None


def _around(start: Box, anchor: Point, d: float, width: float, size: float) -> list[tuple[float, float]]:
    """Centre and baseline of a line of text ``d`` off each side and corner of a box."""
    x0, y0, x1, y1 = start
    ax, ay = anchor
    middle = ay - (0.5 - DESCENT) * size  # the baseline that centres a line on the anchor
    below, above = y0 - d - (1 - DESCENT) * size, y1 + d + DESCENT * size
    right, left = x1 + d + width / 2, x0 - d - width / 2
    slide = max(0.0, width / 2 - (x1 - x0) / 2)
    return [
        (right, middle),
        (left, middle),
        (ax, below),
        (ax, above),
        (ax + slide, below),
        (ax - slide, below),
        (ax + slide, above),
        (ax - slide, above),
        (right, below),
        (left, below),
        (right, above),
        (left, above),
    ]


def inside_area(
    candidates: Iterable[Point],
    holds: Callable[[Point], bool],
    width: float,
    size: float,
    taken: Iterable[Box],
    bounds: Box,
    reach: str = "all",
) -> Placed | None:
    """A label inside an area: at the first of ``candidates`` (ordered by preference) whose
    box lies in the area and is free. ``reach`` says how much of it must: "all" (each
    corner and the middle), "ends" (its middle and ends: a long name along a narrow area)
    or "middle" (a name too long for its area, centred on it). At most ``TRIES`` candidates
    in the area are tried, so a map crowded with areas costs a bounded time per name."""
    taken = Taken.of(taken)
    held = (p for p in candidates if holds(p))
    for cx, cy in itertools.islice(held, TRIES):
        baseline = cy - (0.5 - DESCENT) * size
        box = text_box(cx, baseline, width, size)
        points: tuple[Point, ...] = ()
        if reach == "all":
            points = ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]))
        elif reach == "ends":
            points = ((box[0] + size, cy), (box[2] - size, cy))
        if free(box, taken, bounds) and all(holds(p) for p in points):  # the cheaper test first
            return Placed(cx, baseline, box)
    return None


def spread(bounds: Box, step: float) -> list[Point]:
    """Points on a grid over a box, ``step`` apart, ordered from the box's middle outwards."""
    x0, y0, x1, y1 = bounds
    cols, rows = max(1, int((x1 - x0) / step)), max(1, int((y1 - y0) / step))
    points = [
        (x0 + (i + 0.5) * (x1 - x0) / cols, y0 + (j + 0.5) * (y1 - y0) / rows) for i in range(cols) for j in range(rows)
    ]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    return sorted(points, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
