"""What every engine call reads first: settings, the entrants' flags, the Swiss record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.contract import EntrantState, EventState, Problem, RoundState, RoundStatus, Setting
from rules.words import gettext_noop as _

from .record import SWISS, SwissRecord, stage_of

COLOURS = ("red", "blue")

SETTINGS = (
    Setting(
        "swiss_rounds",
        0,
        _("Rounds of the Swiss portion; 0 plays ceil(log2(N)) rounds for N players (I.B)."),
    ),
    Setting(
        "random_step",
        "lot",
        _(
            "The random step of the Swiss order (II.E.4): 'lot' uses the initial random order "
            "drawn before round 1 throughout; 'each_round' draws a new random order each round."
        ),
        ("lot", "each_round"),
    ),
    Setting(
        "handshake_counts_as_met",
        True,
        _(
            "Whether two players who drew by default (DD) count as having met: they are not "
            "paired again and count in each other's Solkoff."
        ),
    ),
    Setting(
        "first_seat",
        "entered",
        _(
            "Who sits first in game 1 (IV.A.1): 'entered' with the games (Goko decides it), or "
            "'drawn' by the application when the round is drafted."
        ),
        ("entered", "drawn"),
    ),
    Setting(
        "eighth_place_tie",
        "ask",
        _(
            "When only a coin flip separates 8th and 9th after the Swiss portion (III.A): 'ask' "
            "the director, always flip a 'coin', or always play a 'playoff' match."
        ),
        ("ask", "coin", "playoff"),
    ),
    Setting(
        "first_round_start",
        "",
        _("Date the first round starts (YYYY-MM-DD); empty leaves dates to the director."),
    ),
    Setting(
        "absent_result",
        "loss",
        _(
            "A player checked in as absent for a Swiss round who has no Bye by Request (asked "
            "too late, or the final Swiss round): 'loss' (not paired; a Loss, 0 match points, "
            "and the player stays in) or 'loss_by_default' (an LD: 0 match points and removed "
            "from the tournament, II.B.6)."
        ),
        ("loss", "loss_by_default"),
    ),
    Setting("round_days", 7, _("Days a Swiss round lasts (I.C).")),
    Setting("last_swiss_round_days", 14, _("Days the last Swiss round lasts, at most two weeks.")),
    Setting("playoff_days", 3, _("Days the playoff for 8th place lasts ('as soon as possible').")),
    Setting("knockout_round_days", 7, _("Days an elimination round lasts (I.C).")),
)


def auto_rounds(players: int) -> int:
    """I.B: ceil(log2(N)) rounds for N players (at least one)."""
    return max(1, (players - 1).bit_length())


def colour_of(entrant: EntrantState) -> str | None:
    value = entrant.flags.get("colour")
    if isinstance(value, str) and value.lower() in COLOURS:
        return value.lower()
    return None


def bye_requests(entrant: EntrantState) -> list[int]:
    value = entrant.flags.get("bye_requests", [])
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]


@dataclass
class Context:
    settings: Mapping[str, Any]
    swiss_rounds: int
    initial_order: list[str] | None
    record: SwissRecord
    names: dict[str, str]
    colours: dict[str, str]

    def rounds(self, state: EventState, stage: str) -> list[RoundState]:
        return [
            r for r in state.rounds if stage_of(r) == stage and r.status is not RoundStatus.DRAFT
        ]


def build(state: EventState, settings: Mapping[str, Any]) -> Context:
    initial: list[str] | None = None
    for rnd in state.rounds:
        if stage_of(rnd) == SWISS and "initial_order" in rnd.details:
            initial = [str(e) for e in rnd.details["initial_order"]]
            break
    count = len(initial) if initial is not None else sum(1 for e in state.entrants if e.active)
    rounds = int(settings["swiss_rounds"]) or auto_rounds(count)
    record = SwissRecord(state, rounds, handshake_met=bool(settings["handshake_counts_as_met"]))
    return Context(
        settings=settings,
        swiss_rounds=rounds,
        initial_order=initial,
        record=record,
        names={e.id: e.name for e in state.entrants},
        colours={e.id: colour_of(e) or "" for e in state.entrants},
    )


def entrant_problems(state: EventState, swiss_rounds: int) -> list[Problem]:
    """II.A colours and I.E requests for a Bye by Request."""
    problems: list[Problem] = []
    for index, entrant in enumerate(state.entrants):
        if entrant.active and colour_of(entrant) is None:
            problems.append(
                Problem(
                    "gokodom.colour",
                    f"entrants[{index}].flags.colour",
                    params={"entrant": entrant.id, "name": entrant.name},
                )
            )
        raw = entrant.flags.get("bye_requests", [])
        if not isinstance(raw, list | tuple) or len(bye_requests(entrant)) != len(raw):
            problems.append(
                Problem(
                    "gokodom.bye_request_shape",
                    f"entrants[{index}].flags.bye_requests",
                    params={"entrant": entrant.id, "name": entrant.name},
                )
            )
            continue
        for number in bye_requests(entrant):
            if number < 1 or number >= swiss_rounds:
                problems.append(
                    Problem(
                        "gokodom.bye_request_refused",
                        f"entrants[{index}].flags.bye_requests",
                        params={
                            "entrant": entrant.id,
                            "round": number,
                            "name": entrant.name,
                            "last": swiss_rounds,
                        },
                    )
                )
    return problems


def stages_of(state: EventState) -> list[str]:
    return [stage_of(r) for r in state.rounds if r.status is not RoundStatus.DRAFT]
