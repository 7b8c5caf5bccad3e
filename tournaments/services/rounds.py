"""Drafting, publishing and completing rounds."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.contract import EngineError, Finished, NeedsDecision, Problem, RoundPlan, SwapPlan
from rules.draws import DrawNeeded, InvalidDraw
from tournaments import selectors, signals
from tournaments.models import (
    Entrant,
    Event,
    Group,
    GroupMember,
    Match,
    MatchParticipant,
    Round,
    Stage,
)
from tournaments.services import (
    at_commit,
    audit,
    checkin,
    draws,
    live,
    locking,
    notifications,
    queue,
    standings,
    webhooks,
)
from tournaments.services.errors import ServiceError
from tournaments.services.mirror import outbox
from tournaments.services.result_json import reasons_json, score_json
from tournaments.services.state import jsonable, load_event_state
from tournaments.words import label as round_label

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DraftOutcome:
    round: Round | None = None
    finished: Finished | None = None
    decision: NeedsDecision | None = None


def draft_next_round(event: Event, *, by: Any, now: datetime | None = None) -> DraftOutcome:
    """Ask the engine for the next round and store it as a draft for the director to review."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event)
        last = event.rounds.order_by("-number").first()
        if last is not None and last.status == Round.Status.DRAFT:
            raise ServiceError(
                _("%(round)s is still a draft: publish or delete it first.")
                % {"round": round_label(last.label)}
            )
        if last is not None and last.status != Round.Status.COMPLETED:
            raise ServiceError(
                _("%(round)s is not complete yet: close it before the next round.")
                % {"round": round_label(last.label)}
            )
        # check-in: the entrants marked absent for this round (services/checkin.py)
        number = last.number + 1 if last is not None else 1
        absent = checkin.absent_ids(event, number)
        state = replace(load_event_state(event), absent=absent)
        source = draws.source_for(event, state)
        try:
            plan = event.engine.next_round(state, source)
        except DrawNeeded as needed:
            return DraftOutcome(
                decision=NeedsDecision(
                    "draw.needed",
                    f"Enter the outside draw for: {needed.purpose or needed.key}.",
                    key=needed.key,
                    params={"low": needed.low, "high": needed.high},
                )
            )
        except InvalidDraw as invalid:
            raise ServiceError([Problem("draw.invalid", invalid.key, str(invalid))]) from None
        except EngineError as refused:
            # the record breaks the format's rules for planning (too few players, a later
            # round that no longer follows its results): the director reads why
            raise ServiceError(refused.problems) from None
        if isinstance(plan, Finished):
            webhooks.notify(event, "event.finished", {"results_version": event.results_version})
            return DraftOutcome(finished=plan)
        if isinstance(plan, NeedsDecision):
            return DraftOutcome(decision=plan)
        # the new round, its draws and perhaps a stage: what the push carries
        with outbox.touching("stages", "draws", rounds={number, plan.number}):
            rnd = store_plan(event, plan, by=by, now=now)
            # a draw an engine also lists in its plan is stored once (keys are unique)
            made = {record.key: record for record in [*source.new, *plan.draws]}
            draws.store(event, made.values(), by=by, at=now, round=rnd)
            audit.log(
                event,
                "round.drafted",
                actor=by,
                at=now,
                subject=rnd.label,
                after={"absent": [int(e) for e in absent]} if absent else None,
            )
            return DraftOutcome(round=rnd)


def store_plan(event: Event, plan: RoundPlan, *, by: Any, now: datetime) -> Round:
    entrants = {str(e.number): e for e in Entrant.objects.filter(event=event)}
    stage = None
    if plan.stage:
        stage = Stage.objects.filter(event=event, key=plan.stage).first()
        if stage is None:
            order = Stage.objects.filter(event=event).count()
            name = plan.stage.replace("_", " ").replace("-", " ").capitalize()
            stage = Stage.objects.create(event=event, key=plan.stage, name=name, order=order)
    rnd = Round.objects.create(
        event=event,
        stage=stage,
        number=plan.number,
        label=plan.label,
        status=Round.Status.DRAFT,
        reasons=reasons_json(plan.reasons),
        details=jsonable(plan.details),
    )
    groups = {}
    for order, group in enumerate(plan.groups):
        groups[group.key] = Group.objects.create(
            round=rnd, key=group.key, label=group.label, order=order
        )
        GroupMember.objects.bulk_create(
            GroupMember(group=groups[group.key], entrant=entrants[e], seed=seed)
            for seed, e in enumerate(group.entrants, start=1)
        )
    participants: list[MatchParticipant] = []
    for order, planned in enumerate(plan.matches):
        match = Match.objects.create(
            round=rnd,
            group=groups.get(planned.group),
            code=planned.code,
            bracket=planned.bracket,
            table=planned.table,
            order=order,
            reasons=reasons_json(planned.reasons),
            details=jsonable(planned.details),
        )
        participants.extend(
            MatchParticipant(
                match=match,
                seat=seat,
                entrant=entrants[p.entrant] if p.entrant is not None else None,
                role=p.role,
                details=jsonable(p.details),
            )
            for seat, p in enumerate(planned.participants)
        )
    MatchParticipant.objects.bulk_create(participants)
    return rnd


def publish_round(rnd: Round, *, by: Any, now: datetime | None = None) -> Round:
    """Players see a published round at once; its byes count in the standings from then."""
    now = now or timezone.now()
    with transaction.atomic(), outbox.touching(rounds=[rnd.number]):
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise ServiceError(
                _("%(round)s is already published.") % {"round": round_label(rnd.label)}
            )
        rnd.status = Round.Status.PUBLISHED
        rnd.published_at = now
        rnd.save(update_fields=["status", "published_at"])
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        _score_byes(event, rnd)
        audit.log(event, "round.published", actor=by, at=now, subject=rnd.label)
        # The pages and the API round the players are about to ask for: the released
        # round's part of the entrant book and the round's answer built at the end of this
        # transaction (round_releasing) and stored by the commit's first hook, before the
        # stamp moves; the rest by a task right after the commit, sent before the
        # standings' task (so a single worker runs it first). Its version is the one
        # results_changed gives the event just below.
        stores = at_commit.AtCommit()
        transaction.on_commit(
            functools.partial(_warm_release, event, rnd.pk, now, stores), robust=True
        )
        standings.results_changed(event)
        live.changed(event.pk, live.ROUND_PUBLISHED)
        # each player's pairing by e-mail, sent by a task after the commit
        notifications.pairings_published(rnd, now=now)
        webhooks.notify(event, "round.published", {"round": rnd.number}, now=now)
        stores.prepare(signals.round_releasing, event=event, rnd=rnd)  # (the last reads)
    return rnd


def _warm_release(
    event: Event, round_id: int, published_at: datetime, stores: at_commit.AtCommit
) -> None:
    """After the release's commit: note which round made the event's new results version
    (``released``), store what the transaction built for the crowd (``stores``), then send
    the release's warming task (tournaments/tasks.py, warm_release). Never the release's
    failure: without any of them the pages build what they need themselves."""
    version = event.results_version  # (results_changed gave it in the transaction)
    try:
        cache.set(_release_key(event.pk, version), (round_id, published_at), RELEASE_NOTE_SECONDS)
    except Exception:
        log.warning("cache unavailable: release of round %s not noted", round_id)
    stores()
    try:
        queue.send("tournaments.tasks.warm_release", event.pk, round_id, version)
    except Exception:
        log.warning("broker unavailable: release of round %s not warmed", round_id)


# A release's note is read within seconds of it; kept an hour.
RELEASE_NOTE_SECONDS = 3600


def _release_key(event_id: int, version: int) -> str:
    return f"released:{event_id}:{version}"


def released(event_id: int, version: int) -> tuple[int, datetime] | None:
    """The round (its id and publication time) whose release made the event's results
    version ``version``, when that was noted after its commit; else None. A version a
    release made changed nothing but that round (its publication and its byes): the
    entrant pages' book adds that round to the book of the version before
    (tournaments/views/entrant_book.py)."""
    try:
        found = cache.get(_release_key(event_id, version))
    except Exception:
        return None
    if isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], int):
        return found[0], found[1]
    return None


def _score_byes(event: Event, rnd: Round) -> None:
    """A bye has no games, nor has a match left unplayed by an absence (a forfeit, a
    walkover: rules/absence.py): the engine scores them as soon as the round is public. So
    does a match the engine decides without games (WPF decision 3: a withdrawn finalist
    loses every later match), which nobody could otherwise give a result, so its round could
    not close."""
    from tournaments.services.state import match_state

    state = load_event_state(event)
    scored = []
    for match in selectors.with_seats_and_games(rnd.matches.all()):
        if match.result is not None or match.games.all():
            continue
        score = event.engine.score_match(state, match_state(match, rnd.number))
        if len(match.participants.all()) == 1 or (score.valid and score.complete):
            match.result = score_json(score)
            scored.append(match)
    Match.objects.bulk_update(scored, ["result"])


# Games that ended otherwise than on the board: the pages, reports and exports mark them.
def delete_draft(rnd: Round, *, by: Any, now: datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic(), outbox.touching("draws", rounds=[rnd.number]):
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise ServiceError(
                _("%(round)s is published: a published round is never deleted.")
                % {"round": round_label(rnd.label)}
            )
        rnd.draws.all().delete()
        label = rnd.label
        rnd.delete()
        audit.log(event, "round.draft_deleted", actor=by, at=now, subject=label)


UNPROVEN = "best found"  # the WOC pairing's verdict when its budget ended the proof
# seconds: the most "search longer" raises a pairing budget to (the engine's own most)
LONGEST_SEARCH = 120


def is_unproven(rnd: Round) -> bool:
    """Whether ``rnd`` is a draft whose pairing was not proven optimal within its budget."""
    proof = (rnd.details or {}).get("pairing_proof") or {}
    return rnd.status == Round.Status.DRAFT and proof.get("method") == UNPROVEN


def search_longer(rnd: Round, *, by: Any, now: datetime | None = None) -> DraftOutcome:
    """The director waits for a better pairing: the event's pairing budget is raised (four
    times, at least a minute, at most two) and the unproven draft is paired again."""
    now = now or timezone.now()
    with transaction.atomic(), outbox.touching("stages", "draws", rounds=[rnd.number]):
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if not is_unproven(rnd):
            raise ServiceError(
                _("%(round)s is not a draft waiting for a proof: there is nothing to search for.")
                % {"round": round_label(rnd.label)}
            )
        settings = event.resolved_settings()
        before = settings.get("pairing_seconds")
        if not isinstance(before, int | float) or before >= LONGEST_SEARCH:
            raise ServiceError(
                _(
                    "The pairing budget is already %(seconds)s seconds, the most it can be: "
                    "publish the draft as it is."
                )
                % {"seconds": LONGEST_SEARCH}
            )
        after = int(min(LONGEST_SEARCH, max(60, 4 * before)))
        event.settings = {**event.settings, "pairing_seconds": after}
        event.save(update_fields=["settings"])
        audit.log(
            event,
            "event.pairing_budget",
            actor=by,
            at=now,
            subject=rnd.label,
            before=before,
            after=after,
            reason="search longer for a proven pairing",
        )
        delete_draft(rnd, by=by, now=now)
        return draft_next_round(event, by=by, now=now)


def can_redraw(rnd: Round) -> bool:
    """Whether ``rnd`` may be paired again: the event's latest round, a draft, or published
    with no result entered or reported yet (a bye's automatic score aside), so nothing played
    is lost."""
    latest = rnd.event.rounds.order_by("-number").values_list("pk", flat=True).first()
    if latest != rnd.pk or rnd.status == Round.Status.COMPLETED:
        return False
    if rnd.status == Round.Status.DRAFT:
        return True
    played = (
        rnd.matches.annotate(seats=Count("participants"))
        .filter(seats__gt=1)
        # a player's report waiting for the opponent counts as played too (GokoDom); a
        # result scored at publication (version 0: a walkover) was never entered
        .filter(
            Q(result__isnull=False, version__gt=0)
            | Q(games__isnull=False)
            | Q(details__has_key="report")
        )
    )
    return not played.exists()


def redraw(rnd: Round, *, by: Any, reason: str, now: datetime | None = None) -> DraftOutcome:
    """Withdraw the latest round's pairing and draft it again from the record as it now is
    (after a correction, when the director chooses so). Its draws go with it, as a deleted
    draft's do. Refused once a result of the round is in."""
    now = now or timezone.now()
    with transaction.atomic(), outbox.touching("stages", "draws", rounds=[rnd.number]):
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if not can_redraw(rnd):
            raise ServiceError(
                _(
                    "%(round)s cannot be paired again: results of it are in, or it is not the "
                    "latest round."
                )
                % {"round": round_label(rnd.label)}
            )
        label, was, rnd_number = rnd.label, rnd.status, rnd.number
        pairs = [
            " - ".join(p.entrant.name if p.entrant else "bye" for p in m.participants.all())
            for m in rnd.matches.order_by("order").prefetch_related("participants__entrant")
        ]
        rnd.draws.all().delete()
        rnd.delete()
        audit.log(
            event,
            "round.redrawn",
            actor=by,
            at=now,
            subject=label,
            before={"number": rnd_number, "status": was, "pairings": pairs},
            reason=reason,
        )
        if was != Round.Status.DRAFT:
            standings.results_changed(event)
        return draft_next_round(event, by=by, now=now)


def complete_round(rnd: Round, *, by: Any, now: datetime | None = None) -> Round:
    now = now or timezone.now()
    with transaction.atomic(), outbox.touching(rounds=[rnd.number]):
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.PUBLISHED:
            raise ServiceError(
                _("Only a published round can be closed; %(round)s is %(status)s.")
                % {"round": round_label(rnd.label), "status": str(rnd.get_status_display()).lower()}
            )
        missing = [
            m.code
            for m in rnd.matches.order_by("order")
            if not m.result or not m.result.get("complete", False)
        ]
        if missing:
            shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
            raise ServiceError(
                ngettext(
                    "%(count)s match still needs a result: %(codes)s.",
                    "%(count)s matches still need a result: %(codes)s.",
                    len(missing),
                )
                % {"count": len(missing), "codes": shown}
            )
        rnd.status = Round.Status.COMPLETED
        rnd.completed_at = now
        rnd.save(update_fields=["status", "completed_at"])
        audit.log(event, "round.completed", actor=by, at=now, subject=rnd.label)
        standings.results_changed(event)
    return rnd


def swap(
    rnd: Round,
    first: int,
    second: int,
    *,
    by: Any,
    reason: str,
    now: datetime | None = None,
) -> list[str]:
    """Swap two entrants (by number) in a draft round, as a marked override of the engine's
    proposal: between two matches (and their groups, when the matches are in different
    groups), or within one match, which exchanges their seats and so their colours or sides.
    The override records the engine's proposal, the change, who, when and the required
    reason. Returns warnings about soft rules the swap breaks (e.g. a rematch)."""
    now = now or timezone.now()
    if not reason.strip():
        raise ServiceError([Problem("swap.reason", "reason", "Say why you change the pairing.")])
    if first == second:
        raise ServiceError([Problem("swap.same", "second", "Choose two different entrants.")])
    with transaction.atomic(), outbox.touching(rounds=[rnd.number]):
        event = locking.lock_event(rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != Round.Status.DRAFT:
            raise ServiceError(
                _("%(round)s is published: only a draft's pairings can change.")
                % {"round": round_label(rnd.label)}
            )
        seats = list(
            MatchParticipant.objects.filter(match__round=rnd, entrant__number__in=[first, second])
            .select_related("entrant", "match")
            .select_for_update(of=("self",))
        )
        by_number: dict[int, list[MatchParticipant]] = {}
        for seat in seats:
            if seat.entrant is not None:  # always: the query asked for these entrants
                by_number.setdefault(seat.entrant.number, []).append(seat)
        missing = [n for n in (first, second) if n not in by_number]
        if missing:
            raise ServiceError(
                [
                    Problem(
                        "swap.not_in_round",
                        "first" if missing[0] == first else "second",
                        f"Entrant {missing[0]} does not play in {rnd.label}.",
                    )
                ]
            )
        a_entrant, b_entrant = by_number[first][0].entrant, by_number[second][0].entrant
        assert a_entrant is not None and b_entrant is not None  # by_number holds seated ones
        # the format says what a swap does to the rounds that follow (a round robin's
        # Berger table), or refuses it
        plan_swap = getattr(event.engine, "plan_swap", None)
        plan = (
            plan_swap(load_event_state(event), rnd.number, str(first), str(second))
            if plan_swap is not None
            else SwapPlan()
        )
        if plan.refused is not None:
            raise ServiceError([plan.refused])
        # every seat of the round (a group plays several matches in one round): where both
        # sit in one match they exchange seats, elsewhere each takes the other's place
        a_matches = {p.match_id for p in by_number[first]}
        b_matches = {p.match_id for p in by_number[second]}
        kind = "seats" if a_matches == b_matches else "pairing"
        matches = sorted({p.match_id: p.match for p in seats}.values(), key=lambda m: m.order)
        before = {m.code: _names(m) for m in matches}
        # two steps: the (match, entrant) constraint forbids a moment with both in one match
        for seat in seats:
            seat.entrant = None
        MatchParticipant.objects.bulk_update(seats, ["entrant"])
        for seat in by_number[first]:
            seat.entrant = b_entrant
        for seat in by_number[second]:
            seat.entrant = a_entrant
        MatchParticipant.objects.bulk_update(seats, ["entrant"])
        groups = {m.group_id for m in matches if m.group_id is not None}
        if kind == "pairing" and len(groups) > 1:
            _swap_groups(groups, a_entrant, b_entrant)
        for match in matches:
            override = dict(match.details.get("override") or {})
            # the engine's proposal is kept from the first change: later ones stack on it
            override.setdefault("engine", before[match.code])
            override.setdefault("engine_reasons", [r.get("text", "") for r in match.reasons])
            override.update(
                {
                    "kind": kind,
                    "after": _names(match),
                    "by": str(by) if by else "",
                    "reason": reason.strip(),
                    "at": now.isoformat(),
                }
            )
            match.details = {**match.details, "override": override}
            match.overridden = True
            match.save(update_fields=["details", "overridden"])
        if plan.details is not None:
            rnd.details = jsonable(plan.details)
            rnd.save(update_fields=["details"])
        audit.log(
            event,
            "round.pairing_overridden",
            actor=by,
            at=now,
            subject=f"{rnd.label}: {a_entrant.name} <-> {b_entrant.name}",
            before=before,
            after={m.code: _names(m) for m in matches},
            reason=reason,
        )
        notes = [plan.note] if plan.note else []
        return notes + (_rematch_warnings(event, rnd, matches) if kind == "pairing" else [])


def _swap_groups(groups: set[int], a: Entrant, b: Entrant) -> None:
    """Entrants swapped between two groups take each other's group place (and seed), so the
    group tables follow the pairing."""
    rows = list(
        GroupMember.objects.select_for_update().filter(
            group_id__in=groups, entrant_id__in=[a.pk, b.pk]
        )
    )
    for row in rows:
        row.entrant_id = b.pk if row.entrant_id == a.pk else a.pk
    GroupMember.objects.bulk_update(rows, ["entrant"])


def _names(match: Match) -> list[str | None]:
    return [
        p.entrant.name if p.entrant else None
        for p in MatchParticipant.objects.filter(match=match).select_related("entrant")
    ]


def _rematch_warnings(event: Event, rnd: Round, matches: list[Match]) -> list[str]:
    warnings = []
    for match in matches:
        numbers = sorted(
            MatchParticipant.objects.filter(match=match, entrant__isnull=False).values_list(
                "entrant_id", flat=True
            )
        )
        if len(numbers) != 2:
            continue
        earlier = (
            Match.objects.filter(round__event=event, round__number__lt=rnd.number)
            .filter(participants__entrant_id=numbers[0])
            .filter(participants__entrant_id=numbers[1])
            .select_related("round")
            .first()
        )
        if earlier is not None:
            names = " and ".join(n or "" for n in _names(match))
            warnings.append(f"{names} have met before ({earlier.round.label}).")
    return warnings
