"""Contention in the bracket formats against brute force: the WPF ladder's "two losses", GokoDom's
single elimination, and the dispatcher for every format."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.contention import contention
from rules.contention.explore import pending_by_score
from rules.contention.types import Finish, Status
from rules.contract import EventState, GameState, MatchState
from rules.formats.wpf_playoffs import ENGINE as WPF
from rules.formats.wpf_playoffs.simulate import simulate, winning

from .test_contention_support import brute_status, check_sound, completions, unfinish


def _wpf_menu(state: EventState, match: MatchState) -> list[MatchState]:
    return [
        dataclasses.replace(
            match, games=(GameState(1, (None, None), details={"submissions": winning(seat)}),)
        )
        for seat in (0, 1)
    ]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kept", [9, 10])
def test_wpf_two_losses_eliminate_and_fewer_keep_a_player_alive(seed: int, kept: int) -> None:
    """The FINAL ("Championship") pairs the unbeaten player with the one-loss player: with two
    losses a player cannot win; with fewer, some outcome wins it. Brute force over the heats
    left."""
    season = simulate(random.Random(seed))
    state = dataclasses.replace(season, rounds=season.rounds[:kept])
    state = unfinish(state, random.Random(seed), 0.5)
    result = contention(state)
    found: dict[str, list[Finish]] = {}
    for done in completions(state, WPF, _wpf_menu, pending_by_score(WPF)):
        standings = WPF.standings(done)
        assert standings.final
        for row in standings.tables[0].rows:
            found.setdefault(row.entrant, []).append(Finish.IN if row.rank == 1 else Finish.OUT)
    for entrant, finishes in found.items():
        check_sound(result.of(entrant).win.status, finishes, entrant)
        assert result.of(entrant).win.status is brute_status(finishes), entrant


def test_wpf_reason_names_the_losses() -> None:
    season = simulate(random.Random(3))
    state = dataclasses.replace(season, rounds=season.rounds[:8])
    texts = {row.win.reason.text for row in contention(state).entrants}
    assert any(
        text.startswith("eliminated: 2 losses") or "losses: in the" in text for text in texts
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "format_key", ["round_robin", "freestyle", "bot_contest", "wpf_playoffs", "gokodom", "woc"]
)
def test_every_format_answers_for_every_entrant_at_every_round(format_key: str) -> None:
    """Smoke: every format gives a verdict with a reason for each entrant, at each round."""
    from tournaments.simulation import cut
    from tournaments.simulation import simulate as simulate_event

    size = {"freestyle": 16, "wpf_playoffs": 16}.get(format_key, 8)
    full = simulate_event(format_key, size, 5)
    for rounds in range(1, len(full.rounds) + 1, 2):
        state = cut(full, rounds)
        result = contention(state)
        assert result.entrants
        for row in result.entrants:
            assert row.win.reason.text.startswith(row.win.status.value + ":")
            assert row.win.status in set(Status)
