"""Typing a WPF playoff match: each player's submissions, as the engine reads them.

Fields of one match row: ``s<seat>-t<n>`` (the time, m:ss or seconds) and ``s<seat>-v<n>``
(the verdict: ``correct``, ``wrong`` or ``none`` for no submission), n from 1. An online
match has one submission per player (only the last counts, so the director types that
one); a live match has one slot per attempt (the precision timer's reading each time).
The engine turns them into official times (22:00 for a wrong online answer, a one-minute
penalty per wrong live answer) and the winner; the form never computes a result itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext_lazy as _

from rules.contract import Problem
from rules.formats.wpf_playoffs.schedule import MATCHES, Stage
from rules.formats.wpf_playoffs.timing import clock

MAX_ATTEMPTS = 12
LIVE_SLOTS = 3  # attempts shown for a live match with none entered
VERDICTS = ("correct", "wrong", "none")
VERDICT_LABELS = (
    ("correct", _("correct")),
    ("wrong", _("incorrect")),
    ("none", _("no submission")),
)
_CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,3}):(\d{1,2}(?:[.,]\d+)?)$")


def parse_time(text: str) -> float | int | None:
    """'3:25', '3:25.4', '1:03:25' or plain seconds '205'; None when it is not a time."""
    text = text.strip().replace(",", ".")
    match = _CLOCK.match(text)
    try:
        if match:
            hours, minutes, seconds = match.groups()
            if Decimal(seconds) >= 60:
                return None
            value = Decimal(hours or 0) * 3600 + Decimal(minutes) * 60 + Decimal(seconds)
        else:
            value = Decimal(text)
    except InvalidOperation:
        return None
    if value < 0 or not value.is_finite():
        return None
    value = round(value, 2)
    return int(value) if value == value.to_integral_value() else float(value)


def show_time(value: Any) -> str:
    if value is None or value == "":
        return ""
    return clock(value)


def stage_of(code: str) -> str:
    spec = MATCHES.get(code)
    return spec.stage.value if spec else Stage.ONLINE.value


def parse(
    data: Mapping[str, Any], seats: int, settings: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The match's one game from a POST: ``details["submissions"]`` per seat. A row left
    wholly empty clears the result; a player left empty while the other is entered is an
    error naming the field."""
    problems: list[Problem] = []
    per_seat: list[list[dict[str, Any]]] = []
    entered: list[bool] = []
    online = str(data.get("stage", "")) == Stage.ONLINE.value
    for seat in range(seats):
        subs: list[dict[str, Any]] = []
        touched = False
        for n in range(1, MAX_ATTEMPTS + 1):
            time_name, verdict_name = f"s{seat}-t{n}", f"s{seat}-v{n}"
            raw = str(data.get(time_name, "")).strip()
            verdict = str(data.get(verdict_name, "")).strip()
            if not raw and not verdict:
                continue
            touched = True
            who = f"Player {seat + 1}, submission {n}"
            if verdict not in VERDICTS:
                problems.append(
                    Problem("form.verdict", verdict_name, f"{who}: choose correct or incorrect.")
                )
                continue
            if verdict == "none":
                if raw:
                    problems.append(
                        Problem(
                            "form.verdict",
                            verdict_name,
                            f"{who}: a time is typed, so choose correct or incorrect.",
                        )
                    )
                continue
            if not raw:
                problems.append(Problem("form.time_missing", time_name, f"{who}: type the time."))
                continue
            value = parse_time(raw)
            if value is None:
                problems.append(
                    Problem(
                        "form.time",
                        time_name,
                        f"{who}: '{raw}' is not a time; type minutes:seconds, e.g. 7:42.",
                    )
                )
                continue
            subs.append({"time": value, "correct": verdict == "correct"})
        if online and len(subs) > 1:
            problems.append(
                Problem(
                    "form.online_one",
                    f"s{seat}-t2",
                    f"Player {seat + 1}: online, only the last submission counts; type that one.",
                )
            )
        per_seat.append(subs)
        entered.append(touched)
    if not any(entered):
        return [], problems
    for seat, touched in enumerate(entered):
        if not touched:
            problems.append(
                Problem(
                    "form.player_missing",
                    f"s{seat}-v1",
                    f"Player {seat + 1}: enter a submission or choose 'no submission'.",
                )
            )
    game = {
        "number": 1,
        "scores": [None] * seats,
        "ending": "normal",
        "details": {"submissions": per_seat},
    }
    return [game], problems


def rows(match: Any, settings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The inputs of one match, filled with what is stored; ``scores`` lists every input so
    the shared results view can put back what the director typed after a refused save."""
    stage = stage_of(match.code)
    games = list(match.games.all())
    game = games[0] if games else None
    participants = list(match.participants.all())
    stored = (game.details.get("submissions") if game else None) or [[] for _ in participants]
    if stage == Stage.ONLINE.value:
        slots = 1
    else:
        slots = max(LIVE_SLOTS, max((len(s) for s in stored), default=0) + 1)
    result = match.result or {}
    official = (result.get("details") or {}).get("official_times") or []
    inputs: list[dict[str, Any]] = []
    seats = []
    for seat, participant in enumerate(participants):
        subs = stored[seat] if seat < len(stored) and isinstance(stored[seat], list) else []
        attempts = []
        for n in range(1, slots + 1):
            sub = subs[n - 1] if n - 1 < len(subs) else None
            if sub is not None:
                verdict = "correct" if sub.get("correct") else "wrong"
            elif n == 1 and game is not None:
                verdict = "none"
            else:
                verdict = ""
            time_input = {
                "name": f"s{seat}-t{n}",
                "value": show_time(sub.get("time")) if sub else "",
            }
            verdict_input = {"name": f"s{seat}-v{n}", "value": verdict}
            inputs.extend([time_input, verdict_input])
            attempts.append({"n": n, "time": time_input, "verdict": verdict_input})
        wrong = sum(1 for s in subs if isinstance(s, dict) and not s.get("correct"))
        seats.append(
            {
                "seat": seat,
                "participant": participant,
                "attempts": attempts,
                "official": official[seat] if seat < len(official) else None,
                "official_text": show_time(official[seat]) if seat < len(official) else "",
                "penalties": wrong if stage == Stage.LIVE.value else 0,
            }
        )
    return [
        {
            "number": 1,
            "ending": "normal",
            "scores": inputs,
            "details": [],
            "stage": stage,
            "seats": seats,
        }
    ]
