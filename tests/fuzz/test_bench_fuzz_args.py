"""bench.fuzz takes its options as the README and docs write them (issue 20: `--only imports`
with a space was ignored, and every group ran)."""

from __future__ import annotations

import pytest

from bench import fuzz


@pytest.mark.parametrize("argv", [["--only", "imports", "7"], ["7", "--only=imports"]])
def test_only_runs_the_group_named(monkeypatch, argv):
    ran = []
    monkeypatch.setattr(fuzz, "run_group", lambda name, n: ran.append((name, n)) or [])
    monkeypatch.setattr(fuzz, "atheris_run", lambda n: ran.append(("atheris", n)) or [])
    fuzz.main(argv)
    assert ran == [("imports", 7)]


def test_an_unknown_group_is_refused(capsys):
    with pytest.raises(SystemExit):
        fuzz.main(["--only", "everything"])
    assert "invalid choice" in capsys.readouterr().err
