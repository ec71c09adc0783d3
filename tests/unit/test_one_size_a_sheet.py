"""``one_size_a_sheet``: every sheet's cards at the largest body size all of them fit at."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from wastools.core.store import Store
from wastools.pipeline.cards import CardSpec, one_size_a_sheet
from wastools.render.card_fit import MAX_PT


@dataclass
class View:
    size_pt: float


def sized_view(own: float, body_max: float) -> View:
    """A card that fits at ``own`` alone, laid out at most at ``body_max``."""
    return View(min(own, body_max))


def deck(sizes: list[float | None]) -> list[CardSpec]:
    return [
        CardSpec(f"card{n}", partial(sized_view, s) if s is not None else partial(lambda _m: "<back>"))
        for n, s in enumerate(sizes)
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from([6.0, 7.0, 8.0]), st.none()), max_size=30),
    st.sampled_from([6, 9]),
)
def test_each_sheet_takes_its_smallest_card_and_only_larger_cards_change(sizes, per_sheet):
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch), Path(scratch) / "store")
        specs = deck(sizes)
        sized = one_size_a_sheet(store, specs, per_sheet)
        again = one_size_a_sheet(store, specs, per_sheet)  # sizes read back from the store
    assert [s.key for s in again] == [s.key for s in sized] and len(sized) == len(specs)
    for start in range(0, len(specs), per_sheet):
        sheet = list(zip(specs[start : start + per_sheet], sized[start : start + per_sheet], strict=True))
        laid = [after.view(after.body_max) for _before, after in sheet]
        bodies = {v.size_pt for v in laid if not isinstance(v, str)}
        own = [s for s in sizes[start : start + per_sheet] if s is not None]
        assert bodies == ({min(own)} if own else set())
        for (before, after), size in zip(sheet, sizes[start : start + per_sheet], strict=True):
            changed = size is not None and size > min(own)
            assert (after.key != before.key) == changed
            assert after.body_max == (min(own) if changed else MAX_PT)


def test_a_carrier_beside_fighters_sets_its_sheet_at_the_carriers_size():
    """Akagi fits only at 6 pt; the fighters beside it at 8: the whole sheet is set at 6, the
    next sheet (fighters only) stays at 8."""
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch), Path(scratch) / "store")
        sized = one_size_a_sheet(store, deck([8.0, 6.0, 8.0, 8.0, 8.0]), 3)
    assert [s.view(s.body_max).size_pt for s in sized] == [6.0, 6.0, 6.0, 8.0, 8.0]
