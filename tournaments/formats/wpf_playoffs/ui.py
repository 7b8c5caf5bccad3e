"""The web side of the WPF GP Playoffs: submissions typed per player, hidden online results,
eligibility, puzzle selection and the ladder page.

Screens (tournaments/formats/wpf_playoffs/views.py): the director's overview with the reveal
button, eligibility entry, puzzle pools and picks, preference lists (the player's own, or
the director on their behalf), and the public ladder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rules.contract import Problem
from tournaments.formats.base import DetailField, FormatUI
from tournaments.formats.registry import register
from tournaments.formats.wpf_playoffs import entry

KEY = "wpf_playoffs"
JUDGES = "judges_winner"
TIMERS = "timers"


@dataclass(frozen=True)
class WpfPlayoffsUI(FormatUI):
    score_label: Any = _("Time")  # noqa: RUF009 - a lazy string
    inputs_template: str = "tournaments/formats/wpf_playoffs/_result_inputs.html"

    def parse(
        self, data: Mapping[str, Any], seats: int, settings: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], list[Problem]]:
        return entry.parse(data, seats, settings)

    def rows(self, match: Any, settings: Mapping[str, Any]) -> list[dict[str, Any]]:
        return entry.rows(match, settings)

    def verdict_choices(self) -> Sequence[tuple[str, Any]]:
        return entry.VERDICT_LABELS

    # "Judges' decisions are final." A live match the timers cannot decide (a malfunction,
    # a tie the judges cannot split) is decided by them: typed with the result.
    def match_fields(self, match: Any) -> tuple[DetailField, ...]:
        if entry.stage_of(match.code) != "live":
            return ()
        names = [
            (str(p.seat), p.entrant.name if p.entrant else str(_("bye")))
            for p in match.participants.all()
        ]
        choices = ((TIMERS, _("the timers decide")), *names)
        return (DetailField(JUDGES, str(_("Judges' decision")), choices=choices),)

    def parse_match_details(
        self, data: Mapping[str, Any], match: Any
    ) -> tuple[dict[str, Any], list[Problem]]:
        details, problems = super().parse_match_details(data, match)
        if JUDGES in details:
            # a seat index, or None: back to the timers (an empty field keeps what is stored)
            value = details[JUDGES]
            details[JUDGES] = None if value == TIMERS else int(value)
        return details, problems

    def match_rows(self, match: Any) -> list[dict[str, Any]]:
        rows = super().match_rows(match)
        for row in rows:
            if row["name"] == f"m-{JUDGES}" and match.details.get(JUDGES) is None:
                row["value"] = TIMERS if JUDGES in match.details else ""
        return rows

    # "Online results stay hidden from the public until the director reveals them."
    def public_rounds(self, event: Any, rounds: Sequence[Any]) -> list[Any]:
        from tournaments.formats.wpf_playoffs.reads import public_rounds

        return public_rounds(event, rounds)

    def public_table(self, event: Any, key: str) -> bool:
        # "overall" is the director's table; "public" (and "eligibility") are for visitors
        return key != "overall"

    def hides_results(self, event: Any, rounds: Sequence[Any]) -> bool:
        from tournaments.formats.wpf_playoffs.reads import revealed

        return not revealed(event, rounds)

    def public_links(self, event: Any) -> list[tuple[Any, str]]:
        return [(_("Ladder"), reverse("tournaments:wpf_playoffs_ladder", args=[event.slug]))]

    def director_links(self, event: Any) -> list[tuple[Any, str]]:
        slug = [event.slug]
        return [
            (_("Playoffs"), reverse("tournaments:wpf_playoffs_manage", args=slug)),
            (_("Eligibility"), reverse("tournaments:wpf_playoffs_eligibility", args=slug)),
            (_("Puzzles"), reverse("tournaments:wpf_playoffs_puzzles", args=slug)),
        ]


register(KEY, WpfPlayoffsUI())


def _screens() -> list[tuple[str, str, str]]:
    views = "tournaments.formats.wpf_playoffs.views"

    manage = f"e/<slug:slug>/manage/{KEY}"
    return [
        (f"{manage}/", f"{views}.overview", f"{KEY}_manage"),
        (f"{manage}/reveal", f"{views}.reveal", f"{KEY}_reveal"),
        (f"{manage}/eligibility/", f"{views}.eligibility", f"{KEY}_eligibility"),
        (f"{manage}/puzzles/", f"{views}.puzzles", f"{KEY}_puzzles"),
        (f"{manage}/puzzles/live/<int:number>", f"{views}.live_puzzle", f"{KEY}_live_puzzle"),
        (
            f"{manage}/preferences/<int:number>/",
            f"{views}.preferences_for",
            f"{KEY}_preferences_for",
        ),
        (f"e/<slug:slug>/{KEY}/preferences/", f"{views}.my_preferences", f"{KEY}_preferences"),
        (f"e/<slug:slug>/{KEY}/ladder/", f"{views}.ladder", f"{KEY}_ladder"),
    ]


# (route, the view's dotted path, URL name): tournaments/urls_formats.py imports the views,
# so that this module, which services read, never imports one (no import cycle).
SCREENS = _screens()
