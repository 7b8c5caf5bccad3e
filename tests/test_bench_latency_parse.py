"""bench.latency reads the standings parts from the worker's log: the warm-up save is not
counted there either, as it is not in the latencies (issue 33: its whole recompute, 1.5 s
at the WOC 10,000, was always the largest part, so the printed p95 of 21 parts was the
slowest of the 20 counted saves)."""

from __future__ import annotations

from bench.latency import _p, _parse

CHANGED = "1 matches changed"
LOG = f"""\
standings of event 7 v40 published in 1.552 s (whole; compute 1.3, store 0.2, commit 0.01)
outlook of event 7 v40 attached in 2.100 s
standings of event 8 v41 published in 9.000 s ({CHANGED}; compute 9, store 0, commit 0)
standings of event 7 v41 published in 0.100 s ({CHANGED}; compute 0.04, store 0.05, commit 0.01)
outlook of event 7 v41 attached in 1.400 s
standings of event 7 v42 published in 0.236 s ({CHANGED}; compute 0.15, store 0.07, commit 0.01)
outlook of event 7 v42 attached in 1.500 s
"""


def test_the_warm_up_saves_publication_is_not_counted(tmp_path):
    log = tmp_path / "worker.log"
    log.write_text(LOG)
    phases: dict[str, list[float]] = {}
    parts, outlooks, incremental, whole = _parse(log, 7, phases, after=40)
    assert parts == [0.1, 0.236]
    assert outlooks == [1.4, 1.5]
    assert (incremental, whole) == (2, 0)
    assert phases == {"compute": [0.04, 0.15], "store": [0.05, 0.07], "commit": [0.01, 0.01]}
    # without it, every publication of the event counts (the warm-up's whole one too)
    assert _parse(log, 7)[0] == [1.552, 0.1, 0.236]


def test_the_p95_of_twenty_is_the_nineteenth():
    assert _p([float(n) for n in range(1, 21)], 0.95) == 19.0
    assert _p([float(n) for n in range(1, 22)], 0.95) == 20.0  # 21 values: the second largest
