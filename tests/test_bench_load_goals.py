"""`make bench-load` fails when the load scenario misses a goal of issue 24 (p95 under
300 ms for all requests, no error, no lost save), and passes when all are met."""

from bench.load import goals_missed


def row(name, p95, failures=0):
    return {"Name": name, "95%": str(p95), "Failure Count": str(failures)}


def test_a_run_within_every_goal_passes():
    assert goals_missed([row("standings", 120), row("Aggregated", 180)], 0, 300) == []


def test_each_missed_goal_is_named():
    rows = [row("standings", 900, failures=2), row("save", 100), row("Aggregated", 410, 2)]
    missed = goals_missed(rows, lost=1, p95_goal_ms=300)
    assert missed == [
        "MISSED: p95 of all requests 410 ms > 300 ms",
        "MISSED: 2 requests failed",
        "MISSED: 1 saves lost",
    ]


def test_a_run_without_statistics_is_a_miss():
    assert goals_missed([], 0, 300)
