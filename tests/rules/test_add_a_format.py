"""A format added by the recipe of docs/formats/README.md ("How to add a format"): a package
with its engine, checker, contention, simulation and words, and one registration. The toy
format here (a duel: two entrants, one game, the higher score wins) is written to a
temporary folder, registered under its key, and then played, checked, weighed for contention
and said in words through the same lookups the real formats go through (issue 23, item 1).

The web side (its FormatUI, screens and demo) is the tournaments side's part of the recipe.
"""

from __future__ import annotations

import dataclasses
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import checkers, registry, words
from rules.contention import Status, contention
from rules.contract import GameState
from tournaments import simulation  # pure: the simulations simulate_event runs

PACKAGE = "toy_duel_format"

SOURCES = {
    "__init__.py": '''
        """A duel: two entrants, one game, the higher score wins."""

        from .engine import ENGINE, DuelEngine

        __all__ = ["ENGINE", "DuelEngine"]
    ''',
    "engine.py": """
        from __future__ import annotations

        from rules.contract import (
            Column,
            EngineError,
            EventState,
            Finished,
            MatchScore,
            MatchState,
            Participant,
            PlannedMatch,
            Problem,
            Reason,
            RoundPlan,
            Standings,
            StandingRow,
            StandingsTable,
        )
        from rules.engine_base import SettingsMixin


        class DuelEngine(SettingsMixin):
            key = "duel"
            name = "Duel"
            settings = ()

            def next_round(self, state, draws):
                if len(state.entrants) != 2:
                    raise EngineError([Problem("duel.two", "entrants")])
                if state.rounds:
                    return Finished(Reason("duel.finished"))
                first, second = sorted(state.entrants, key=lambda e: (e.seed or 0, e.id))
                seats = (Participant(first.id, "A"), Participant(second.id, "B"))
                match = PlannedMatch("D", seats, reasons=(Reason("duel.pairing"),))
                return RoundPlan(1, "Duel", (match,))

            def score_match(self, state, match: MatchState) -> MatchScore:
                if not match.games or None in match.games[0].scores:
                    return MatchScore((0, 0), complete=False)
                a, b = match.games[0].scores
                if a == b:
                    return MatchScore((0, 0), problems=(Problem("duel.no_tie", "scores"),))
                winner = 0 if a > b else 1
                return MatchScore((1 - winner, winner), winner, summary=f"{a}-{b}")

            def standings(self, state: EventState) -> Standings:
                points = {e.id: 0 for e in state.entrants}
                final = False
                for rnd in state.rounds:
                    for match in rnd.matches:
                        score = self.score_match(state, match)
                        if score.complete and score.valid:
                            final = True
                            for seat, won in zip(match.participants, score.points):
                                points[seat.entrant] += won
                rows = tuple(
                    StandingRow(e, 1 + sum(p > points[e] for p in points.values()), {"won": won})
                    for e, won in sorted(points.items(), key=lambda item: -item[1])
                )
                table = StandingsTable("overall", "Duel", (Column("won", "Won"),), rows)
                return Standings((table,), final=final)


        ENGINE = DuelEngine()
    """,
    "checker.py": '''
        """Written from the rules of the duel, not from the engine."""

        from rules.checkers.common import Report, ids, played_rounds


        def check(state, standings=None) -> Report:
            report = Report()
            winner = None
            for rnd in played_rounds(state):
                report.rounds += 1
                if rnd.number != 1 or len(rnd.matches) != 1:
                    report.add("duel: one match", "A duel is one match.", round=rnd.number)
                for match in rnd.matches:
                    report.pairings += 1
                    for game in match.games:
                        report.scores += 1
                        a, b = game.scores
                        if a == b:
                            report.add("duel: no tie", "A duel has a winner.", match=match.code)
                        else:
                            winner = ids(match)[0 if a > b else 1]
            if standings is not None and winner is not None:
                for row in standings.tables[0].rows:
                    report.rows += 1
                    if (row.rank == 1) != (row.entrant == winner):
                        report.add("duel: the winner first", "Wrong rank.", entrant=row.entrant)
            return report
    ''',
    "contention.py": """
        from rules.contention.types import Contention, EntrantContention, Method, verdict

        from .engine import ENGINE


        def contention(state, standings=None) -> Contention:
            standings = standings or ENGINE.standings(state)
            rows = []
            for row in standings.tables[0].rows:
                if not standings.final:
                    win = verdict("contention.win.alive.duel_to_play")
                elif row.rank == 1:
                    win = verdict("contention.win.clinched.duel_won")
                else:
                    win = verdict("contention.win.eliminated.duel_lost")
                rows.append(EntrantContention(row.entrant, win))
            return Contention(state.format, "", "", tuple(rows), Method.EXACT)
    """,
    "simulate.py": """
        import dataclasses

        from rules import variations
        from rules.contract import (
            EntrantState,
            EventState,
            GameState,
            MatchState,
            RoundPlan,
            RoundState,
            RoundStatus,
        )
        from rules.draws import DrawSource

        from .engine import ENGINE


        def play_event(count, rng, vary=variations.NONE):
            people = [EntrantState(f"e{n}", f"Player {n}", seed=n) for n in range(1, count + 1)]
            state = EventState("duel", {}, tuple(people))
            while isinstance(plan := ENGINE.next_round(state, DrawSource("duel")), RoundPlan):
                a = rng.randint(0, 9)
                b = (a + rng.randint(1, 9)) % 10
                matches = tuple(
                    MatchState(m.code, plan.number, m.participants, (GameState(1, (a, b)),))
                    for m in plan.matches
                )
                played = RoundState(plan.number, plan.label, RoundStatus.COMPLETED, matches)
                state = dataclasses.replace(state, rounds=(*state.rounds, played))
            return state
    """,
    "words.py": """
        from rules.words import gettext_noop as _

        WORDS = {
            "duel.two": _("A duel needs exactly two entrants."),
            "duel.finished": _("The duel has been played."),
            "duel.pairing": _("The higher seed sits first."),
            "duel.no_tie": _("A duel cannot end in a tie."),
            "contention.win.alive.duel_to_play": _("alive: the duel is still to play"),
            "contention.win.clinched.duel_won": _("clinched: won the duel"),
            "contention.win.eliminated.duel_lost": _("eliminated: lost the duel"),
        }
    """,
}


@pytest.fixture
def duel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    folder = tmp_path / PACKAGE
    folder.mkdir()
    for name, source in SOURCES.items():
        (folder / name).write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register("duel", PACKAGE)  # the one line a plugin or a test writes
    try:
        yield "duel"
    finally:
        registry.unregister("duel")
        for name in [n for n in sys.modules if n.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_the_engine_is_found_by_key(duel: str) -> None:
    assert duel in registry.formats()
    assert registry.get(duel).name == "Duel"
    assert (duel, "Duel") in registry.choices()


def test_it_is_simulated_through_the_same_lookup_as_every_format(duel: str) -> None:
    assert duel in simulation.SIMULATORS
    state = simulation.simulate(duel, 2, seed=5)
    assert state.format == duel
    assert [len(r.matches) for r in state.rounds] == [1]
    assert registry.get(duel).standings(state).final


def test_it_is_checked_through_rules_checkers(duel: str) -> None:
    state = simulation.simulate(duel, 2, seed=5)
    engine = registry.get(duel)
    assert duel in checkers.CHECKERS
    report = checkers.audit(state, engine.standings(state))
    assert report.violations == []
    assert (report.rounds, report.pairings, report.scores, report.rows) == (1, 1, 1, 2)
    # a record broken on purpose: the game tied
    (rnd,) = state.rounds
    (match,) = rnd.matches
    tied = dataclasses.replace(match, games=(GameState(1, (4, 4)),))
    broken = dataclasses.replace(state, rounds=(dataclasses.replace(rnd, matches=(tied,)),))
    assert [v.rule for v in checkers.check(broken)] == ["duel: no tie"]


def test_its_contention_is_computed_and_said_in_its_words(duel: str) -> None:
    state = simulation.simulate(duel, 2, seed=5)
    engine = registry.get(duel)
    (rnd,) = state.rounds
    (match,) = rnd.matches
    before = dataclasses.replace(
        state, rounds=(dataclasses.replace(rnd, matches=(dataclasses.replace(match, games=()),)),)
    )
    assert {row.win.status for row in contention(before).entrants} == {Status.ALIVE}
    assert contention(before).entrants[0].win.reason.text == "alive: the duel is still to play"
    after = contention(state, engine.standings(state))
    winner = match.participants[engine.score_match(state, match).winner or 0].entrant
    assert after.of(winner or "").win.status is Status.CLINCHED
    assert after.of(winner or "").win.reason.text == "clinched: won the duel"


def test_its_words_are_in_the_catalogue_while_it_is_registered(duel: str) -> None:
    assert f"{PACKAGE}.words" in words.modules()
    assert words.render("duel.two", {}) == "A duel needs exactly two entrants."
    registry.unregister(duel)
    try:
        assert "duel.two" not in words.catalogue()
        assert duel not in checkers.CHECKERS and duel not in simulation.SIMULATORS
        with pytest.raises(registry.UnknownFormat):
            registry.get(duel)
    finally:
        registry.register(duel, PACKAGE)


def test_a_key_cannot_be_taken_twice() -> None:
    with pytest.raises(ValueError, match="already"):
        registry.register("woc", "somewhere.else")
    with pytest.raises(ValueError, match="built-in"):
        registry.unregister("woc")
    assert registry.package("woc") == "rules.formats.woc"
