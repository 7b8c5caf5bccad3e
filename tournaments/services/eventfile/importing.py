"""A validated JSON event file into the database (docs/event-file.md).

An imported event keeps its recorded pairings as they were; the engine scores their games
and pairs what comes next. The file is checked whole (schema.validate) before anything is
written, and the whole import is one transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import (
    Entrant,
    Event,
    EventDirector,
    Game,
    Group,
    GroupMember,
    Match,
    MatchParticipant,
    RandomDraw,
    ResultChange,
    Round,
    Stage,
    Team,
)
from tournaments.services import audit, standings
from tournaments.services.eventfile.export import export_event
from tournaments.services.eventfile.schema import validate
from tournaments.services.result_json import score_json
from tournaments.services.state import load_event_state, match_state, rounds_queryset


def import_event(
    data: Any,
    *,
    by: Any,
    slug: str | None = None,
    now: dt.datetime | None = None,
    limited: bool = True,
    progress: Callable[[float], None] | None = None,
) -> Event:
    """Create an event from an event file; all or nothing. ``progress`` hears the share of
    the rows written (0 to 1) as the rounds go in."""
    now = now or timezone.now()
    clean = validate(data, slug=slug, limited=limited)
    ev = clean["event"]
    with transaction.atomic():
        event = Event.objects.create(
            slug=ev["slug"],
            name=ev["name"],
            format=ev["format"],
            settings=ev["settings"],
            status=ev["status"],
            public=ev["public"],
            starts_on=ev["starts_on"],
            ends_on=ev["ends_on"],
            time_zone=ev["time_zone"],
            venue=ev["venue"],
            external_draws=ev["external_draws"],
            created_by=by if getattr(by, "is_authenticated", False) else None,
            **({"random_seed": ev["random_seed"]} if ev["random_seed"] else {}),
        )
        if getattr(by, "is_authenticated", False):  # who imports it directs it (issue 12)
            EventDirector.objects.create(event=event, user=by)
        entrants, rounds = _write_contents(event, clean, by=by, now=now, progress=progress)
        audit.log(
            event,
            "event.imported",
            actor=by,
            at=now,
            subject=event.slug,
            after={"entrants": len(entrants), "rounds": len(rounds)},
        )
        standings.results_changed(event)
    return event


# what an event file sets on the event's own row (the rest are rows of their own)
EVENT_FIELDS = (
    "name",
    "format",
    "settings",
    "status",
    "public",
    "starts_on",
    "ends_on",
    "time_zone",
    "venue",
    "external_draws",
)


def replace_event(
    event: Event,
    data: Any,
    *,
    by: Any,
    now: dt.datetime | None = None,
    current: dict[str, Any] | None = None,
) -> Event:
    """Replace what ``event`` holds by the event file ``data`` (its slug must be the
    event's), keeping the event's row and what is not in the file: its directors, tokens,
    webhooks, audit log, check-ins, and its entrants' rows (updated by number, so a claim
    or a standings row stays with its entrant). One transaction; the caller holds the
    event's lock. The venue mode's public copy applies each push this way
    (services/mirror/receive.py), and then exports the very file it was given.

    Only what differs from the event's own file is written again: a round equal to the
    file's stays as it is (a result saved at the venue rewrites one round, not the event),
    and so do the entrants, teams and stages when they are equal. ``current``: the event's
    own file when the caller knows it (the copy keeps the file of its last push), else it
    is exported here."""
    now = now or timezone.now()
    clean = validate(data, limited=True, replacing=event.pk)
    ev = clean["event"]
    if current is None:
        current = export_event(event)
    with transaction.atomic():
        fields = {name: ev[name] for name in EVENT_FIELDS}
        if ev["random_seed"]:
            fields["random_seed"] = ev["random_seed"]
        Event.objects.filter(pk=event.pk).update(**fields)
        for name, value in fields.items():
            setattr(event, name, value)
        RandomDraw.objects.filter(event=event).delete()
        same_teams = data.get("teams") == current["teams"]
        same_stages = data.get("stages") == current["stages"]
        same_entrants = same_teams and data.get("entrants") == current["entrants"]
        rescore_all = not same_entrants or data.get("event") != current["event"]
        kept_rounds = {r["number"]: r for r in current["rounds"]} if same_stages else {}
        keep = {
            r["number"]
            for r in data.get("rounds", [])
            if isinstance(r, dict) and kept_rounds.get(r.get("number")) == r
        }
        Round.objects.filter(event=event).exclude(number__in=keep).delete()
        if same_teams:
            teams = {t.name: t for t in Team.objects.filter(event=event)}
        else:
            Entrant.objects.filter(event=event).update(team=None)
            Team.objects.filter(event=event).delete()
            teams = {
                t["name"]: Team.objects.create(event=event, name=t["name"], country=t["country"])
                for t in clean["teams"]
            }
        if same_stages:
            stages = {st.key: st for st in Stage.objects.filter(event=event)}
        else:
            Stage.objects.filter(event=event).delete()
            stages = {
                st["key"]: Stage.objects.create(
                    event=event, key=st["key"], name=st["name"], order=st["order"]
                )
                for st in clean["stages"]
            }
        if same_entrants:
            entrants = {e.number: e for e in Entrant.objects.filter(event=event)}
        else:
            rows = [_entrant(event, e, teams) for e in clean["entrants"]]
            entrants = {e.number: e for e in _update_entrants(event, rows)}
        rounds = {r.number: r for r in Round.objects.filter(event=event)}
        for r in clean["rounds"]:
            if r["number"] not in keep:
                rounds[r["number"]] = _import_round(event, r, entrants, stages, by=by, now=now)
        _import_draws(event, clean, rounds, now)
        changed = None if rescore_all else set(rounds) - keep
        _score_imported(event, by=by, now=now, only=changed)
        standings.results_changed(event)
    return event


def _entrant(event: Event, e: dict[str, Any], teams: dict[str, Team]) -> Entrant:
    return Entrant(
        event=event,
        number=e["number"],
        name=e["name"],
        family_name=e["family_name"],
        given_name=e["given_name"],
        rating=e["rating"],
        seed=e["seed"],
        country=e["country"],
        gender=e["gender"],
        team=teams.get(e["team"]),
        external_id=e["external_id"],
        flags=e["flags"],
        status=e["status"],
        withdrawn_after_round=e["withdrawn_after_round"],
    )


def _import_draws(
    event: Event, clean: dict[str, Any], rounds: dict[int, Round], now: dt.datetime
) -> None:
    for d in clean["draws"]:
        RandomDraw.objects.create(
            event=event,
            round=rounds.get(d["round"]),
            key=d["key"],
            purpose=d["purpose"],
            method=d["method"],
            value=d["value"],
            details=d["details"],
            drawn_by=None,
            drawn_at=d["drawn_at"] or now,
        )


def _write_contents(
    event: Event,
    clean: dict[str, Any],
    *,
    by: Any,
    now: dt.datetime,
    progress: Callable[[float], None] | None,
    replacing: bool = False,
) -> tuple[dict[int, Entrant], dict[int, Round]]:
    """Write the file's teams, stages, entrants, rounds and draws into ``event`` and score
    its matches. ``replacing``: the event's entrants are updated by number (new ones made,
    those the file no longer has deleted) rather than all created."""
    teams = {
        t["name"]: Team.objects.create(event=event, name=t["name"], country=t["country"])
        for t in clean["teams"]
    }
    stages = {
        s["key"]: Stage.objects.create(event=event, key=s["key"], name=s["name"], order=s["order"])
        for s in clean["stages"]
    }
    # in bulk: 10,000 entrants one query each took minutes (issue 20)
    rows = [_entrant(event, e, teams) for e in clean["entrants"]]
    created = _update_entrants(event, rows) if replacing else Entrant.objects.bulk_create(rows)
    entrants = {e.number: e for e in created}
    rounds = {}
    for done, r in enumerate(clean["rounds"], start=1):
        rounds[r["number"]] = _import_round(event, r, entrants, stages, by=by, now=now)
        if progress:
            progress(done / (len(clean["rounds"]) + 1))
    _import_draws(event, clean, rounds, now)
    _score_imported(event, by=by, now=now)
    return entrants, rounds


ENTRANT_FIELDS = (
    "name",
    "family_name",
    "given_name",
    "rating",
    "seed",
    "country",
    "gender",
    "team",
    "external_id",
    "flags",
    "status",
    "withdrawn_after_round",
)


def _update_entrants(event: Event, rows: list[Entrant]) -> list[Entrant]:
    """The event's entrants made equal to ``rows``, matched by number."""
    existing = {e.number: e for e in Entrant.objects.filter(event=event)}
    wanted = {row.number for row in rows}
    gone = [e.pk for number, e in existing.items() if number not in wanted]
    if gone:
        Entrant.objects.filter(pk__in=gone).delete()
    kept, new = [], []
    for row in rows:
        old = existing.get(row.number)
        if old is None:
            new.append(row)
            continue
        row.pk = old.pk
        kept.append(row)
    if kept:
        Entrant.objects.bulk_update(kept, list(ENTRANT_FIELDS), batch_size=500)
    return kept + Entrant.objects.bulk_create(new)


def _import_round(
    event: Event,
    r: dict[str, Any],
    entrants: dict[int, Entrant],
    stages: dict[str, Stage],
    *,
    by: Any,
    now: dt.datetime,
) -> Round:
    rnd = Round.objects.create(
        event=event,
        stage=stages.get(r["stage"]) if r["stage"] else None,
        number=r["number"],
        label=r["label"],
        status=r["status"],
        starts_at=r["starts_at"],
        deadline=r["deadline"],
        published_at=r["published_at"],
        completed_at=r["completed_at"],
        reasons=r["reasons"],
        details=r["details"],
    )
    groups = {}
    for order, g in enumerate(r["groups"]):
        groups[g["key"]] = Group.objects.create(
            round=rnd, key=g["key"], label=g["label"] or g["key"], order=order
        )
        GroupMember.objects.bulk_create(
            GroupMember(group=groups[g["key"]], entrant=entrants[n], seed=seed)
            for seed, n in enumerate(g["entrants"], start=1)
        )
    # in bulk: an event of a few hundred entrants has thousands of matches, and one query
    # per row made a WOC import take seconds (PostgreSQL and SQLite return the new keys)
    matches = Match.objects.bulk_create(
        Match(
            round=rnd,
            group=groups.get(m["group"]) if m["group"] else None,
            code=m["code"],
            bracket=m["bracket"],
            table=m["table"],
            order=order,
            details=m["details"],
            reasons=m["reasons"],
            overridden=m["overridden"],
            version=1 if m["games"] else 0,
        )
        for order, m in enumerate(r["matches"])
    )
    MatchParticipant.objects.bulk_create(
        MatchParticipant(
            match=match,
            seat=seat,
            entrant=entrants[p["entrant"]] if p["entrant"] is not None else None,
            role=p["role"],
            details=p["details"],
        )
        for match, m in zip(matches, r["matches"], strict=True)
        for seat, p in enumerate(m["participants"])
    )
    Game.objects.bulk_create(
        Game(
            match=match,
            number=g["number"],
            scores=g["scores"],
            first_seat=g["first"],
            ending=g["ending"],
            details=g["details"],
        )
        for match, m in zip(matches, r["matches"], strict=True)
        for g in m["games"]
    )
    ResultChange.objects.bulk_create(
        ResultChange(
            match=match,
            version=1,
            before=None,
            after={"games": m["games"]},
            changed_by=by if getattr(by, "is_authenticated", False) else None,
            changed_at=now,
            source=ResultChange.Source.IMPORT,
            reason="imported from an event file",
        )
        for match, m in zip(matches, r["matches"], strict=True)
        if m["games"]
    )
    return rnd


def _score_imported(
    event: Event, *, by: Any, now: dt.datetime, only: set[int] | None = None
) -> None:
    """Store the engine's score of every recorded match: its games, a bye, or details that
    decide it without games (GokoDom's result codes: left unscored, the rounds showed no
    results though the standings counted them). A result from details alone gets its
    import row in the result history here, as a result with games got one with them."""
    state = load_event_state(event)
    engine = event.engine
    changes = []
    for rnd in rounds_queryset(event):
        if rnd.status == Round.Status.DRAFT or (only is not None and rnd.number not in only):
            continue
        scored = []
        for match in rnd.matches.all():
            games = bool(match.games.all())
            bye = len(match.participants.all()) == 1
            recorded = match_state(match, rnd.number)
            score = engine.score_match(state, recorded)
            if not (games or bye or (score.valid and (score.complete or score.winner is not None))):
                continue
            match.result = score_json(score, recorded.games)
            scored.append(match)
            if not games and not bye and match.version == 0:
                match.version = 1
                changes.append(
                    ResultChange(
                        match=match,
                        version=1,
                        before=None,
                        after={"games": [], "result": match.result, "details": match.details},
                        changed_by=by if getattr(by, "is_authenticated", False) else None,
                        changed_at=now,
                        source=ResultChange.Source.IMPORT,
                        reason="imported from an event file",
                    )
                )
        Match.objects.bulk_update(scored, ["result", "version"], batch_size=500)
    ResultChange.objects.bulk_create(changes, batch_size=500)
