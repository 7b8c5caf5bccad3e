"""Sentences of series totals (rules/series.py)."""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # one stage in a total
    "series.line.score": _("{stage}: score {score}."),
    "series.line.place": _("{stage}: place {place}, {points} points."),
    "series.line.place_scored": _("{stage}: score {score}, place {place}, {points} points."),
    "series.line.place_shared": _(
        "{stage}: place {place} shared by {tied} players, {points} points "
        "(the average of the points of places {place} to {last})."
    ),
    "series.line.place_shared_scored": _(
        "{stage}: score {score}, place {place} shared by {tied} players, {points} points "
        "(the average of the points of places {place} to {last})."
    ),
    # the total
    "series.total.sum": _("Every stage played counts ({played}): {total} in all."),
    "series.total.fewer": _(
        "{played} stages played, no more than the best {best} that count: all count, "
        "{total} in all."
    ),
    "series.total.best": _(
        "The best {best} of {played} stages played count, {total} in all; dropped: {dropped}."
    ),
    "series.total.absent": _("Not played: {stages} (a stage not played counts as nothing)."),
    # equal totals
    "series.tie.shared": _("Level on {total} with {others}: the rank is shared."),
    "series.tie.countback_ahead": _(
        "Ahead of {other} on countback: {part} value {nth}, {mine} against {theirs}."
    ),
    "series.tie.countback_behind": _(
        "Behind {other} on countback: {part} value {nth}, {mine} against {theirs}."
    ),
    "series.tie.countback_shared": _(
        "Level with {others} on every value, counted and dropped: the rank is shared."
    ),
    "series.part.counted": _("counted"),
    "series.part.dropped": _("dropped"),
    # the rule
    "series.best": _("The number of best stages that count must be 1 or more; got {best}."),
    "series.points_long": _("The points table has more than {limit} places."),
    "series.points_negative": _("The points table gives a place fewer than 0 points."),
    "series.points_order": _("The points table gives a place more points than the place above it."),
    "series.stages_many": _("A series has at most {limit} stages."),
    "series.points_missing": _(
        "Points by place need a points table (an event's stage has places, not scores)."
    ),
}
