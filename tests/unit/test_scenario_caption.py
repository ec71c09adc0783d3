"""The site's map caption in sentences, true to what the pack prints."""

from __future__ import annotations

import dataclasses

from wastools.site.scenario import map_caption


def test_the_caption_says_what_the_pack_prints(repo):
    savo = repo.scenarios["savo-island-1942"]
    text = map_caption(savo, "hexes of 6 cm")
    assert text.startswith("The map is hexes of 6 cm. North is up. Positions name hexes")
    assert text.endswith("over several pages.") and " in in" not in text
    denmark = repo.scenarios["denmark-strait-1941"]  # a plain table with pack ice
    assert map_caption(denmark, "").startswith("A plain table, measured from its edges: no grid. North is up.")
    assert map_caption(denmark, "").endswith("over several pages.")
    open_sea = dataclasses.replace(denmark, data={**denmark.data, "terrain": []})
    assert map_caption(open_sea, "").endswith("the pack prints this plan, to measure from, and no map pages.")
