#!/usr/bin/env python3
"""`make bench`: the build-speed goals, measured in one run as ratios (machines are noisy).

Each measure runs as its own process, as a user would, on a scratch copy of the data, so
the repository's own build/ and cards/ are untouched:

- REF: a fixed WeasyPrint job (40 plain card-sized pages, laid out and written), the
  yardstick for this machine, as issue 16 defines it ("WeasyPrint lays out 40 plain
  card-sized pages in 0.73 s"): the job's own time, timed inside its process once Python has
  started and imported WeasyPrint (start-up and imports took as long again as the job, and
  are printed for information). The median of five runs, three before the cold build and two
  right after it, because the speed of a shared machine drifts over the minutes a cold build
  takes (every run is printed);
- a cold build of every output (with an empty store), a no-op rebuild, each of the one-unit
  edits users make to HMS Cossack (points, a stat, an attack, an ability, a historical
  figure, its name), and `wastools validate` on the whole repository (with the store as the
  builds left it; then once more without it, for reference);
- peak memory of the cold build: the sum of the resident sizes of the build and all its
  worker processes, sampled every 50 ms;
- per stage (from the build's own report, named in plain words; the site included):
  seconds spent, cards laid out, layouts per card, card sheets imposed;
- the card fast paths (for information, in this process): of the densest units' cards in
  every variant, how many bodies ``card_body`` drew and how many WeasyPrint documents
  their heads and layers took (tests assert only that every route prints the same card).

Goals (issue 28): cold <= 35 REF, every one-unit edit <= 3 REF, no-op <= 0.5 REF, validate
<= 1 REF, peak memory <= 1.5 GiB. Exit status 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WASTOOLS = [sys.executable, "-m", "wastools"]
# prints the seconds of the job itself: the interpreter's start and the imports are not REF
REF_JOB = r"""
import time
from weasyprint import HTML
started = time.perf_counter()
pages = "".join(f'<section style="width:180pt;height:252pt;page-break-after:always;border:0.6pt solid #444">'
                f'<h1 style="font-size:12pt">Card {i}</h1>' + "<p>Range 0 1 2 3 dice 7 7 6 5</p>" * 12 + "</section>"
                for i in range(40))
style = "@page { size: 180pt 252pt; margin: 0 } body { margin: 0 }"
HTML(string=f"<html><head><style>{style}</style></head><body>{pages}</body></html>").write_pdf()
print(time.perf_counter() - started)
"""
GIB = 1024**3


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo += children.get(current, [])
    return out


def _rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


# Python as a user's shell runs it: it keeps the compiled modules it writes. A session that
# sets PYTHONDONTWRITEBYTECODE would have every run compile the tool's modules again (a tenth
# of a second), which no user pays after the first build
USER_ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(
    args: list[str], env: dict | None = None, memory: bool = False, output: list[str] | None = None
) -> tuple[float, int]:
    """Seconds of a command and, with ``memory``, the peak summed RSS (bytes) of it and its
    children (0 without: sampling every process's /proc entry every 50 ms takes a tenth of a
    core, which a short build would feel); what it prints goes into ``output`` when given."""
    started = time.perf_counter()
    stdout = subprocess.PIPE if output is not None else subprocess.DEVNULL
    process = subprocess.Popen(args, stdout=stdout, stderr=subprocess.PIPE, env=env or USER_ENVIRONMENT)
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, _rss(_descendants(process.pid)))
            stop.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    if memory:
        sampler.start()
    out, err = process.communicate()
    if output is not None:
        output.append(out.decode())
    stop.set()
    if memory:
        sampler.join()
    if process.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{err.decode(errors='replace')[-2000:]}")
    return time.perf_counter() - started, peak


def ref_run() -> tuple[float, float]:
    """One run of the REF job: (the job's own seconds, the seconds of its whole process)."""
    printed: list[str] = []
    process_seconds, _ = run([sys.executable, "-c", REF_JOB], output=printed)
    return float(printed[0].split()[-1]), process_seconds


def stage_report(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def _bump(pattern: str, text: str, by: int = 1) -> str:
    """The first number matched by ``pattern`` (a regex with one group) changed ``by``."""
    import re

    match = re.search(pattern, text, flags=re.M)
    assert match, pattern
    number = match.group(1)
    changed = str(int(number) + by) if number.isdigit() else f"{float(number) + by:g}"
    return text[: match.start(1)] + changed + text[match.end(1) :]


# the one-unit edits users make, each on HMS Cossack (a destroyer in two scenarios)
EDITS = {
    "points": lambda t: _bump(r"^points: (\d+)$", t, -1),  # cheaper: a scenario's points limit still holds
    "stats (hull)": lambda t: _bump(r"^hull: (\d+)$", t),
    "attacks": lambda t: _bump(r"^  main: \[(\d+)", t),
    "abilities": lambda t: t.replace("  - Chase the Salvoes\n", "", 1),
    "facts (top speed)": lambda t: _bump(r"value: (\d+(?:\.\d+)?)", t),
    "name": lambda t: t.replace("name: HMS Cossack", "name: HMS Cossack (F03)", 1),
}


# the densest cards of the data: long names, Extended Range, carriers, several abilities
DENSE_UNITS = ("gneisenau", "akagi", "hatsukaze", "camicia-nere", "a6m2-zero-kamikaze", "yamato", "i-19")


def fast_path_counts() -> str:
    """How often the card fast paths are taken on ``DENSE_UNITS`` in every variant."""
    sys.path.insert(0, str(ROOT))
    from wastools.data import repository
    from wastools.render import card_body, cards
    from wastools.variants import VARIANTS

    repo = repository.validate(ROOT).repository
    assert repo is not None, "the data is invalid"
    drawn, original = 0, card_body.draw

    def counting(view, bleed=0.0):
        nonlocal drawn
        body = original(view, bleed)
        drawn += body is not None
        return body

    views = [
        cards.card_view(v.adapt(repo.units[u], v.defaults()), v, repo)
        for v in VARIANTS.values()
        for u in DENSE_UNITS
        if u in repo.units
    ]
    card_body.draw = counting
    try:
        _pdfs, documents = cards.lay_out_cards([str(cards.render_card_html(x)) for x in views], count=True, views=views)
    finally:
        card_body.draw = original
    return f"{len(views)} cards of {len(DENSE_UNITS)} units: {drawn} bodies drawn, {documents} WeasyPrint documents"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", default=[], help="limit the builds to a variant (repeatable)")
    options = parser.parse_args()
    extra = [a for v in options.variant for a in ("--variant", v)]
    # one run of a 1 s job varies by a third on a busy 2-core machine, and the machine's speed
    # drifts during a cold build: the median of runs before and after it
    ref_runs = [ref_run() for _ in range(3)]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "data"
        for folder in ("cards", "schemas", "scenarios", "rules"):
            if (ROOT / folder).is_dir():
                shutil.copytree(ROOT / folder, root / folder)
        for name in ("wastools.toml",):
            if (ROOT / name).exists():
                shutil.copy(ROOT / name, root / name)
        env = {**USER_ENVIRONMENT, "WASTOOLS_CACHE": str(Path(scratch) / "cache")}  # an empty store: cold
        cold_report, change_report = Path(scratch) / "cold.json", Path(scratch) / "change.json"
        base = ["--root", str(root), "build", *extra]
        cold, peak = run(WASTOOLS + base + ["--report", str(cold_report)], env, memory=True)
        ref_runs += [ref_run() for _ in range(2)]
        refs = [job for job, _process in ref_runs]
        ref = statistics.median(refs)
        ref_process = statistics.median(process for _job, process in ref_runs)
        noop, _ = run(WASTOOLS + base, env)
        unit = root / "cards" / "uk" / "hms-cossack.yaml"
        edits = {}
        for kind, edit in EDITS.items():
            before = unit.read_text()
            unit.write_text(edit(before))
            assert unit.read_text() != before, kind
            edits[kind], _ = run(WASTOOLS + base + ["--report", str(change_report)], env)
        validate, _ = run(WASTOOLS + ["--root", str(root), "validate", "--quiet"], env)
        shutil.rmtree(Path(scratch) / "cache", ignore_errors=True)  # for reference: every file parsed
        validate_uncached, _ = run(WASTOOLS + ["--root", str(root), "validate", "--quiet"], env)
        cold_stages, change_stages = stage_report(cold_report), stage_report(change_report)
    rows = [
        ("REF (40 plain card pages)", ref, "1 REF", None),
        ("  REF runs (before, after)", None, " ".join(f"{r:.2f}" for r in refs), None),
        ("  REF process (info)", ref_process, "with start, imports", None),
        ("cold build", cold, f"{cold / ref:.1f} REF", cold / ref <= 35),
        *(
            (f"one-unit edit: {kind}", seconds, f"{seconds / ref:.2f} REF", seconds / ref <= 3)
            for kind, seconds in edits.items()
        ),
        ("no-op build", noop, f"{noop / ref:.2f} REF", noop / ref <= 0.5),
        ("validate", validate, f"{validate / ref:.2f} REF", validate / ref <= 1),
        ("validate, no cache (info)", validate_uncached, f"{validate_uncached / ref:.2f} REF", None),
    ]
    print(f"{'measure':<34}{'seconds':>9}  {'ratio':<20}goal")
    for name, seconds, ratio, met in rows:
        shown = "" if seconds is None else f"{seconds:9.2f}"
        print(f"{name:<34}{shown:>9}  {ratio:<20}{'' if met is None else 'met' if met else 'MISSED'}")
    print(f"{'peak memory (cold, all processes)':<43}{peak / GIB:.2f} GiB  {'met' if peak <= 1.5 * GIB else 'MISSED'}")
    for title, stages in (("cold build", cold_stages), ("last one-unit edit", change_stages)):
        if not stages:
            continue
        print(f"\n{title}: stages (seconds of work, summed over workers)")
        for stage, seconds in stages.get("stages", {}).items():
            print(f"  {stage:<26}{seconds:8.2f}")
        if stages.get("milestones"):
            reached = ", ".join(f"{name} {seconds:.2f}" for name, seconds in stages["milestones"].items())
            print(f"  seconds from the start: {reached}")
        cards = stages.get("cards_laid_out", 0)
        layouts = stages.get("card_layouts", 0)
        print(
            f"  cards laid out {cards}, layouts per card {layouts / cards if cards else 0:.2f}; "
            f"outputs written {stages.get('written', 0)}, unchanged {stages.get('unchanged', 0)}; "
            f"store entries pruned {stages.get('store_entries_pruned', 0)}"
        )
    print(f"\ncard fast paths (info): {fast_path_counts()}")
    missed = [name for name, _s, _r, met in rows if met is False] + (["memory"] if peak > 1.5 * GIB else [])
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
