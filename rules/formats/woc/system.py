"""The field and the playing system of the first two days (woc II.2), and round 1 (II.6.1).

The field is fixed before round 1 and stored in round 1's details (``field``, ``system``,
``rounds``) so that later withdrawals never change the system.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import berger
from rules.contract import (
    DrawSourceProtocol,
    EngineError,
    EntrantState,
    EventState,
    Participant,
    PlannedMatch,
    Problem,
    Reason,
)
from rules.formats.woc.scoring import SEATS
from rules.words import gettext_noop as _
from rules.words import message

SYSTEMS = ("auto", "double_round_robin", "round_robin", "modified_swiss", "swiss")
# each system's name as a part of a sentence ("a {system_name}")
SYSTEM_NAMES = {
    "double_round_robin": message("woc.system.name.double_round_robin"),
    "round_robin": message("woc.system.name.round_robin"),
    "modified_swiss": message("woc.system.name.modified_swiss"),
    "swiss": message("woc.system.name.swiss"),
}
SWISS_ROUNDS = 13
ROLES = ("black", "white")


@dataclass(frozen=True)
class Plan:
    field: tuple[str, ...]  # entrant ids of the field, in entry order
    system: str
    rounds: int
    reasons: tuple[Reason, ...]

    @property
    def swiss(self) -> bool:
        return self.system in ("swiss", "modified_swiss")

    def details(self) -> dict[str, Any]:
        return {"field": list(self.field), "system": self.system, "rounds": self.rounds}


def system_for(size: int) -> str:
    """II.2 a-d."""
    if size <= 8:
        return "double_round_robin"
    if size <= 14:
        return "round_robin"
    if size <= 24:
        return "modified_swiss"
    return "swiss"


def rounds_for(system: str, size: int) -> int:
    if system == "double_round_robin":
        return berger.rounds_needed(size, 2)
    if system == "round_robin":
        return berger.rounds_needed(size, 1)
    return SWISS_ROUNDS


def plan(state: EventState, settings: Mapping[str, Any]) -> Plan:
    """The field, system and number of rounds: as stored in round 1, or chosen now."""
    if state.rounds and "system" in state.rounds[0].details:
        details = state.rounds[0].details
        # The system stays as drawn up for round 1; the director may still change the
        # number of rounds (the setting wins when it is not 0).
        return Plan(
            tuple(str(e) for e in details.get("field", [])),
            str(details["system"]),
            int(settings["rounds"]) or int(details["rounds"]),
            (),
        )
    field, reasons = choose_field(state.entrants)
    size = len(field)
    if size < 2:
        raise EngineError([Problem("woc.field.too_few", "entrants")])
    system = settings["system"]
    if system == "auto":
        system = system_for(size)
        reasons.append(
            Reason(
                "woc.system.by_size",
                rule="woc II.2",
                params={"players": size, "system": system, "system_name": SYSTEM_NAMES[system]},
            )
        )
    else:
        reasons.append(
            Reason(
                "woc.system.override",
                rule="woc II.2",
                params={"players": size, "system": system, "system_name": SYSTEM_NAMES[system]},
            )
        )
    rounds = int(settings["rounds"]) or rounds_for(system, size)
    if settings["rounds"]:
        reasons.append(Reason("woc.rounds.override", rule="woc II.2", params={"rounds": rounds}))
    return Plan(tuple(e.id for e in field), system, rounds, tuple(reasons))


def choose_field(entrants: Sequence[EntrantState]) -> tuple[list[EntrantState], list[Reason]]:
    """II.2: the host's additional player plays only when the field would otherwise be odd."""
    present = [e for e in entrants if e.active_in_round(1)]
    additional = [e for e in present if e.flags.get("host_additional")]
    regular = [e for e in present if not e.flags.get("host_additional")]
    if len(additional) > 1:
        raise EngineError(
            [
                Problem(
                    "woc.field.additional",
                    "entrants",
                    params={"names": ", ".join(e.name for e in additional)},
                )
            ]
        )
    reasons: list[Reason] = []
    if additional and len(regular) % 2:
        reasons.append(
            Reason(
                "woc.field.additional_plays",
                rule="woc II.2",
                params={"entrant": additional[0].id, "name": additional[0].name},
            )
        )
        return regular + additional, reasons
    if additional:
        reasons.append(
            Reason(
                "woc.field.additional_idle",
                rule="woc II.2",
                params={"entrant": additional[0].id, "name": additional[0].name},
            )
        )
    elif len(regular) % 2:
        reasons.append(Reason("woc.field.bye", rule="woc II.2, II.7"))
    return regular, reasons


def round_robin(
    state: EventState, settings: Mapping[str, Any], draws: DrawSourceProtocol, plan: Plan
) -> tuple[list[PlannedMatch], list[str]]:
    """Round ``len(state.rounds) + 1`` of the Berger tables; draw numbers by lot."""
    number = len(state.rounds) + 1
    if state.rounds and "draw_numbers" in state.rounds[0].details:
        numbers = [str(e) for e in state.rounds[0].details["draw_numbers"]]
    else:
        numbers = draws.shuffle(
            "round-robin/draw-numbers", list(plan.field), purpose="draw numbers (Berger tables)"
        )
    cycles = 2 if plan.system == "double_round_robin" else 1
    schedule = berger.schedule(len(numbers), cycles)
    by_id = state.entrants_by_id
    matches: list[PlannedMatch] = []
    byes: list[PlannedMatch] = []
    for pairing in schedule[(number - 1) % len(schedule)]:
        # Berger's first seat moves first: in Othello that is Black.
        black = numbers[pairing.first - 1]
        white = numbers[pairing.second - 1] if pairing.second else None
        if white:
            table = Reason(
                "woc.round_robin.berger",
                rule="woc II.2",
                params={"round": number, "first": pairing.first, "second": pairing.second},
            )
        else:
            table = Reason(
                "woc.round_robin.berger.alone",
                rule="woc II.2",
                params={"round": number, "first": pairing.first},
            )
        present = [
            e
            for e in (black, white)
            if e is not None and by_id[e].active_in_round(number) and e not in state.absent
        ]
        if white is not None and len(present) == 2:
            matches.append(
                PlannedMatch(
                    code=f"R{number}-T{len(matches) + 1}",
                    participants=(Participant(black, "black"), Participant(white, "white")),
                    table=len(matches) + 1,
                    reasons=(table,),
                )
            )
            continue
        for entrant in present:
            other = black if entrant == white else white
            if other is None:
                why = Reason("woc.bye.odd", rule="woc II.7")
            elif other in state.absent:
                why = Reason("woc.bye.absent", rule="woc II.7")
            else:
                why = Reason("woc.bye.withdrawn", rule="woc II.7")
            byes.append(
                PlannedMatch(
                    code=f"R{number}-BYE-{entrant}",
                    participants=(Participant(entrant),),
                    reasons=(table, why),
                )
            )
    return matches + byes, numbers


def swiss_round_one(state: EventState, draws: DrawSourceProtocol, plan: Plan) -> list[PlannedMatch]:
    """II.6.1: group A against group B at random, A taking Black and White alternately."""
    by_id = state.entrants_by_id
    playing = [e for e in plan.field if e not in state.absent]  # absent: not paired (II.7)
    group_a = [e for e in playing if by_id[e].flags.get("group_a")]
    group_b = [e for e in playing if not by_id[e].flags.get("group_a")]
    drawn_a = draws.shuffle("round-1/group-a", group_a, purpose=_("round 1: order of group A"))
    drawn_b = draws.shuffle("round-1/group-b", group_b, purpose=_("round 1: order of group B"))
    pairs: list[tuple[str, str, Reason]] = []
    for index, (a, b) in enumerate(zip(drawn_a, drawn_b, strict=False)):
        a_black = index % 2 == 0
        reason = Reason(
            "woc.round1.group_a",
            rule="woc II.6.1",
            params={
                "draw": index + 1,
                "player_a": by_id[a].name,
                "player_b": by_id[b].name,
                "colour": SEATS[0 if a_black else 1],
            },
        )
        pairs.append((a, b, reason) if a_black else (b, a, reason))
    common = min(len(drawn_a), len(drawn_b))
    rest = drawn_a[common:] + drawn_b[common:]
    rest = draws.shuffle("round-1/rest", rest, purpose=_("round 1: the remaining players"))
    for index in range(0, len(rest) - 1, 2):
        reason = Reason("woc.round1.random", rule="woc II.6.1")
        pairs.append((rest[index], rest[index + 1], reason))
    matches = [
        PlannedMatch(
            code=f"R1-T{table}",
            participants=(Participant(black, "black"), Participant(white, "white")),
            table=table,
            reasons=(reason,),
        )
        for table, (black, white, reason) in enumerate(pairs, start=1)
    ]
    if len(rest) % 2:
        matches.append(
            PlannedMatch(
                code="R1-BYE",
                participants=(Participant(rest[-1]),),
                reasons=(Reason("woc.bye.round1", rule="woc II.7"),),
            )
        )
    return matches
