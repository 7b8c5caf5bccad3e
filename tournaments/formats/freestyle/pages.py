"""Reads for the Freestyle pages: every draw with what it chose, and the knockout bracket.

Each reader runs a fixed number of queries whatever the event's size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.formats.freestyle.tables import (
    FINALS,
    ROUND2_GROUPINGS,
    ROUND2_GROUPS,
    ROUND3_GROUPINGS,
    ROUND3_GROUPS,
    SEMI_FINALS,
    round2_grouping,
    round3_grouping,
    slot,
)
from tournaments import selectors
from tournaments.models import Entrant, Event, Group, GroupMember, Match, RandomDraw, Round

GROUPING = re.compile(r"^round-([23])/grouping/(\d+)$")
ROUND3_SEEDING = re.compile(r"^round-3/group-([^/]+)/seeding-(\d)/digit$")
FINAL_SEEDING = re.compile(r"^finals/(F|3P)/seeding/digit$")
TIEBREAKER = re.compile(r"^round-(\d+)/group-([^/]+)/tiebreaker/(.+)$")
EQUAL_RATING = re.compile(r"^round-1/equal-rating/(.+)$")


@dataclass
class DrawRow:
    draw: RandomDraw
    title: str
    outcome: str
    groups: list[dict[str, Any]] = field(default_factory=list)  # the grouping it chose
    reasons: list[str] = field(default_factory=list)


@dataclass
class DrawSection:
    key: str
    title: str
    rows: list[DrawRow] = field(default_factory=list)


def draw_sections(event: Event, *, include_drafts: bool = False) -> list[DrawSection]:
    """Every draw of the event, by round, each with the grouping or seeding it decided.

    Draws made for a draft round stay hidden from the public until it is published.
    """
    draws = list(
        RandomDraw.objects.filter(event=event)
        .select_related("round", "drawn_by")
        .order_by("drawn_at", "pk")
    )
    if not include_drafts:
        draws = [d for d in draws if d.round is None or d.round.status != Round.Status.DRAFT]
    rounds = {
        r.number: r
        for r in Round.objects.filter(event=event).prefetch_related(
            Prefetch(
                "groups",
                queryset=Group.objects.order_by("order").prefetch_related(
                    Prefetch(
                        "members",
                        queryset=GroupMember.objects.select_related("entrant").order_by("seed"),
                    )
                ),
            )
        )
        if include_drafts or r.status != Round.Status.DRAFT
    }
    names = dict(Entrant.objects.filter(event=event).values_list("number", "name"))

    def name(entrant: Any) -> str:
        try:
            return names.get(int(entrant), str(entrant))
        except (TypeError, ValueError):
            return str(entrant)

    sections = {
        key: DrawSection(key, title)
        for key, title in (
            ("1", _("Round 1")),
            ("2", _("Round 2")),
            ("3", _("Round 3")),
            ("finals", _("Final and third place")),
            ("tiebreakers", _("Tiebreaker games")),
            ("other", _("Other draws")),
        )
    }
    for draw in draws:
        section, row = _describe(draw, rounds, name)
        sections[section].rows.append(row)
    return [s for s in sections.values() if s.rows]


def _describe(draw: RandomDraw, rounds: dict[int, Round], name: Any) -> tuple[str, DrawRow]:
    key, value = draw.key, draw.value
    if found := GROUPING.match(key):
        number, attempt = int(found.group(1)), int(found.group(2))
        chosen = (round2_grouping if number == 2 else round3_grouping)(_int(value))
        title = _("Grouping digit, attempt %(n)s") % {"n": attempt}
        if chosen is None:
            return str(number), DrawRow(
                draw, title, _("%(d)s chooses no grouping: drawn again") % {"d": value}
            )
        outcome = _("%(d)s: grouping %(g)s") % {"d": value, "g": chosen}
        return str(number), DrawRow(draw, title, outcome, _groups(number, chosen, rounds, name))
    if found := ROUND3_SEEDING.match(key):
        place = found.group(2)
        title = _("Group %(g)s: seeding of the two #%(p)ss") % {"g": found.group(1), "p": place}
        return "3", DrawRow(draw, title, _parity(value), reasons=_reasons(rounds, 3, key))
    if found := FINAL_SEEDING.match(key):
        title = _("Final: seeding") if found.group(1) == "F" else _("Third place game: seeding")
        return "finals", DrawRow(draw, title, _parity(value), reasons=_reasons(rounds, FINALS, key))
    if found := TIEBREAKER.match(key):
        tied = ", ".join(name(e) for e in found.group(3).split("+"))
        title = _("Round %(r)s, group %(g)s: %(tied)s") % {
            "r": found.group(1),
            "g": found.group(2),
            "tied": tied,
        }
        if isinstance(value, list):
            outcome = _("order: %(o)s") % {"o": ", ".join(name(e) for e in value)}
        else:
            outcome = _("won by %(w)s") % {"w": name(value)}
        return "tiebreakers", DrawRow(draw, title, outcome)
    if found := EQUAL_RATING.match(key):
        title = _("Lot among equal ratings (%(r)s)") % {"r": found.group(1)}
        order = ", ".join(name(e) for e in value) if isinstance(value, list) else str(value)
        return "1", DrawRow(draw, title, order)
    return "other", DrawRow(draw, draw.purpose or key, str(value))


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _parity(value: Any) -> str:
    digit = _int(value)
    if digit < 0:
        return str(value)
    return (_("%(d)s, even") if digit % 2 == 0 else _("%(d)s, odd")) % {"d": digit}


def _reasons(rounds: dict[int, Round], number: int, key: str) -> list[str]:
    found = rounds.get(number)
    return [r["text"] for r in (found.reasons if found else []) if key in r.get("text", "")]


def _groups(number: int, chosen: int, rounds: dict[int, Round], name: Any) -> list[dict[str, Any]]:
    """The chosen grouping as printed (B1, Y2, ...) with the player in each place.

    A group's members are in seed order, which is the order of their places (#1 first),
    so they pair with the printed codes sorted by place, unless a withdrawal left a gap.
    """
    table = ROUND2_GROUPINGS if number == 2 else ROUND3_GROUPINGS
    keys = ROUND2_GROUPS if number == 2 else ROUND3_GROUPS
    found = rounds.get(number)
    members: dict[str, list[str]] = {}
    if found is not None and found.details.get("grouping") == chosen:
        members = {g.key: [m.entrant.name for m in g.members.all()] for g in found.groups.all()}
    groups = []
    for key, codes in zip(keys, table[chosen], strict=True):
        ordered = sorted(codes, key=lambda c: (slot(c)[1], codes.index(c)))
        names = members.get(key, [])
        # Round 3 seeds the two #1s (and #2s) against each other, so seed order is not the
        # printed order: the players are listed by seed beside the codes instead.
        paired = number == 2 and len(names) == len(ordered)
        groups.append(
            {
                "key": key,
                "codes": codes,
                "slots": [
                    {"code": c, "name": names[i] if paired else ""} for i, c in enumerate(ordered)
                ],
                "players": [] if paired else names,
            }
        )
    return groups


# --- the bracket ---------------------------------------------------------------------------

SLOTS = {
    "SF1": (gettext_lazy("#1 of Round 3 group 1"), gettext_lazy("#2 of Round 3 group 2")),
    "SF2": (gettext_lazy("#1 of Round 3 group 2"), gettext_lazy("#2 of Round 3 group 1")),
    "F": (gettext_lazy("winner of a semi-final"), gettext_lazy("winner of a semi-final")),
    "3P": (gettext_lazy("loser of a semi-final"), gettext_lazy("loser of a semi-final")),
}


def bracket(event: Event) -> dict[str, Any]:
    """The semi-finals, the final and the third place game, with empty slots named by
    where their players come from until the round is published."""
    matches = {
        m.code: m
        for m in selectors.with_seats_and_games(
            Match.objects.filter(
                round__event=event, round__number__in=(SEMI_FINALS, FINALS)
            ).exclude(round__status=Round.Status.DRAFT)
        )
    }
    boxes = {code: _box(code, matches.get(code)) for code in SLOTS}
    final = boxes["F"]
    third = boxes["3P"]
    podium = []
    for box, places in ((final, (1, 2)), (third, (3, 4))):
        if box["winner"] is not None:
            podium.append((places[0], box["players"][box["winner"]]["name"]))
            if len(box["players"]) == 2 and not box["walkover"]:
                podium.append((places[1], box["players"][1 - box["winner"]]["name"]))
    return {"boxes": boxes, "podium": podium, "champion": podium[0][1] if podium else ""}


def _box(code: str, match: Match | None) -> dict[str, Any]:
    labels = SLOTS[code]
    if match is None:
        return {
            "code": code,
            "match": None,
            "players": [{"name": "", "slot": label, "games": []} for label in labels],
            "winner": None,
            "walkover": False,
            "summary": "",
        }
    result = match.result or {}
    winner = result.get("winner") if result.get("complete") else None
    games = [g.scores for g in match.games.all()]
    players = []
    for seat, participant in enumerate(match.participants.all()):
        players.append(
            {
                "name": participant.entrant.name if participant.entrant else "",
                "number": participant.entrant.number if participant.entrant else None,
                "slot": labels[seat] if seat < len(labels) else "",
                "seed": participant.details.get("seed"),
                "games": [g[seat] if seat < len(g) else "" for g in games],
            }
        )
    return {
        "code": code,
        "match": match,
        "players": players,
        "winner": winner,
        "walkover": bool((result.get("details") or {}).get("walkover")),
        "summary": result.get("summary", ""),
    }
