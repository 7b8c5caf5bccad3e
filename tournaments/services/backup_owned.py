"""The rows an event owns that its event file does not carry, for the backup (issue 20).

The event file (docs/event-file.md) is portable: it holds what any Arbiter needs to run
the event again, and nothing about the accounts of the server it came from. A backup must
also give back who claimed which entrant, the claim codes (every invite link), the
directors, the audit log, every version of every result, who drew each draw, the standings
snapshots, the referee program's tokens and posted games, the API tokens (their hashes),
the check-in marks, the result entries waiting for a second entry (double entry, and the
event's switch for it), the e-mails written for the event, sent or not, and its
registration (settings, entries and the rating list: issue 32). Those rows go
into a second file per event, ``events/<slug>.owned.json.gz``, written beside the event
file from the same database snapshot; the accounts they name go once into ``accounts.json``.

A restore imports the event file as any import does, then ``apply`` puts these rows back
over what the import made (its own "imported" audit row and version-1 result history give
way to the real ones). Accounts are matched by username; a missing one is created with its
password hash, so its owner signs in as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Model
from django.db.models.functions import Lower
from django.utils.dateparse import parse_datetime

from accounts.models import User
from tournaments.models import (
    ApiToken,
    AuditEntry,
    CheckIn,
    Entrant,
    Entry,
    Event,
    EventDirector,
    Group,
    Match,
    Notification,
    RandomDraw,
    RatingListRow,
    RatingSubmission,
    RefereeGame,
    RefereeToken,
    Registration,
    ResultChange,
    ResultEntry,
    Round,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.services.standings_rows import rows_of

# Registration (issue 32): the settings, the line of entries and the rating list belong to
# one event, so they travel in its owned rows. Not in the event file: that file is portable
# between servers and an entry holds a person's e-mail and their links' secret.
REGISTRATION_FIELDS = (
    "source",
    "open",
    "capacity",
    "closes_at",
    "confirm_hours",
    "min_rating",
    "federations",
    "source_label",
    "series_key",
)
ENTRY_FIELDS = (
    "order",
    "source",
    "name",
    "email",
    "external_id",
    "rating",
    "federation",
    "score",
    "reason",
    "status",
    "token",
)
ENTRY_TIMES = ("created_at", "joined_at", "offered_at", "offer_expires_at", "decided_at")
RATING_LIST_FIELDS = ("external_id", "name", "name_key", "rating", "federation")

# 2 added the check-ins, the waiting result entries, the e-mails and the double-entry switch
# (issue 29 finding 2); a version-1 file restores without them, and the restore says so.
OWNED_VERSION = 2
READABLE_VERSIONS = (1, 2)
ACCOUNTS_VERSION = 1


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _when(value: Any, place: str) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None:
        raise ValueError(f"{place}: '{value}' is not a date and time.")
    return parsed


def _at(value: Any, place: str) -> datetime:
    """A time the row must have (its column is not null)."""
    parsed = _when(value, place)
    if parsed is None:
        raise ValueError(f"{place}: no date and time.")
    return parsed


# -- writing -------------------------------------------------------------------------------


def export_owned(event: Event) -> tuple[dict[str, Any], set[str]]:
    """The event's own rows as plain data, and the usernames they name."""
    names: dict[int, str] = {}
    users: set[str] = set()

    def who(user_id: int | None) -> str | None:
        if user_id is None:
            return None
        if user_id not in names:
            names[user_id] = (
                get_user_model().objects.values_list("username", flat=True).get(pk=user_id)
            )
        users.add(names[user_id])
        return names[user_id]

    matches = Match.objects.filter(round__event=event).select_related("round")
    key = {m.pk: [m.round.number, m.code] for m in matches}
    entrant_number = dict(event.entrants.values_list("pk", "number"))
    doc: dict[str, Any] = {
        "arbiter_owned_rows": OWNED_VERSION,
        "slug": event.slug,
        "event": {
            "created_by": who(event.created_by_id),
            "created_at": _iso(event.created_at),
            "updated_at": _iso(event.updated_at),
            "results_version": event.results_version,
            "standings_version": event.standings_version,
            # the incremental refresh's marks (services/standings_kept.py)
            "shape_version": event.shape_version,
            "outlook_version": event.outlook_version,
            "double_entry": event.double_entry,
        },
        "directors": [
            {"user": who(d.user_id), "added_at": _iso(d.added_at)}
            for d in EventDirector.objects.filter(event=event).order_by("added_at", "pk")
        ],
        "entrants": [
            {
                "number": e.number,
                "user": who(e.user_id),
                "claim_code": e.claim_code,
                "created_at": _iso(e.created_at),
            }
            for e in event.entrants.order_by("number")
        ],
        "groups": [
            {"round": g.round.number, "key": g.key, "order": g.order}
            for g in Group.objects.filter(round__event=event).select_related("round")
        ],
        "matches": [
            {
                "match": key[m.pk],
                "order": m.order,
                "version": m.version,
                "result": m.result,
                "results_version": m.results_version,
            }
            for m in sorted(matches, key=lambda m: key[m.pk])
        ],
        "result_changes": [
            {
                "match": key[c.match_id],
                "version": c.version,
                "before": c.before,
                "after": c.after,
                "changed_by": who(c.changed_by_id),
                "changed_at": _iso(c.changed_at),
                "source": c.source,
                "reason": c.reason,
            }
            for c in sorted(
                ResultChange.objects.filter(match__round__event=event),
                key=lambda c: (key[c.match_id], c.version),
            )
        ],
        # oldest first, so that rows of the same moment keep their order (ordering: -at, -id)
        "audit": [
            {
                "action": a.action,
                "actor": who(a.actor_id),
                "at": _iso(a.at),
                "subject": a.subject,
                "before": a.before,
                "after": a.after,
                "reason": a.reason,
            }
            for a in AuditEntry.objects.filter(event=event).order_by("at", "pk")
        ],
        "draws": [
            {"key": k, "drawn_by": who(u)}
            for k, u in RandomDraw.objects.filter(event=event, drawn_by__isnull=False)
            .order_by("key")
            .values_list("key", "drawn_by_id")
        ],
        "standings": [
            {
                "results_version": s.results_version,
                "after_round": s.after_round,
                "computed_at": _iso(s.computed_at),
                "published": s.published,
                "final": s.final,
                "tables": s.tables,
                "pending": s.pending,
                "contention": s.contention,
                "rows": [
                    {
                        "table_key": r.table_key,
                        "position": r.position,
                        "entrant": entrant_number[r.entrant_id],
                        "rank": r.rank,
                        "points": r.points,
                        "values": r.values,
                        "status": r.status,
                        "details": r.details,
                        "contention": r.contention,
                    }
                    for r in sorted(rows_of(s), key=lambda r: (r.table_key, r.position))
                ],
            }
            for s in event.snapshots.order_by("results_version")
        ],
        "referee_tokens": [
            {
                "token_hash": t.token_hash,
                "hint": t.hint,
                "created_by": who(t.created_by_id),
                "created_at": _iso(t.created_at),
                "revoked_at": _iso(t.revoked_at),
                "last_used_at": _iso(t.last_used_at),
            }
            for t in event.referee_tokens.order_by("created_at", "pk")
        ],
        "api_tokens": [
            {
                "name": t.name,
                "prefix": t.prefix,
                "token_hash": t.token_hash,  # a peppered hash: the token itself is nowhere
                "scopes": t.scopes,
                "created_by": who(t.created_by_id),
                "created_at": _iso(t.created_at),
                "expires_at": _iso(t.expires_at),
                "last_used_at": _iso(t.last_used_at),
                "revoked_at": _iso(t.revoked_at),
            }
            for t in event.api_tokens.order_by("created_at", "pk")
        ],
        "referee_games": [
            {
                "game_id": g.game_id,
                "match": key[g.match_id],
                "game_number": g.game_number,
                "payload": g.payload,
                "received_at": _iso(g.received_at),
            }
            for g in event.referee_games.order_by("received_at", "pk")
        ],
        "check_ins": [
            {
                "number": entrant_number[c.entrant_id],
                "round_number": c.round_number,
                "present": c.present,
                "source": c.source,
                "changed_by": who(c.changed_by_id),
                "changed_at": _iso(c.changed_at),
            }
            for c in event.check_ins.order_by("round_number", "entrant__number")
        ],
        "result_entries": [
            {
                "match": key[r.match_id],
                "version": r.version,
                "games": r.games,
                "match_details": r.match_details,
                "summary": r.summary,
                "status": r.status,
                "entered_by": who(r.entered_by_id),
                "entered_at": _iso(r.entered_at),
            }
            for r in ResultEntry.objects.filter(match__round__event=event).order_by(
                "entered_at", "pk"
            )
        ],
        "notifications": [
            {
                "key": n.key,
                "kind": n.kind,
                "user": who(n.user_id),
                "entrant": entrant_number.get(n.entrant_id) if n.entrant_id else None,
                "email": n.email,
                "entry": n.entry.token if n.entry is not None else None,
                "round": n.round.number if n.round is not None else None,
                **({"match": key[n.match_id]} if n.match_id else {}),
                "details": n.details,
                "status": n.status,
                "attempts": n.attempts,
                "last_error": n.last_error,
                "created_at": _iso(n.created_at),
                "sent_at": _iso(n.sent_at),
            }
            for n in event.notifications.select_related("round", "entry").order_by(
                "created_at", "pk"
            )
        ],
        "rating_submissions": [
            {
                "recipient": r.recipient,
                "filename": r.filename,
                "text": r.text,
                "header": r.header,
                "results_version": r.results_version,
                "sent_by": who(r.sent_by_id),
                "confirmed_at": _iso(r.confirmed_at),
                "mailed_at": _iso(r.mailed_at),
                "attempts": r.attempts,
                "last_error": r.last_error,
            }
            for r in event.rating_submissions.order_by("confirmed_at", "pk")
        ],
        "registration": [
            {
                **{f: getattr(r, f) for f in REGISTRATION_FIELDS},
                "closes_at": _iso(r.closes_at),
            }
            for r in Registration.objects.filter(event=event)
        ],
        "entries": [
            {
                **{f: getattr(e, f) for f in ENTRY_FIELDS},
                **{f: _iso(getattr(e, f)) for f in ENTRY_TIMES},
                "user": who(e.user_id),
                "entrant": entrant_number[e.entrant_id] if e.entrant_id else None,
            }
            for e in Entry.objects.filter(event=event).order_by("created_at", "pk")
        ],
        "rating_list": [
            {f: getattr(r, f) for f in RATING_LIST_FIELDS}
            for r in RatingListRow.objects.filter(event=event).order_by("pk")
        ],
    }
    return doc, users


def _account_fields() -> list[Any]:
    return [f for f in get_user_model()._meta.concrete_fields if not f.primary_key]


def export_accounts(usernames: Iterable[str]) -> list[dict[str, Any]]:
    """The named accounts, every column but the id (the password as its hash)."""
    fields = _account_fields()
    rows = get_user_model().objects.filter(username__in=set(usernames)).order_by("username")
    return [{f.attname: f.value_from_object(u) for f in fields} for u in rows]


# -- checking and restoring ----------------------------------------------------------------


USER_FIELDS = (
    "user",
    "created_by",
    "changed_by",
    "actor",
    "drawn_by",
    "entered_by",
    "sent_by",
)
SECTIONS = (
    "directors",
    "entrants",
    "groups",
    "matches",
    "result_changes",
    "audit",
    "draws",
    "standings",
    "referee_tokens",
    "referee_games",
)
# Sections a version-1 file lacks: read as empty, and the restore says they were not there.
ADDED_IN_2 = ("check_ins", "result_entries", "notifications")
# Sections a file may lack (written before they were kept): read as empty. The WOF files
# sent to the rating officer and the API tokens came after version 2.
OPTIONAL = (
    *ADDED_IN_2,
    "rating_submissions",
    "api_tokens",
    # registration (issue 32) came after them too
    "registration",
    "entries",
    "rating_list",
)
ALL_SECTIONS = SECTIONS + OPTIONAL
LACKING_IN_1 = (
    "check-in marks, result entries waiting for a second entry, e-mails, the double-entry switch"
)


def sections_of(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Every section of the document, those a version-1 file lacks as empty lists."""
    return {s: doc.get(s, [] if s in OPTIONAL else None) for s in ALL_SECTIONS}


def named(doc: Mapping[str, Any]) -> set[str]:
    """The usernames an owned-rows document names."""
    rows = [doc["event"], *(row for rows in sections_of(doc).values() for row in rows)]
    return {row[f] for row in rows for f in USER_FIELDS if row.get(f)}


def check(doc: Any, event_data: Mapping[str, Any], slug: str, accounts: set[str]) -> list[str]:
    """Problems that would stop ``apply``, each naming its place; [] when it can go ahead.
    ``accounts``: the usernames the backup carries, in lower case."""
    if not isinstance(doc, dict) or doc.get("arbiter_owned_rows") not in READABLE_VERSIONS:
        return [f"not an owned-rows file of version {OWNED_VERSION}."]
    if doc.get("slug") != slug:
        return [f"it belongs to event '{doc.get('slug')}', not '{slug}'."]
    problems = []
    numbers = {e.get("number") for e in event_data.get("entrants", [])}
    matches = {
        (r.get("number"), m.get("code"))
        for r in event_data.get("rounds", [])
        for m in r.get("matches", [])
    }
    sections = {"event": [doc.get("event")], **sections_of(doc)}
    entries = sections["entries"] if isinstance(sections["entries"], list) else []
    tokens = {e.get("token") for e in entries if isinstance(e, dict)}
    for section, rows in sections.items():
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            problems.append(f"{section}: not {'a mapping' if section == 'event' else 'rows'}.")
            continue
        for i, row in enumerate(rows):
            place = section if section == "event" else f"{section}[{i}]"
            for field in USER_FIELDS:
                name = row.get(field)
                if name is not None and str(name).lower() not in accounts:
                    problems.append(f"{place}.{field}: no account '{name}' in the backup.")
            if "number" in row and row["number"] not in numbers:
                problems.append(f"{place}.number: the event file has no entrant {row['number']}.")
            entrant = row.get("entrant") if section in ("notifications", "entries") else None
            if entrant is not None and entrant not in numbers:
                problems.append(f"{place}.entrant: the event file has no such entrant.")
            mail_entry = row.get("entry") if section == "notifications" else None
            if mail_entry is not None and mail_entry not in tokens:
                problems.append(f"{place}.entry: the entries have no such entry.")
            match = row.get("match")
            if "match" in row and (not isinstance(match, list) or tuple(match) not in matches):
                problems.append(f"{place}.match: the event file has no match {row['match']}.")
            for j, r in enumerate(row.get("rows", []) if section == "standings" else []):
                if r.get("entrant") not in numbers:
                    problems.append(
                        f"{place}.rows[{j}].entrant: the event file has no such entrant."
                    )
    return problems


def ensure_accounts(
    rows: list[dict[str, Any]], needed: set[str]
) -> tuple[dict[str, Any], list[str], list[str]]:
    """The account of each needed username: this database's (matched by username, left as
    it is) or a new one made from the backup. Returns (by lower-case username, created,
    matched)."""
    model = get_user_model()
    fields = {f.attname: f for f in _account_fields()}
    wanted = {n.lower() for n in needed}
    # usernames are unique whatever their case (accounts.services.create_account)
    here: dict[str, User] = {
        u.username.lower(): u
        for u in model.objects.annotate(lower=Lower("username")).filter(lower__in=wanted)
    }
    created, matched = [], sorted(u.username for u in here.values())
    for row in rows:
        name = row["username"]
        if name.lower() not in wanted or name.lower() in here:
            continue
        user = model(**{k: fields[k].to_python(v) for k, v in row.items() if k in fields})
        user.save()  # the hash as it was: set_password would hash it again
        here[name.lower()] = user
        created.append(name)
    return here, created, matched


def apply(event: Event, doc: Mapping[str, Any], users: Mapping[str, Any]) -> None:
    """Put the backup's own rows of ``event`` back over what its import made."""

    def user(name: str | None) -> Any:
        return users[name.lower()] if name else None

    ev = doc["event"]
    Event.objects.filter(pk=event.pk).update(  # update(): auto_now must not apply here
        created_by=user(ev["created_by"]),
        created_at=_when(ev["created_at"], "event.created_at"),
        updated_at=_when(ev["updated_at"], "event.updated_at"),
        results_version=ev["results_version"],
        standings_version=ev["standings_version"],
        # a file written before these marks: the next refresh loads the whole event
        shape_version=ev.get("shape_version", ev["results_version"]),
        outlook_version=ev.get("outlook_version", ev["standings_version"]),
        double_entry=bool(ev.get("double_entry", False)),
    )
    event.refresh_from_db(
        fields=[
            "created_by",
            "created_at",
            "updated_at",
            "results_version",
            "standings_version",
            "shape_version",
            "outlook_version",
            "double_entry",
        ]
    )

    EventDirector.objects.filter(event=event).delete()
    directors = EventDirector.objects.bulk_create(
        EventDirector(event=event, user=user(d["user"])) for d in doc["directors"]
    )
    for director, row in zip(directors, doc["directors"], strict=True):
        director.added_at = _at(row["added_at"], "directors.added_at")
    # bulk_update, not create: auto_now_add would stamp the restore's time
    EventDirector.objects.bulk_update(directors, ["added_at"])

    entrants = {e.number: e for e in event.entrants.all()}
    for row in doc["entrants"]:
        entrant = entrants[row["number"]]
        entrant.user = user(row["user"])
        entrant.claim_code = row["claim_code"]
        entrant.created_at = _at(row["created_at"], "entrants.created_at")
    Entrant.objects.bulk_update(
        entrants.values(), ["user", "claim_code", "created_at"], batch_size=500
    )

    groups = {(g.round.number, g.key): g for g in Group.objects.filter(round__event=event)}
    changed = []
    for row in doc["groups"]:
        group = groups[(row["round"], row["key"])]
        if group.order != row["order"]:
            group.order = row["order"]
            changed.append(group)
    Group.objects.bulk_update(changed, ["order"], batch_size=500)

    matches = {
        (m.round.number, m.code): m
        for m in Match.objects.filter(round__event=event).select_related("round")
    }
    changed_matches = []
    for row in doc["matches"]:
        match = matches[tuple(row["match"])]
        wanted = (row["order"], row["version"], row["result"], row.get("results_version", 0))
        if (match.order, match.version, match.result, match.results_version) != wanted:
            match.order, match.version, match.result, match.results_version = wanted
            changed_matches.append(match)
    Match.objects.bulk_update(
        changed_matches, ["order", "version", "result", "results_version"], batch_size=500
    )

    ResultChange.objects.filter(match__round__event=event).delete()
    ResultChange.objects.bulk_create(
        (
            ResultChange(
                match=matches[tuple(c["match"])],
                version=c["version"],
                before=c["before"],
                after=c["after"],
                changed_by=user(c["changed_by"]),
                changed_at=_at(c["changed_at"], "result_changes.changed_at"),
                source=c["source"],
                reason=c["reason"],
            )
            for c in doc["result_changes"]
        ),
        batch_size=1000,
    )

    AuditEntry.objects.filter(event=event).delete()
    AuditEntry.objects.bulk_create(
        (
            AuditEntry(
                event=event,
                action=a["action"],
                actor=user(a["actor"]),
                at=_at(a["at"], "audit.at"),
                subject=a["subject"],
                before=a["before"],
                after=a["after"],
                reason=a["reason"],
            )
            for a in doc["audit"]
        ),
        batch_size=1000,
    )

    drawn_by = {d["key"]: user(d["drawn_by"]) for d in doc["draws"]}
    draws = list(RandomDraw.objects.filter(event=event, key__in=list(drawn_by)))
    for draw in draws:
        draw.drawn_by = drawn_by[draw.key]
    RandomDraw.objects.bulk_update(draws, ["drawn_by"], batch_size=500)

    StandingsSnapshot.objects.filter(event=event).delete()
    by_number = {n: e.pk for n, e in entrants.items()}
    for s in doc["standings"]:
        snapshot = StandingsSnapshot.objects.create(
            event=event,
            results_version=s["results_version"],
            after_round=s["after_round"],
            computed_at=_at(s["computed_at"], "standings.computed_at"),
            published=s["published"],
            final=s["final"],
            tables=s["tables"],
            pending=s["pending"],
            contention=s["contention"],
        )
        StandingsRow.objects.bulk_create(
            (
                StandingsRow(
                    snapshot=snapshot,
                    entrant_id=by_number[r["entrant"]],
                    **{k: r[k] for k in _ROW_FIELDS},
                )
                for r in s["rows"]
            ),
            batch_size=1000,
        )

    _rows(
        RefereeToken,
        event,
        (
            {
                **t,
                "created_by": user(t["created_by"]),
                "created_at": _when(t["created_at"], "referee_tokens.created_at"),
                "revoked_at": _when(t["revoked_at"], "referee_tokens.revoked_at"),
                "last_used_at": _when(t["last_used_at"], "referee_tokens.last_used_at"),
            }
            for t in doc["referee_tokens"]
        ),
    )
    _rows(
        RefereeGame,
        event,
        (
            {
                **g,
                "match": matches[tuple(g["match"])],
                "received_at": _when(g["received_at"], "referee_games.received_at"),
            }
            for g in doc["referee_games"]
        ),
    )
    _apply_desk_rows(event, sections_of(doc), user, entrants, matches)


def _apply_desk_rows(
    event: Event,
    sections: Mapping[str, Any],
    user: Any,
    entrants: Mapping[int, Entrant],
    matches: Mapping[tuple[Any, ...], Match],
) -> None:
    """The check-ins, the result entries waiting for a second entry, the e-mails and the
    WOF files sent to the rating officer and the API tokens; the registration and entries
    first, since an entry's mails point to it."""
    entries = _apply_registration(event, sections, user, entrants)
    _rows(
        ApiToken,
        event,
        (
            {
                **t,
                "created_by": user(t["created_by"]),
                "created_at": _at(t["created_at"], "api_tokens.created_at"),
                "expires_at": _when(t["expires_at"], "api_tokens.expires_at"),
                "last_used_at": _when(t["last_used_at"], "api_tokens.last_used_at"),
                "revoked_at": _when(t["revoked_at"], "api_tokens.revoked_at"),
            }
            for t in sections["api_tokens"]
        ),
    )
    _rows(
        CheckIn,
        event,
        (
            {
                "entrant": entrants[c["number"]],
                "round_number": c["round_number"],
                "present": c["present"],
                "source": c["source"],
                "changed_by": user(c["changed_by"]),
                "changed_at": _at(c["changed_at"], "check_ins.changed_at"),
            }
            for c in sections["check_ins"]
        ),
    )
    ResultEntry.objects.filter(match__round__event=event).delete()
    ResultEntry.objects.bulk_create(
        ResultEntry(
            match=matches[tuple(r["match"])],
            version=r["version"],
            games=r["games"],
            match_details=r["match_details"],
            summary=r["summary"],
            status=r["status"],
            entered_by=user(r["entered_by"]),
            entered_at=_at(r["entered_at"], "result_entries.entered_at"),
        )
        for r in sections["result_entries"]
    )
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    # A key is unique across the database (one mail per key, ever): kept as it was, unless
    # another event here already holds it (keys name the old database's ids).
    taken = set(
        Notification.objects.filter(key__in=[n["key"] for n in sections["notifications"]])
        .exclude(event=event)
        .values_list("key", flat=True)
    )
    rows = []
    for n in sections["notifications"]:
        key = n["key"] if n["key"] not in taken else f"restored:{event.slug}:{n['key']}"[:120]
        rows.append(
            {
                "key": key,
                "kind": n["kind"],
                "user": user(n["user"]),
                "entrant": entrants[n["entrant"]] if n["entrant"] is not None else None,
                "email": n.get("email", ""),
                "entry": entries[n["entry"]] if n.get("entry") else None,
                "round": rounds.get(n["round"]) if n["round"] is not None else None,
                "match": matches[tuple(n["match"])] if n.get("match") else None,
                "details": n["details"],
                "status": n["status"],
                "attempts": n["attempts"],
                "last_error": n["last_error"],
                "created_at": _at(n["created_at"], "notifications.created_at"),
                "sent_at": _when(n["sent_at"], "notifications.sent_at"),
            }
        )
    _rows(Notification, event, rows)
    _rows(
        RatingSubmission,
        event,
        (
            {
                **{k: r[k] for k in ("recipient", "filename", "text", "header", "attempts")},
                "results_version": r["results_version"],
                "last_error": r["last_error"],
                "sent_by": user(r["sent_by"]),
                "confirmed_at": _at(r["confirmed_at"], "rating_submissions.confirmed_at"),
                "mailed_at": _when(r["mailed_at"], "rating_submissions.mailed_at"),
            }
            for r in sections["rating_submissions"]
        ),
    )


def _apply_registration(
    event: Event, sections: Mapping[str, Any], user: Any, entrants: Mapping[int, Entrant]
) -> dict[str, Entry]:
    """The registration settings, the entries (their links' secrets as they were: a mailed
    link keeps working) and the rating list."""
    _rows(
        Registration,
        event,
        (
            {
                **{f: r[f] for f in REGISTRATION_FIELDS},
                "closes_at": _when(r["closes_at"], "registration.closes_at"),
            }
            for r in sections["registration"]
        ),
    )
    _rows(
        Entry,
        event,
        (
            {
                **{f: e[f] for f in ENTRY_FIELDS},
                "created_at": _at(e["created_at"], "entries.created_at"),
                **{f: _when(e[f], f"entries.{f}") for f in ENTRY_TIMES[1:]},
                "user": user(e["user"]),
                "entrant": entrants[e["entrant"]] if e["entrant"] is not None else None,
            }
            for e in sections["entries"]
        ),
    )
    _rows(
        RatingListRow,
        event,
        ({f: r[f] for f in RATING_LIST_FIELDS} for r in sections["rating_list"]),
    )
    # an entry's mails name it by its link's secret (unique, and kept as it was)
    return {e.token: e for e in Entry.objects.filter(event=event)}


_ROW_FIELDS = (
    "table_key",
    "position",
    "rank",
    "points",
    "values",
    "status",
    "details",
    "contention",
)


def _rows(model: type[Model], event: Event, rows: Iterable[dict[str, Any]]) -> None:
    model._default_manager.filter(event=event).delete()
    model._default_manager.bulk_create(model(event=event, **row) for row in rows)
