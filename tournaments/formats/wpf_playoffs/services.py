"""Writers of the WPF GP Playoffs' own data: eligibility, puzzles, preference lists, reveal.

Each function is one user action: one transaction, the event row locked, an audit row.
The keys written are the ones the engine reads (docs/formats/wpf_playoffs.md, "Data keys").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.contract import Problem
from rules.formats.wpf_playoffs.puzzles import preference_list
from rules.formats.wpf_playoffs.replay import REVEAL_SETTING
from rules.formats.wpf_playoffs.schedule import ONLINE_LETTERS, SESSIONS, Stage
from tournaments.formats.wpf_playoffs import series_link
from tournaments.models import Entrant, Event, Match, Round
from tournaments.services import audit, locking, standings
from tournaments.services.errors import ServiceError
from tournaments.words import label

FORMAT = "wpf_playoffs"
REFUSAL = gettext_lazy("a WPF GP playoff")
ONLINE_ROUNDS = len(ONLINE_LETTERS)  # engine rounds 1-7 are the online rounds A-G


@dataclass(frozen=True)
class EligibilityEntry:
    """What the director typed for one candidate (None: left empty)."""

    number: int
    gp_scores: list[float | int] | None
    gp_total: float | int | None
    attending: bool
    gp_position: int | None


def save_eligibility(
    event: Event, entries: Sequence[EligibilityEntry], *, by: Any, now: datetime | None = None
) -> int:
    """Write each candidate's GP scores (or total), attendance and GP position into the
    entrant flags the engine reads. Refused once round A exists: the seeds are fixed then.
    Returns how many entrants changed."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        if event.rounds.exists():
            raise ServiceError(
                _(
                    "Round A is drafted: the seeds are fixed. Delete its draft to change "
                    "eligibility."
                )
            )
        problems = []
        for entry in entries:
            values = [*(entry.gp_scores or []), entry.gp_total]
            if any(v is not None and v < 0 for v in values):
                problems.append(
                    Problem("wpf.negative", f"e{entry.number}", "A GP score cannot be negative.")
                )
        if problems:
            raise ServiceError(problems)
        wanted = {entry.number: entry for entry in entries}
        linked = series_link.seeds(event)
        if set(wanted) & set(linked):
            raise ServiceError(
                [
                    Problem(
                        "wpf.from_series",
                        f"e{number}",
                        _(
                            "%(name)s: the eligibility score, GP position and attendance "
                            "come from the series; change the series, then take the seeds "
                            "from it again."
                        )
                        % {"name": linked[number].name},
                    )
                    for number in sorted(set(wanted) & set(linked))
                ]
            )
        entrants = list(Entrant.objects.select_for_update().filter(event=event, number__in=wanted))
        changed = []
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        for entrant in entrants:
            entry = wanted[entrant.number]
            flags = dict(entrant.flags)
            for key in ("gp_scores", "gp_total", "gp_position"):
                flags.pop(key, None)
            if entry.gp_scores:
                flags["gp_scores"] = list(entry.gp_scores)
            elif entry.gp_total is not None:
                flags["gp_total"] = entry.gp_total
            if entry.gp_position is not None:
                flags["gp_position"] = entry.gp_position
            flags["attending"] = entry.attending
            if flags != entrant.flags:
                before[str(entrant.number)] = _eligibility_flags(entrant.flags)
                after[str(entrant.number)] = _eligibility_flags(flags)
                entrant.flags = flags
                changed.append(entrant)
        Entrant.objects.bulk_update(changed, ["flags"])
        if changed:
            audit.log(
                event,
                "wpf.eligibility_saved",
                actor=by,
                at=now,
                subject=f"{len(changed)} candidates",
                before=before,
                after=after,
            )
            standings.results_changed(event)
    return len(changed)


def apply_series_seeds(event: Event) -> dict[str, Any]:
    """Write what the linked series says (series_link.py) into the flags of the entrants
    made from its line; typed GP scores of those entrants give way. A step inside the
    audited actions that call it (places.make_entrants, seeds_from_series), under their
    lock. Returns {number: [before, after]} of the entrants changed."""
    found = series_link.seeds(event)
    entrants = list(Entrant.objects.select_for_update().filter(event=event, number__in=list(found)))
    changed, said = [], {}
    for entrant in entrants:
        flags = {
            k: v for k, v in entrant.flags.items() if k not in ("gp_scores", "gp_total")
        } | found[entrant.number].flags()
        if flags != entrant.flags:
            said[str(entrant.number)] = [
                _eligibility_flags(entrant.flags),
                _eligibility_flags(flags),
            ]
            entrant.flags = flags
            changed.append(entrant)
    Entrant.objects.bulk_update(changed, ["flags"])
    return said


def seeds_from_series(event: Event, *, by: Any, now: datetime | None = None) -> int:
    """Read the linked series again (a GP round rescored, an offer confirmed since) and
    write its totals, ranks and attendance into the entrants' flags. Refused once round A
    exists: the seeds are fixed then. Returns how many entrants changed."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        if event.rounds.exists():
            raise ServiceError(
                _("Round A is drafted: the seeds are fixed. Delete its draft to seed again.")
            )
        series = series_link.linked_series(event)
        if series is None:
            raise ServiceError(_("This event's players were not qualified from a series."))
        said = apply_series_seeds(event)
        if said:
            audit.log(
                event,
                "wpf.seeds_from_series",
                actor=by,
                at=now,
                subject=series.name,
                before={n: pair[0] for n, pair in said.items()},
                after={n: pair[1] for n, pair in said.items()},
            )
            standings.results_changed(event)
    return len(said)


def _eligibility_flags(flags: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("gp_scores", "gp_total", "attending", "gp_position")
    return {k: flags[k] for k in keys if k in flags}


def save_puzzles(
    event: Event,
    *,
    selection: str,
    online: Sequence[str],
    live: Sequence[str],
    by: Any,
    now: datetime | None = None,
) -> None:
    """The puzzle selection mode and the two pools. The online side is fixed once round A
    is drafted (earlier picks were made from it), the live pool once a heat is drafted."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        settings = dict(event.settings)
        new = {
            **settings,
            "puzzle_selection": selection,
            "online_puzzles": list(online),
            "live_puzzles": list(live),
        }
        engine = event.engine
        current = event.resolved_settings()
        problems = list(engine.validate_settings(new))
        rounds = list(event.rounds.values_list("number", flat=True))
        if rounds and (
            selection != current["puzzle_selection"]
            or list(online) != list(current["online_puzzles"])
        ):
            problems.append(
                Problem(
                    "wpf.puzzles_fixed",
                    "online_puzzles",
                    "Round A is drafted: the online puzzles and the selection mode are fixed.",
                )
            )
        if any(n > ONLINE_ROUNDS for n in rounds) and list(live) != list(current["live_puzzles"]):
            problems.append(
                Problem(
                    "wpf.live_fixed",
                    "live_puzzles",
                    "A live heat is drafted: the live puzzle pool is fixed.",
                )
            )
        if selection == "preference_lists" and online and len(online) != 8:
            problems.append(
                Problem(
                    "wpf.pool_size",
                    "online_puzzles",
                    f"The online pool has 8 puzzles; you entered {len(online)}.",
                )
            )
        if selection == "fixed" and len(online) > ONLINE_ROUNDS:
            problems.append(
                Problem(
                    "wpf.fixed_size",
                    "online_puzzles",
                    f"Sudoku GP mode: one puzzle for each of rounds A-G, at most 7; "
                    f"you entered {len(online)}.",
                )
            )
        if live and len(live) != 4:
            problems.append(
                Problem(
                    "wpf.live_size",
                    "live_puzzles",
                    f"The live pool has 4 puzzles; you entered {len(live)}.",
                )
            )
        if problems:
            raise ServiceError(problems)
        if new == settings:
            return
        event.settings = new
        event.save(update_fields=["settings"])
        keys = ("puzzle_selection", "online_puzzles", "live_puzzles")
        audit.log(
            event,
            "wpf.puzzles_saved",
            actor=by,
            at=now,
            subject="puzzle pools",
            before={k: settings.get(k) for k in keys},
            after={k: new[k] for k in keys},
        )


def save_preferences(
    entrant: Entrant,
    order: Sequence[str],
    *,
    letter: str | None,
    by: Any,
    as_director: bool,
    now: datetime | None = None,
) -> None:
    """An entrant's preference list for round ``letter`` (None: every round); an empty
    ``order`` removes it. "Before the online stage begins": a player may change lists
    until round A is drafted; the director may change the list of a round not drafted yet
    (on the player's behalf, audited)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(entrant.event_id, format=FORMAT, refusal=REFUSAL)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        settings = event.resolved_settings()
        pool = [str(p) for p in settings["online_puzzles"]]
        if settings["puzzle_selection"] != "preference_lists":
            raise ServiceError(_("Sudoku GP mode: each round's puzzle is fixed in advance."))
        if not pool:
            raise ServiceError(_("The director has not entered the online puzzle pool yet."))
        if letter is not None and letter not in ONLINE_LETTERS:
            raise ServiceError([Problem("wpf.letter", "letter", f"'{letter}' is not a round.")])
        drafted = {
            str(d.get("letter"))
            for d in event.rounds.filter(number__lte=ONLINE_ROUNDS).values_list(
                "details", flat=True
            )
        }
        if drafted and not as_director:
            raise ServiceError(
                _(
                    "The online stage has begun: preference lists are closed. "
                    "Ask the director if yours must change."
                )
            )
        if letter is not None and letter in drafted:
            raise ServiceError(
                [Problem("wpf.drafted", "letter", f"Round {letter} is drafted: its list is used.")]
            )
        order = [str(p) for p in order]
        if order and sorted(order) != sorted(pool):
            raise ServiceError(
                [
                    Problem(
                        "wpf.preference_list.incomplete",
                        "order",
                        f"Put each of the {len(pool)} puzzles in the list exactly once.",
                    )
                ]
            )
        flags = dict(entrant.flags)
        old = flags.get("puzzle_preferences")
        lists = {
            lt: preference_list(flags, lt)
            for lt in ONLINE_LETTERS
            if preference_list(flags, lt) is not None
        }
        targets = [letter] if letter is not None else [lt for lt in ONLINE_LETTERS]
        for lt in targets:
            if lt in drafted:
                continue  # a list already used stays as it was
            if order:
                lists[lt] = list(order)
            else:
                lists.pop(lt, None)
        values = list(lists.values())
        if not lists:
            flags.pop("puzzle_preferences", None)
        elif len(lists) == len(ONLINE_LETTERS) and all(v == values[0] for v in values):
            flags["puzzle_preferences"] = list(values[0])  # one list serves every round
        else:
            flags["puzzle_preferences"] = {lt: list(v) for lt, v in lists.items()}
        if flags == entrant.flags:
            return
        entrant.flags = flags
        entrant.save(update_fields=["flags"])
        audit.log(
            event,
            "wpf.preferences_saved",
            actor=by,
            at=now,
            subject=f"{entrant.name}: {'every round' if letter is None else 'round ' + letter}",
            before={"puzzle_preferences": old},
            after={"puzzle_preferences": flags.get("puzzle_preferences")},
            reason="entered by the director" if as_director else "",
        )


def choose_live_puzzle(rnd: Round, puzzle: str, *, by: Any, now: datetime | None = None) -> None:
    """Record the puzzle the rank 1 player chose for a live round letter, on its first heat
    (round details ``puzzle``, which the engine reads)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(rnd.event_id, format=FORMAT, refusal=REFUSAL)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if rnd.details.get("stage") != Stage.LIVE.value:
            raise ServiceError(
                _("%(round)s is an online round: its puzzle is picked by rule.")
                % {"round": label(rnd.label)}
            )
        options = [str(p) for p in rnd.details.get("puzzle_options") or []]
        if "puzzle_options" not in rnd.details:
            raise ServiceError(
                _("%(round)s plays the puzzle chosen on the first heat of its round.")
                % {"round": label(rnd.label)}
            )
        if event.rounds.filter(number__gt=rnd.number).exists():
            raise ServiceError(
                _("A later heat is drafted: the puzzle of %(round)s is fixed.")
                % {"round": label(rnd.label)}
            )
        if puzzle not in options:
            raise ServiceError(
                [
                    Problem(
                        "wpf.live_option", "puzzle", "Choose one of the puzzles left in the pool."
                    )
                ]
            )
        before = rnd.details.get("puzzle")
        rnd.details = {**rnd.details, "puzzle": puzzle}
        rnd.save(update_fields=["details"])
        audit.log(
            event,
            "wpf.live_puzzle_chosen",
            actor=by,
            at=now,
            subject=f"{rnd.label}: {puzzle}",
            before={"puzzle": before},
            after={"puzzle": puzzle},
        )


def reveal_online_results(event: Event, *, by: Any, now: datetime | None = None) -> None:
    """ "At the beginning of the live stage, the official results of the online stage will
    be presented": the online rounds, their results and the ranks become public. Allowed
    once round G's online matches are all closed; done once."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locking.lock_event(event, format=FORMAT, refusal=REFUSAL)
        if event.settings.get(REVEAL_SETTING, False):
            raise ServiceError(_("The online results are public already."))
        closed = event.rounds.filter(
            number__lte=ONLINE_ROUNDS, status=Round.Status.COMPLETED
        ).count()
        if closed < ONLINE_ROUNDS:
            missing = SESSIONS[closed].label
            raise ServiceError(
                _(
                    "The online stage is not over: close %(round)s first. The results are "
                    "revealed at the start of the live stage."
                )
                % {"round": label(missing)}
            )
        event.settings = {**event.settings, REVEAL_SETTING: True}
        event.save(update_fields=["settings"])
        # The stored scores said "not public"; they are now (MatchScore.details["public"]).
        matches = list(
            Match.objects.filter(round__event=event, round__number__lte=ONLINE_ROUNDS).exclude(
                result=None
            )
        )
        for match in matches:
            result = match.result or {}  # never empty: the query excludes them
            details = dict(result.get("details") or {})
            details["public"] = True
            match.result = {**result, "details": details}
        Match.objects.bulk_update(matches, ["result"])
        audit.log(
            event,
            "wpf.online_results_revealed",
            actor=by,
            at=now,
            subject="online results",
            before={REVEAL_SETTING: False},
            after={REVEAL_SETTING: True},
        )
        standings.results_changed(event)
