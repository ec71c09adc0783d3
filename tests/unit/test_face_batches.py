"""How missing card faces are shared out between the workers (``pipeline.cards.batches``),
for any mix of units and bleeds: every card once, in order, one bleed a batch, a unit's
cards never split (they share one head, laid out once)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wastools.pipeline.cards import BATCH, CardSpec, batches

cards = st.lists(st.tuples(st.sampled_from(["", "a", "b", "c", "d"]), st.sampled_from([0.0, 9.0])), max_size=80)


def _specs(drawn):
    ordered = sorted(drawn, key=lambda c: (c[1], c[0]))  # as missing_faces orders them
    return [CardSpec(f"k{i}", lambda _body_max: "<p>back</p>", unit, bleed) for i, (unit, bleed) in enumerate(ordered)]


@given(drawn=cards, jobs=st.integers(1, 4))
def test_every_card_once_in_order_one_bleed_a_batch_and_no_unit_split(drawn, jobs):
    specs = _specs(drawn)
    out = list(batches(specs, jobs))
    assert [key for batch, _bleed in out for key, *_ in batch] == [s.key for s in specs]
    bleed_of = {s.key: s.bleed for s in specs}
    assert all({bleed_of[key] for key, *_ in batch} == {bleed} for batch, bleed in out)
    unit_of = {s.key: (s.unit, s.bleed) for s in specs}
    homes: dict[tuple[str, float], set[int]] = {}
    for i, (batch, _bleed) in enumerate(out):
        for key, *_ in batch:
            if unit_of[key][0]:
                homes.setdefault(unit_of[key], set()).add(i)
    assert all(len(batch_indexes) == 1 for batch_indexes in homes.values())
    assert all(len(batch) <= BATCH or len({unit_of[k] for k, *_ in batch}) == 1 for batch, _ in out)


def test_one_units_cards_take_one_worker_and_two_units_two():
    one = _specs([("a", 0.0)] * 7)
    two = _specs([("a", 0.0)] * 7 + [("b", 0.0)] * 7)
    assert len(list(batches(one, 2))) == 1
    assert [len(b) for b, _ in batches(two, 2)] == [7, 7]
