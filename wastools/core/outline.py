"""Plane geometry for the shapes on a map, in work that grows with what is drawn, not with
the map times the number of pages: which hexes an area covers (one sweep a column), the
outline of a set of hexes as closed rings, a polygon cut to a page's box, and the runs of an
outline that a page shows. Pure functions on points (x, y) in map points."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable

from .geometry import hex_radius

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Segment = tuple[Point, Point]


def points_in_polygon(
    polygon: list[Point], columns: Iterable[tuple[float, list[float]]], tolerance: float
) -> list[Point]:
    """The points of a grid given column by column (``x``, the column's ``y`` values) that lie
    inside ``polygon`` or within ``tolerance`` of its outline: one vertical sweep per column
    (where its line crosses the outline, and the stretches near the outline), so the work
    grows with columns x corners + points, not points x corners."""
    edges = list(zip(polygon, polygon[1:] + polygon[:1], strict=True))
    low, high = min(p[0] for p in polygon) - tolerance, max(p[0] for p in polygon) + tolerance
    inside = []
    for x, ys in columns:
        if not low <= x <= high:
            continue
        crossings, near = _sweep(edges, x, tolerance)
        for y in ys:
            ahead = len(crossings) - bisect.bisect_right(crossings, y)
            if ahead % 2 or _in_bands(near, y):
                inside.append((x, y))
    return inside


def _sweep(edges: list[Segment], x: float, tol: float) -> tuple[list[float], list[tuple[float, float]]]:
    """Where the vertical line at ``x`` crosses the outline (sorted), and the merged stretches
    of it that lie within ``tol`` of an edge."""
    crossings = []
    bands = []
    for (x1, y1), (x2, y2) in edges:
        if (x1 > x) != (x2 > x):
            crossings.append(y1 + (x - x1) * (y2 - y1) / (x2 - x1))
        band = _near_edge(x1, y1, x2, y2, x, tol)
        if band is not None:
            bands.append(band)
    crossings.sort()
    return crossings, _merged(bands)


def _near_edge(x1: float, y1: float, x2: float, y2: float, x: float, tol: float) -> tuple[float, float] | None:
    """The stretch of the vertical line at ``x`` within ``tol`` of a segment: the line meets
    the segment's rounded band (a convex shape) in one stretch, the hull of where it meets the
    two end discs and the straight middle."""
    pieces = []
    for px, py in ((x1, y1), (x2, y2)):
        if abs(x - px) <= tol:
            half = math.sqrt(tol * tol - (x - px) ** 2)
            pieces.append((py - half, py + half))
    dx, dy = x2 - x1, y2 - y1
    length_sq = dx * dx + dy * dy
    if dx == 0:
        if length_sq and abs(x - x1) <= tol:
            pieces.append((min(y1, y2), max(y1, y2)))
    else:
        mid = y1 + (x - x1) * dy / dx  # the segment's line at x
        half = tol * math.sqrt(length_sq) / abs(dx)
        low, high = mid - half, mid + half
        if dy:  # the foot of the perpendicular must fall on the segment
            ends = sorted(y1 + (t * length_sq - (x - x1) * dx) / dy for t in (0.0, 1.0))
            low, high = max(low, ends[0]), min(high, ends[1])
        elif not 0 <= (x - x1) * dx <= length_sq:
            low, high = 1.0, 0.0
        if low <= high:
            pieces.append((low, high))
    if not pieces:
        return None
    return min(p[0] for p in pieces), max(p[1] for p in pieces)


def _merged(bands: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for low, high in sorted(bands):
        if out and low <= out[-1][1]:
            out[-1][1] = max(out[-1][1], high)
        else:
            out.append([low, high])
    return [(a, b) for a, b in out]


def _in_bands(bands: list[tuple[float, float]], y: float) -> bool:
    i = bisect.bisect_right(bands, (y, math.inf)) - 1
    return i >= 0 and bands[i][0] <= y <= bands[i][1]


# a flat-topped hex grid on a lattice of half-radius columns and quarter-hex rows, where
# every centre and corner has whole coordinates: a hex's corners (at 0, 60, ... degrees),
# and the neighbour across the edge from corner k to corner k + 1
CORNER_STEPS = ((2, 0), (1, 2), (-1, 2), (-2, 0), (-1, -2), (1, -2))
NEIGHBOUR_STEPS = ((3, 2), (0, 4), (-3, 2), (-3, -2), (0, -4), (3, -2))
LatticeEdge = tuple[tuple[int, int], tuple[int, int]]


def _outline(centres: Iterable[Point], flat: float) -> tuple[list[LatticeEdge], float, float]:
    """The outline edges of a set of hexes on the lattice, and the lattice's units."""
    unit_x, unit_y = hex_radius(flat) / 2, flat / 4
    cells = {(round(x / unit_x), round(y / unit_y)) for x, y in centres}
    edges = []
    for i, j in sorted(cells):
        for k, (di, dj) in enumerate(NEIGHBOUR_STEPS):
            if (i + di, j + dj) not in cells:
                (ai, aj), (bi, bj) = CORNER_STEPS[k], CORNER_STEPS[(k + 1) % 6]
                edges.append(((i + ai, j + aj), (i + bi, j + bj)))
    return edges, unit_x, unit_y


def hex_union_edges(centres: Iterable[Point], flat: float) -> list[Segment]:
    """The outline of a set of flat-topped hexes: every edge whose neighbour is not in the
    set, each running anticlockwise round its own hex. Hexes are matched on the grid's
    lattice (whole numbers), not as floating-point positions."""
    edges, ux, uy = _outline(centres, flat)
    return [((a[0] * ux, a[1] * uy), (b[0] * ux, b[1] * uy)) for a, b in edges]


def hex_rings(centres: Iterable[Point], flat: float) -> list[list[Point]]:
    """The outline of a set of hexes as closed rings (the outer ones anticlockwise, holes
    clockwise), to fill: three hexes meet at each corner, so one edge of the outline leaves
    each corner it reaches, and the rings chain on the lattice without any doubt."""
    edges, ux, uy = _outline(centres, flat)
    leaving = dict(edges)
    out = []
    while leaving:
        start, end = next(iter(leaving.items()))
        del leaving[start]
        ring = [start]
        while end != start and end in leaving:
            ring.append(end)
            end = leaving.pop(end)
        out.append([(i * ux, j * uy) for i, j in ring])
    return out


def clip_polygon(points: list[Point], box: Box) -> list[Point]:
    """The part of a polygon inside ``box`` (Sutherland-Hodgman against its four sides)."""
    x0, y0, x1, y1 = box
    for inside, cut in (
        (lambda p: p[0] >= x0, lambda p, q: _at_x(p, q, x0)),
        (lambda p: p[0] <= x1, lambda p, q: _at_x(p, q, x1)),
        (lambda p: p[1] >= y0, lambda p, q: _at_y(p, q, y0)),
        (lambda p: p[1] <= y1, lambda p, q: _at_y(p, q, y1)),
    ):
        if not points:
            break
        kept = []
        for i, p in enumerate(points):
            q = points[i - 1]
            if inside(p):
                if not inside(q):
                    kept.append(cut(q, p))
                kept.append(p)
            elif inside(q):
                kept.append(cut(q, p))
        points = kept
    return points


def _at_x(p: Point, q: Point, x: float) -> Point:
    t = (x - p[0]) / (q[0] - p[0])
    return x, p[1] + t * (q[1] - p[1])


def _at_y(p: Point, q: Point, y: float) -> Point:
    t = (y - p[1]) / (q[1] - p[1])
    return p[0] + t * (q[0] - p[0]), y


def meets(a: Point, b: Point, box: Box) -> bool:
    """Whether a segment's bounding box meets ``box`` (a cheap, generous test)."""
    return (
        max(a[0], b[0]) >= box[0]
        and min(a[0], b[0]) <= box[2]
        and max(a[1], b[1]) >= box[1]
        and min(a[1], b[1]) <= box[3]
    )


def visible_runs(points: list[Point], box: Box | None) -> list[tuple[float, list[Point]]]:
    """The closed outline of ``points`` as runs of consecutive segments that may show in
    ``box``, each with its distance along the outline from the first point (where a dash
    pattern stands at its start); the whole outline, its first point again at the end, when
    every segment may show."""
    n = len(points)
    pairs = [(points[i], points[(i + 1) % n]) for i in range(n)]
    if box is None or all(meets(a, b, box) for a, b in pairs):
        return [(0.0, list(points) + [points[0]])]
    runs: list[tuple[float, list[Point]]] = []
    along = 0.0
    for a, b in pairs:
        if meets(a, b, box):
            if runs and runs[-1][1][-1] == a:
                runs[-1][1].append(b)
            else:
                runs.append((along, [a, b]))
        along += math.dist(a, b)
    return runs
