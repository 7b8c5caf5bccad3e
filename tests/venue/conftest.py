"""The venue tests' fixtures: a venue and a public Arbiter as real processes, each on a
PostgreSQL database made for the test module, and the link between them (harness.py,
proxy.py). A module shares one pair (starting it costs seconds); its tests use events of
their own. Locally they skip with the reason when PostgreSQL is missing; under CI=true they
fail."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.venue.harness import Pair, postgres_settings


def need_postgres() -> None:
    try:
        postgres_settings()
    except AssertionError as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(str(missing))
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    """Both instances up, the link open. The module's tests must leave the link open and
    both instances running (the `link` fixture restores the link after each test)."""
    need_postgres()
    with Pair.start(tmp_path_factory.mktemp("venue-pair")) as running:
        yield running


@pytest.fixture
def link(pair: Pair) -> Iterator[object]:
    """The pair's link, restored after the test whatever the test left it in; the
    instances' logs are printed (pytest shows them when the test failed)."""
    pair.link.restore()
    yield pair.link
    pair.link.restore()
    print(pair.logs())
