"""Every kind of job the build runs has a stage name in plain words (the build report and
`make bench` print them), never a function's name."""

from __future__ import annotations

from tests.conftest import DATA
from wastools import build as builder


def test_every_output_job_has_a_plain_stage_name(repo):
    options = builder.Options()
    jobs = builder.sheet_targets(repo, builder.Selection(), options, DATA)
    functions = {job[0] for _rel, _key, job in jobs}
    functions |= {builder._assemble_deck, builder._scenario_pack, builder._calibration}
    assert {"_square_poster", "_hex_poster", "_scenario_poster"} <= {f.__name__ for f in functions}
    for fn in functions:
        name = builder.stage_name(fn)
        assert not name.startswith("_") and name == builder.STAGES[fn.__name__], fn.__name__
