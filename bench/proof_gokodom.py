"""GokoDom players reporting and confirming their own match at the same moment, over real
HTTP (docs/reliability.md). For each match of a Swiss round, in three waves:

1. both players report "I won" at once (each a real parallel request): one report lands,
   the other is refused with a message;
2. each player reads their match card (what they see: a report to confirm, or their own);
3. at once: the opponent confirms twice (a double click, or phone and laptop), while the
   reporter confirms their own report (refused) and changes it to "I lost" from a tab
   opened before (a stale page that still shows the report form).

Then, from the database: a double confirmation is a match with more than one confirmation
acknowledged, result version or confirmation in the log; a lost report is a report
acknowledged to its player that the match does not hold (as its pending report or its
confirmed result) unless the same player replaced it later; an unseen confirmation is a
result recorded from a report other than the one the confirming player was shown.

Used by tests/reliability/test_gokodom_race.py and bench/reliability.py.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.stack import Browser, session_of

SEEN_REPORT = re.compile(r'name="report" value="([^"]*)"')
SEEN_SUMMARY = re.compile(r"reported (?:that )?(.+?)\.</p>")
CONFIRM_FORM = re.compile(r'action="[^"]*/confirm"')


@dataclass
class Player:
    user: Any
    number: str
    browser: Browser | None = None


@dataclass
class Duel:
    match: int
    code: str
    players: tuple[Player, Player]
    reports: list[tuple[str, str, int]] = field(default_factory=list)  # who, outcome, status
    confirms: list[tuple[str, int]] = field(default_factory=list)  # who, status
    confirmer: str = ""
    seen_summary: str = ""
    seen_token: str = ""


@dataclass
class Race:
    matches: int = 0
    reports_acknowledged: int = 0
    reports_refused: int = 0
    confirmations_acknowledged: int = 0
    double_confirmations: list[str] = field(default_factory=list)
    lost_reports: list[str] = field(default_factory=list)
    unseen_confirmations: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        return not (
            self.double_confirmations
            or self.lost_reports
            or self.unseen_confirmations
            or self.errors
        )


def race_round(slug: str, matches: int) -> tuple[Any, list[Duel]]:
    """A GokoDom event of 2 x ``matches`` players, each signed up as a user; its first
    (Swiss) round published."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Match
    from tournaments.services import events, rounds

    owner = get_user_model().objects.create_user(f"{slug}-director", password=None)
    event = events.create_event(
        slug=slug, name=f"GokoDom {slug}", format="gokodom", by=owner, public=True
    )
    for i in range(2 * matches):
        entrant = events.add_entrant(
            event,
            name=f"Player {i + 1}",
            by=owner,
            flags={"colour": "red" if i % 2 == 0 else "blue"},
        )
        entrant.user = get_user_model().objects.create_user(f"{slug}-p{i + 1}", password=None)
        entrant.save(update_fields=["user"])
    rnd = rounds.publish_round(rounds.draft_next_round(event, by=owner).round, by=owner)
    duels = []
    for match in Match.objects.filter(round=rnd).prefetch_related("participants__entrant"):
        seats = [p.entrant for p in match.participants.order_by("seat") if p.entrant_id]
        if len(seats) == 2:
            players = tuple(Player(e.user, str(e.number)) for e in seats)
            duels.append(Duel(match.pk, match.code, players))  # type: ignore[arg-type]
    return event, duels


def _all_at_once(jobs: list[Callable[[], None]]) -> None:
    start = threading.Barrier(len(jobs))
    failures: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        start.wait()
        try:
            job()
        except BaseException as error:  # reported by the caller, never lost in a thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def run(base: str, event: Any, duels: list[Duel]) -> None:
    from django.urls import reverse

    def url(name: str, duel: Duel) -> str:
        return reverse(f"tournaments:gokodom_{name}", args=[event.slug, duel.match])

    for duel in duels:
        for player in duel.players:
            player.browser = Browser(base, session_of(player.user))

    def report(duel: Duel, player: Player, outcome: str) -> Callable[[], None]:
        def act() -> None:
            status, _, _ = player.browser.post(url("report", duel), {"outcome": outcome})
            duel.reports.append((player.number, outcome, status))

        return act

    def confirm(duel: Duel, player: Player, token: str) -> Callable[[], None]:
        def act() -> None:
            data = {"report": token} if token else {}
            status, _, _ = player.browser.post(url("confirm", duel), data)
            duel.confirms.append((player.number, status))

        return act

    _all_at_once([report(d, p, "W") for d in duels for p in d.players])
    card = reverse("tournaments:gokodom_player", args=[event.slug])
    for duel in duels:
        for player in duel.players:
            _, _, page = player.browser.get(card, htmx=True)
            summary = SEEN_SUMMARY.search(page)
            if CONFIRM_FORM.search(page):
                duel.confirmer = player.number
                duel.seen_summary = html.unescape(summary.group(1)) if summary else ""
                token = SEEN_REPORT.search(page)
                duel.seen_token = html.unescape(token.group(1)) if token else ""
    jobs = []
    for duel in duels:
        confirmer = next((p for p in duel.players if p.number == duel.confirmer), None)
        reporter = next((p for p in duel.players if p.number != duel.confirmer), None)
        if confirmer is None or reporter is None:
            continue
        jobs += [confirm(duel, confirmer, duel.seen_token)] * 2
        jobs += [confirm(duel, reporter, ""), report(duel, reporter, "L")]
    _all_at_once(jobs)


def audit(event: Any, duels: list[Duel]) -> Race:
    from tournaments.models import AuditEntry, Match, ResultChange

    race = Race(matches=len(duels))
    log = list(AuditEntry.objects.filter(event=event).order_by("pk"))
    for duel in duels:
        match = Match.objects.select_related("round").get(pk=duel.match)
        subject = f"{match.round.label} {match.code}:"
        mine = [e for e in log if e.subject.startswith(subject)]
        reported = [e.after for e in mine if e.action == "gokodom.result_reported"]
        confirmed = [e for e in mine if e.action == "gokodom.result_confirmed"]
        acked = [r for r in duel.reports if r[2] == 200]
        confirms = [c for c in duel.confirms if c[1] == 200]
        race.reports_acknowledged += len(acked)
        race.reports_refused += sum(r[2] == 422 for r in duel.reports)
        race.confirmations_acknowledged += len(confirms)
        odd = [s for _, _, s in duel.reports if s not in (200, 422)]
        odd += [s for _, s in duel.confirms if s not in (200, 422)]
        if odd or not duel.confirmer:
            race.errors.append(f"{match.code}: answers {odd}, confirmer {duel.confirmer!r}")
        versions = ResultChange.objects.filter(match=match).count()
        if len(confirms) > 1 or len(confirmed) > 1 or versions > 1:
            race.double_confirmations.append(
                f"{match.code}: {len(confirms)} acknowledged, {len(confirmed)} logged, "
                f"{versions} result versions"
            )
        if len(reported) != len(acked):
            race.lost_reports.append(f"{match.code}: {len(acked)} acknowledged, logged {reported}")
        held = match.details.get("report") or {}
        if reported and _content(reported[-1]) != _content(held):
            race.lost_reports.append(f"{match.code}: last report {reported[-1]}, holds {held}")
        # the report confirmed is the one the page showed: its time stamp (the page gives
        # the result from the player's side, "that you lost", not the summary's words)
        if confirmed and (
            held.get("at") != duel.seen_token or match.details.get("results") != held.get("results")
        ):
            race.unseen_confirmations.append(
                f"{match.code}: shown '{duel.seen_summary}', recorded '{held.get('summary')}'"
            )
    return race


def _content(entry: dict[str, Any]) -> tuple[Any, ...]:
    return entry.get("by"), entry.get("results"), entry.get("at")
