"""The ranking lists after the Swiss: IFRL (II.3.3), final order (III), WFRL (II.5.3) and
TFRL (II.4), as standings tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.contract import Column, EntrantState, Reason, StandingRow, StandingsTable
from rules.formats.woc.brightwell import plain
from rules.formats.woc.history import Tally
from rules.formats.woc.stages import WOMAN, Playoffs, Progress
from rules.words import gettext_noop as _

POINTS = Column("points", _("Points"), _("Points of the qualifying rounds (II.3.1)."))


def _ranked_tail(
    head: Sequence[str], losers: Sequence[str], rest: Sequence[str], points: Mapping[str, Fraction]
) -> list[tuple[str, int, str]]:
    """II.3.3 / II.5.3: ``head`` ranked 1..n, playoff losers equal n+1, then the others in
    provisional order, those equal on points declared equal."""
    rows = [(e, i, "qualified") for i, e in enumerate(head, start=1)]
    tail = list(losers) + [e for e in rest if e not in losers and e not in head]
    base = len(head) + 1
    first_of: dict[Fraction, int] = {}
    for index, entrant in enumerate(tail):
        if entrant in losers:
            rank = base
            first_of.setdefault(points[entrant], base)
        else:
            rank = first_of.setdefault(points[entrant], base + index)
        rows.append((entrant, rank, "playoff_loser" if entrant in losers else ""))
    return rows


def ifrl_rows(prog: Progress) -> list[tuple[str, int, str]] | None:
    if prog.ifrl is None or not prog.ifrl.decided:
        return None
    return _ranked_tail(prog.ifrl.qualified(), prog.ifrl.losers(), prog.provisional, prog.points)


def final_rows(prog: Progress) -> list[tuple[str, int, str]] | None:
    """III: final winner 1st, loser 2nd; third place winner 3rd, loser 4th; then the IFRL."""
    ifrl = ifrl_rows(prog)
    final, third = prog.final_pair(), prog.third_pair()
    if ifrl is None or final is None or third is None:
        return None
    decided_final = prog.result(prog.find("final", *final))
    decided_third = prog.result(prog.find("third_place", *third))
    if decided_final is None or decided_third is None:
        return None
    top = [*decided_final, *decided_third]
    labels = ["champion", "final", "third", "semi_final"]
    rows = [(e, i, labels[i - 1]) for i, e in enumerate(top, start=1)]
    rows += [row for row in ifrl if row[0] not in top]
    return rows


def women_rows(
    prog: Progress, entrants: Mapping[str, EntrantState]
) -> tuple[list[tuple[str, int, str]] | None, Reason | None]:
    """II.5.3 and III.5: the WFRL, and its note (which rule placed the top)."""
    women = [e for e in prog.provisional if entrants[e].gender == WOMAN]
    if not women:
        return None, None
    if prog.women_in_semis:
        final = final_rows(prog)
        if final is None:
            return None, None
        top = [e for e, _, _ in final[:4] if e in women]
        rows = _ranked_tail(top, [], women, prog.points)
        note = Reason("woc.women.semi_final", rule="woc II.5.3, III.5")
        return rows, note
    wl: Playoffs | None = prog.women
    if wl is None or not wl.decided:
        return None, None
    head = wl.qualified()
    match = prog.find("women_final", *head[:2]) if len(head) >= 2 else None
    decided = prog.result(match)
    if decided is not None:
        head = list(decided)
    rows = _ranked_tail(head, wl.losers(), women, prog.points)
    if decided:
        note = Reason("woc.women.final.played", rule="woc II.5.3, III.5")
    else:
        note = Reason("woc.women.final.pending", rule="woc II.5.3, III.5")
    return rows, note


def team_rows(
    entrants: Sequence[EntrantState], tally: Tally, ifrl_rank: Mapping[str, int]
) -> tuple[list[tuple[str, int, dict[str, Any]]], list[Reason]]:
    """II.4 (and II.2 for the host's additional player)."""
    members: dict[str, list[EntrantState]] = {}
    for entrant in entrants:
        team = entrant.team or entrant.country
        if team:
            members.setdefault(team, []).append(entrant)
    worst = len(ifrl_rank) + 1
    info: dict[str, dict[str, Any]] = {}
    for team, people in members.items():
        regular = [p for p in people if not p.flags.get("host_additional")]
        counted = regular if len(regular) >= 3 else people
        counted = sorted(counted, key=lambda p: -tally.record(p.id).points)[:3]
        ids = {p.id for p in people}
        internal = sum(
            1
            for p in people
            for g in tally.record(p.id).games
            if g.opponent in ids and p.id < (g.opponent or "")
        )
        ranks = sorted(ifrl_rank.get(p.id, worst) for p in people)
        info[team] = {
            "points": sum((tally.record(p.id).points for p in counted), Fraction(0)),
            "counted": [p.id for p in counted],
            "internal_games": internal,
            "ranks": ranks,
        }
    order = sorted(info, key=lambda t: (-info[t]["points"], t))
    notes: list[Reason] = []
    if len(order) > 1 and info[order[0]]["points"] == info[order[1]]["points"]:
        tied = [t for t in order if info[t]["points"] == info[order[0]]["points"]]

        def key(team: str) -> tuple[int, int, int]:
            ranks = info[team]["ranks"] + [worst, worst]
            return (-info[team]["internal_games"], ranks[0], ranks[1])

        tied.sort(key=lambda t: (key(t), t))
        order = tied + [t for t in order if t not in tied]
        notes.append(Reason("woc.team.tie", rule="woc II.4", params={"teams": tied}))
        first_key = key(tied[0])
        equal_first = {t for t in tied if key(t) == first_key}
    else:
        equal_first = set(order[:1])
    rows = []
    for team in order:
        if team in equal_first:
            rank = 1
        else:
            rank = next(
                i + 1
                for i, t in enumerate(order)
                if info[t]["points"] == info[team]["points"] and t not in equal_first
            )
        data = dict(info[team])
        data["points"] = plain(data["points"])
        data["team"] = team
        rows.append((team, rank, data))
    return rows, notes


def team_table(
    rows: Sequence[tuple[str, int, dict[str, Any]]], notes: Sequence[Reason]
) -> StandingsTable:
    """One row per team; the row's entrant is the team's first counted member (rows are
    keyed by entrants), the team's name is in ``values["team"]``."""
    return StandingsTable(
        key="team",
        title=_("Team final ranking list"),
        columns=(
            Column("team", _("Team"), _("Team (or country).")),
            Column("points", _("Points"), _("Sum of the best three members' points (II.4).")),
            Column(
                "internal_games", _("Games within"), _("Games between members (II.4 tie rule).")
            ),
        ),
        rows=tuple(
            StandingRow(
                entrant=data["counted"][0],
                rank=rank,
                values={
                    "team": team,
                    "points": data["points"],
                    "internal_games": data["internal_games"],
                },
                details={"members_counted": data["counted"], "ifrl_ranks": data["ranks"]},
            )
            for team, rank, data in rows
            if data["counted"]
        ),
        notes=tuple(notes),
    )


def table(
    key: str,
    title: str,
    rows: Sequence[tuple[str, int, str]],
    points: Mapping[str, Fraction],
    note: Reason | None = None,
) -> StandingsTable:
    return StandingsTable(
        key=key,
        title=title,
        columns=(POINTS,),
        rows=tuple(
            StandingRow(entrant=e, rank=r, values={"points": plain(points[e])}, status=status)
            for e, r, status in rows
        ),
        notes=(note,) if note else (),
    )
