"""Directors saving into the same matches at once, over real HTTP (docs/reliability.md).

Each client is a director at the results desk of one shared round: it reads the desk (the
version of each row as the page shows it), types for a moment, and saves one row with the
version it read. Every save must either land or come back as a conflict the client sees
(409 with the other result); afterwards the result history (ResultChange, one row per
version) and the stored results must account for every save that landed:

- lost: a save acknowledged as saved with no history row of its own;
- silently overwritten: a save that landed over a result its client never saw (its row's
  version is not the version the client read + 1: someone else's save in between was
  replaced without either of them being told);
- unexplained: a history row no acknowledged save accounts for;
- the history of each match is one unbroken chain (each row's "before" is the previous
  row's "after") ending in what the match stores.

Used by tests/reliability/test_shared_saves.py and bench/reliability.py.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.stack import Browser, session_of

SCORE_ROWS = re.compile(r'<form id="match-(\d+)".*?name="version" value="(\d+)"', re.S)


@dataclass
class Attempt:
    client: int
    match: int
    expected: int  # the version the client read
    scores: list[int]  # unique per attempt: [client + 1, attempt number]
    outcome: str = "error"  # saved, conflict or error
    status: int = 0


@dataclass
class Audit:
    attempts: int = 0
    saved: int = 0
    conflicts: int = 0
    errors: int = 0
    history_rows: int = 0
    lost: int = 0
    silently_overwritten: int = 0
    unexplained_rows: int = 0
    broken_chains: list[str] = field(default_factory=list)
    final_mismatches: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def holds(self) -> bool:
        """Every save landed or was a conflict the client saw; none landed over a result its
        client had not seen; the history holds each landed save once, in an unbroken chain,
        ending in what is stored."""
        return (
            self.errors == 0
            and self.silently_overwritten == 0
            and self.saved + self.conflicts == self.attempts
            and self.lost == 0
            and self.unexplained_rows == 0
            and self.history_rows == self.saved
            and not self.broken_chains
            and not self.final_mismatches
        )


def shared_round(slug: str, matches: int, clients: int) -> tuple[Any, list[Any]]:
    """A round robin event whose first round (``matches`` open matches) is published, and
    ``clients`` directors of it (the creator first)."""
    from django.contrib.auth import get_user_model

    from tournaments.models import EventDirector
    from tournaments.services import events, rounds

    users = [
        get_user_model().objects.create_user(f"{slug}-director-{i + 1}", password=None)
        for i in range(clients)
    ]
    event = events.create_event(
        slug=slug, name=f"Shared desk {slug}", format="round_robin", by=users[0], public=True
    )
    for user in users[1:]:
        EventDirector.objects.create(event=event, user=user)
    for i in range(2 * matches):
        events.add_entrant(event, name=f"Player {i + 1}", rating=2000 - i, by=users[0])
    rounds.publish_round(rounds.draft_next_round(event, by=users[0]).round, by=users[0])
    return event, users


def run(
    base: str, event: Any, users: list[Any], *, saves: int, think: float = 0.05, seed: int = 9
) -> tuple[list[Attempt], float]:
    """Each user saves ``saves`` times into random matches of round 1, in parallel."""
    from django.urls import reverse

    from tournaments.models import Match

    desk = reverse("tournaments:manage_round", args=[event.slug, 1])
    match_ids = list(
        Match.objects.filter(round__event=event, round__number=1).values_list("pk", flat=True)
    )
    sessions = [session_of(user) for user in users]
    attempts: list[list[Attempt]] = [[] for _ in users]
    start = threading.Barrier(len(users))

    def client(i: int) -> None:
        browser = Browser(base, sessions[i])
        rng = random.Random(seed * 1000 + i)
        start.wait()
        for n in range(saves):
            match = rng.choice(match_ids)
            status, _, page = browser.get(desk)
            versions = {int(m): int(v) for m, v in SCORE_ROWS.findall(page)}
            attempt = Attempt(i, match, versions.get(match, -1), [i + 1, n], status=status)
            attempts[i].append(attempt)
            if status != 200 or match not in versions:
                continue
            time.sleep(rng.uniform(0, think))  # typing the result
            url = reverse("tournaments:manage_result", args=[event.slug, match])
            data = {"version": attempt.expected, "g1-s0": i + 1, "g1-s1": n}
            attempt.status, _, row = browser.post(url, data)
            if attempt.status == 200 and 'data-saved="1"' in row:
                attempt.outcome = "saved"
            elif attempt.status == 409 and 'role="alert"' in row:
                attempt.outcome = "conflict"  # the row shows the other result and its version

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(users))]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [a for mine in attempts for a in mine], time.monotonic() - started


def audit(event: Any, attempts: list[Attempt], seconds: float = 0.0) -> Audit:
    """What the database holds against what the clients were told."""
    from tournaments.models import Match, ResultChange

    found = Audit(attempts=len(attempts), seconds=seconds)
    found.saved = sum(a.outcome == "saved" for a in attempts)
    found.conflicts = sum(a.outcome == "conflict" for a in attempts)
    found.errors = sum(a.outcome == "error" for a in attempts)
    history: dict[int, list[Any]] = defaultdict(list)
    for row in ResultChange.objects.filter(match__round__event=event).order_by("match", "version"):
        history[row.match_id].append(row)
    found.history_rows = sum(len(rows) for rows in history.values())
    by_scores = {(m, tuple(_scores(r.after))): r for m, rows in history.items() for r in rows}
    claimed = set()
    for attempt in attempts:
        if attempt.outcome != "saved":
            continue
        row = by_scores.get((attempt.match, tuple(attempt.scores)))
        if row is None:
            found.lost += 1
            continue
        claimed.add(row.pk)
        if row.version != attempt.expected + 1:
            found.silently_overwritten += 1
    found.unexplained_rows = found.history_rows - len(claimed)
    for match in Match.objects.filter(round__event=event).prefetch_related("games"):
        rows = history.get(match.pk, [])
        previous = {"games": [], "result": None}
        for row in rows:
            if _state(row.before) != _state(previous):
                found.broken_chains.append(f"match {match.pk} v{row.version}")
            previous = row.after
        stored = {"games": [g.scores for g in match.games.order_by("number")]}
        if rows and (
            match.version != rows[-1].version
            or stored["games"] != [g["scores"] for g in rows[-1].after["games"]]
        ):
            found.final_mismatches.append(f"match {match.pk}")
    return found


def _scores(state: dict[str, Any]) -> list[Any]:
    games = state.get("games") or []
    return list(games[0]["scores"]) if games else []


def _state(state: dict[str, Any] | None) -> tuple[Any, Any]:
    state = state or {}
    return [g.get("scores") for g in state.get("games") or []], state.get("result")
