"""Coverage-guided fuzzing (atheris) of the WOF parser and the event-file checker.

    python bench/fuzz_atheris.py wof|eventfile -runs=10000

Any exception other than the parser's own refusal (WofError, ServiceError) is a crash:
atheris stops and prints the input. The event-file checker reads the database only to
see whether the slug is taken; it runs on a throwaway SQLite file.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    from rules.formats.woc import wof


def wof_target(data: bytes) -> None:
    text = atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(len(data))
    try:
        wof.parse(text)
    except wof.WofError as refused:
        lines = max(len(text.splitlines()), 1)
        assert all(1 <= n <= lines for n, _ in refused.problems), refused.problems


def eventfile_target(data: bytes) -> None:
    from tournaments.services import eventfile
    from tournaments.services.errors import ServiceError

    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return
    try:
        eventfile.validate(document)
    except ServiceError as refused:
        assert all(p.text for p in refused.problems)


def main() -> None:
    target = sys.argv.pop(1)
    if target == "eventfile":
        var = tempfile.mkdtemp(prefix="arbiter-fuzz-")
        os.environ.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=f"sqlite:///{var}/fuzz.sqlite3",
            REDIS_URL="",
            ARBITER_VAR_DIR=var,
        )
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        with atheris.instrument_imports():
            from tournaments.services import eventfile  # noqa: F401
        seed = os.path.join(var, "corpus")
        os.makedirs(seed)
        from bench.event import event_file

        with open(os.path.join(seed, "seed.json"), "w") as handle:
            json.dump(event_file("seed", entrants=4, played=1), handle)
        sys.argv.append(seed)
        atheris.Setup(sys.argv, eventfile_target)
    else:
        atheris.Setup(sys.argv, wof_target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
