"""Forms of the WPF GP Playoffs' screens. Each error names the field and the problem."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.formats.wpf_playoffs.schedule import ONLINE_LETTERS
from tournaments.formats.wpf_playoffs.services import EligibilityEntry
from tournaments.models import Entrant

_SPLIT = re.compile(r"[\s;,]+")


def _number(text: str) -> float | int | None:
    try:
        value = float(text.replace(",", "."))
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if value.is_integer() else value


def parse_scores(text: str) -> tuple[list[float | int] | None, str]:
    """'812 640.5 903' or '812, 640; 903' -> numbers; an error text when one is not."""
    text = text.strip()
    if not text:
        return None, ""
    # commas separate scores, so a decimal point is a point: "812.5"
    parts = [p for p in _SPLIT.split(text) if p]
    values = []
    for part in parts:
        value = _number(part)
        if value is None:
            return None, f"'{part}' is not a number."
        if value < 0:
            return None, f"{part} is negative; a GP score cannot be."
        values.append(value)
    return values, ""


class EligibilityForm:
    """One row per entrant: GP round scores or the total, attending, GP position.

    Field names: ``e<number>-scores``, ``e<number>-total``, ``e<number>-attending``,
    ``e<number>-position``."""

    def __init__(self, entrants: Sequence[Entrant], data: Mapping[str, Any] | None = None):
        self.entrants = list(entrants)
        self.data = data
        self.errors: dict[str, str] = {}
        self.entries: list[EligibilityEntry] = []

    def rows(self) -> list[dict[str, Any]]:
        rows = []
        for entrant in self.entrants:
            prefix = f"e{entrant.number}"
            flags = entrant.flags
            if self.data is not None:
                scores = str(self.data.get(f"{prefix}-scores", ""))
                total = str(self.data.get(f"{prefix}-total", ""))
                attending = bool(self.data.get(f"{prefix}-attending"))
                position = str(self.data.get(f"{prefix}-position", ""))
            else:
                scores = " ".join(_show(v) for v in flags.get("gp_scores") or [])
                total = _show(flags.get("gp_total"))
                attending = bool(flags.get("attending", False))
                position = _show(flags.get("gp_position"))
            rows.append(
                {
                    "entrant": entrant,
                    "prefix": prefix,
                    "scores": scores,
                    "total": total,
                    "attending": attending,
                    "position": position,
                    "errors": {
                        k.split("-", 1)[1]: v
                        for k, v in self.errors.items()
                        if k.startswith(prefix + "-")
                    },
                }
            )
        return rows

    def is_valid(self) -> bool:
        assert self.data is not None
        self.errors = {}
        self.entries = []
        for entrant in self.entrants:
            prefix = f"e{entrant.number}"
            scores, error = parse_scores(str(self.data.get(f"{prefix}-scores", "")))
            if error:
                self.errors[f"{prefix}-scores"] = f"{entrant.name}, GP round scores: {error}"
            total_text = str(self.data.get(f"{prefix}-total", "")).strip()
            total = _number(total_text) if total_text else None
            if total_text and (total is None or total < 0):
                self.errors[f"{prefix}-total"] = (
                    f"{entrant.name}, eligibility score: '{total_text}' is not a number "
                    "that is not negative."
                )
            if scores and total is not None:
                self.errors[f"{prefix}-total"] = (
                    f"{entrant.name}: enter the GP round scores or the total, not both."
                )
            position_text = str(self.data.get(f"{prefix}-position", "")).strip()
            position = None
            if position_text:
                if position_text.isdigit() and int(position_text) >= 1:
                    position = int(position_text)
                else:
                    self.errors[f"{prefix}-position"] = (
                        f"{entrant.name}, GP position: '{position_text}' is not a place "
                        "(1, 2, 3 ...)."
                    )
            self.entries.append(
                EligibilityEntry(
                    entrant.number,
                    scores,
                    total,
                    bool(self.data.get(f"{prefix}-attending")),
                    position,
                )
            )
        return not self.errors


def _show(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _pool_list(text: str) -> list[str]:
    items = re.split(r"[\n,]+", text)
    return [item.strip() for item in items if item.strip()]


class PuzzlesForm(forms.Form):
    puzzle_selection = forms.ChoiceField(
        label=_("How online puzzles are chosen"),
        choices=[
            ("preference_lists", _("Puzzle GP: by the players' preference lists")),
            ("fixed", _("Sudoku GP: a puzzle fixed in advance for each round")),
        ],
    )
    online_puzzles = forms.CharField(
        label=_("Online puzzles"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_(
            "One a line. Puzzle GP: the pool of 8. Sudoku GP: the puzzles of rounds A to G, "
            "in order."
        ),
    )
    live_puzzles = forms.CharField(
        label=_("Live puzzles"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One a line: the pool of 4 the rank 1 player chooses from."),
    )

    def clean_online_puzzles(self) -> list[str]:
        return _unique(_pool_list(self.cleaned_data["online_puzzles"]), "online")

    def clean_live_puzzles(self) -> list[str]:
        return _unique(_pool_list(self.cleaned_data["live_puzzles"]), "live")


def _unique(items: list[str], which: str) -> list[str]:
    seen = [i for n, i in enumerate(items) if i in items[:n]]
    if seen:
        raise forms.ValidationError(
            _("%(puzzle)s is listed twice in the %(which)s puzzles.")
            % {"puzzle": seen[0], "which": which}
        )
    return items


class PreferenceForm(forms.Form):
    """The puzzles in order of preference, one select per place."""

    letter = forms.ChoiceField(label=_("For"), required=False)

    def __init__(self, pool: Sequence[str], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.pool = list(pool)
        cast(forms.ChoiceField, self.fields["letter"]).choices = [("", _("every online round"))] + [
            (letter, _("round %(letter)s") % {"letter": letter}) for letter in ONLINE_LETTERS
        ]
        choices = [("", "—")] + [(p, p) for p in self.pool]
        for place in range(1, len(self.pool) + 1):
            self.fields[f"c{place}"] = forms.ChoiceField(
                label=_("Choice %(n)s") % {"n": place}, choices=choices, required=False
            )

    def places(self) -> list[Any]:
        return [self[f"c{n}"] for n in range(1, len(self.pool) + 1)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        order = [data.get(f"c{n}") or "" for n in range(1, len(self.pool) + 1)]
        if not any(order):
            data["order"] = []  # an empty list removes the entrant's list
            return data
        for n, puzzle in enumerate(order, start=1):
            if not puzzle:
                self.add_error(f"c{n}", _("Choose a puzzle for place %(n)s.") % {"n": n})
            elif puzzle in order[: n - 1]:
                self.add_error(
                    f"c{n}",
                    _("%(puzzle)s is already your choice %(first)s.")
                    % {"puzzle": puzzle, "first": order.index(puzzle) + 1},
                )
        data["order"] = order
        return data


class LivePuzzleForm(forms.Form):
    puzzle = forms.ChoiceField(label=_("Puzzle chosen"))

    def __init__(self, options: Sequence[str], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["puzzle"]).choices = [(p, p) for p in options]
