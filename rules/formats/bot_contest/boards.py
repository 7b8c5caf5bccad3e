"""Boards: one per round, shared by both brackets (OPEN-QUESTION 37)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.contract import EventState, NeedsDecision, Reason
from rules.formats.bot_contest.words import BOARD


def choose_board(
    state: EventState, number: int, settings: Mapping[str, Any]
) -> tuple[str, str, list[Reason]] | NeedsDecision:
    """Each round's board (OPEN-QUESTION 37): one per round, shared by both brackets."""
    boards = [str(b) for b in settings["boards"]]
    used = [str(r.details.get("board")) for r in state.rounds if r.details.get("board")]
    if settings["board_choice"] == "director":
        key = f"board/round-{number}"
        record = state.draw(key)
        if record is None:
            unused = tuple(b for b in boards if b not in used)
            return NeedsDecision(
                "bot_contest.board_needed",
                key=key,
                options=unused or tuple(boards),
                params={"number": number},
            )
        name, source = str(record.value), "director"
        reasons = [Reason("bot_contest.board.director", rule="Stage two", params={"board": name})]
    else:
        name = boards[(number - 1) % len(boards)] if boards else BOARD.format(n=number)
        source = "rotation"
        reasons = [Reason("bot_contest.board.rotation", rule="Stage two", params={"board": name})]
    if name in used:
        reasons.append(
            Reason(
                "bot_contest.board_reused",
                rule="Stage two, AND THEN (a different board each round)",
                params={"board": name},
            )
        )
    return name, source, reasons
