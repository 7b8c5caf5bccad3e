"""``import_event --check``: read and check files as the import would, save nothing.

Each file is checked by ``event_import.check`` (the import page's check: limits, reading,
the list beside the games, the labels of the games after the Swiss, the whole event file)
under a throwaway web address, so nothing about the database decides the answer. One line per
file says what was read, or why the file is refused; a summary counts them.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from rules.formats.woc import ENGINE
from tournaments.services import event_import, wof
from tournaments.services.errors import ServiceError
from tournaments.words import sentence

log = logging.getLogger(__name__)
SUFFIXES = {"wof": (".elo",), "ftd": (".json",)}
# what a reader's note says, in a few words for a one-line answer
SHORT = {
    "wof.no_list": "no player list",
    "wof.no_rounds": "no round headers",
    "wof.rounds_formed": "rounds formed at first reading",
    "wof.no_discs": "results without discs",
    "wof.winner_first": "written winner first",
    "wof.implied_byes": "byes left out",
    "wof.twice": "a player twice in a round",
    "wof.unknown_id": "games of players without an id left out",
    "wof.bq_column": "the list gives MBQ, not discs",
    "wof.bonus": "the list adds points",
    "wof.added_first": "games after the rounds written first",
    "wof.left_unplaced": "withdrawals without a round",
    "wof.game_comments": "comments after games",
}


def discs(black: int | None, white: int | None) -> str:
    return "(no discs)" if black is None else f"({black:02d})-({white:02d})"


def walk(paths: Iterable[str], source: str) -> list[Path]:
    """The files named, and those under the folders named (walked), of the source's kind."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and p.suffix.lower() in SUFFIXES[source]
                )
            )
        else:
            found.append(path)
    return found


@dataclass
class Outcome:
    # "read", "refused", "crashed" (a bug)
    status: str
    line: str
    differences: int = 0
    cut_short: bool = False  # read, but the import asks for confirmation (issue 28, item 11)
    # the lines that contradict themselves, one a line under the file's (issue 28, item 13)
    details: list[str] = field(default_factory=list)


@dataclass
class Tally:
    files: int = 0
    read: int = 0
    refused: int = 0
    differ: int = 0
    crashed: int = 0
    cut_short: int = 0
    contradicted: int = 0

    def add(self, outcome: Outcome) -> None:
        self.files += 1
        self.read += outcome.status == "read"
        self.refused += outcome.status != "read"
        self.differ += outcome.differences > 0
        self.crashed += outcome.status == "crashed"
        self.cut_short += outcome.cut_short
        self.contradicted += bool(outcome.details)

    def summary(self) -> str:
        text = (
            f"{self.files} files: {self.read} read, {self.refused} refused, "
            f"{self.differ} with differences"
        )
        if self.cut_short:
            text += f", {self.cut_short} cut short"
        if self.contradicted:
            text += f", {self.contradicted} with contradictions"
        if self.crashed:
            text += f" ({self.crashed} refused by an unexpected error: a bug, please report it)"
        return text


def _refused(error: ServiceError) -> Outcome:
    problems = list(error.problems)
    more = len(problems) - 1
    text = sentence(problems[0]) if problems else "refused."
    suffix = f" (and {more} more)" if more > 0 else ""
    return Outcome("refused", f"refused: {text}{suffix}")


def check_path(path: Path, source: str, *, accept_truncated: bool = False) -> Outcome:
    try:
        data = path.read_bytes()
    except OSError as error:
        return Outcome("refused", f"refused: cannot read it ({error.strerror}).")
    text = wof.decode(data)
    slug = f"file-check-{uuid.uuid4().hex[:16]}"
    try:
        preview = event_import.check(text, kind=source, slug=slug, filename=path.name)
        if source == "wof":
            return _wof_outcome(preview, accept_truncated)
        return _ftd_outcome(preview)
    except ServiceError as error:
        return _refused(error)
    except Exception as error:  # one bad file must not stop the check of the others
        log.exception("checking %s", path)
        return Outcome("crashed", f"refused by an unexpected error ({type(error).__name__}).")


def count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _counts(preview: event_import.Preview) -> str:
    parts = [count(preview.entrants, "player"), count(preview.rounds, "round")]
    parts.append(count(preview.games, "game"))
    if preview.byes:
        parts.append(count(preview.byes, "bye"))
    return ", ".join(parts)


def _wof_outcome(preview: event_import.Preview, accept_truncated: bool) -> Outcome:
    if preview.problems:
        return _refused(ServiceError(preview.problems))
    codes = [code for code in preview.note_codes if code in SHORT]
    tags = f" ({', '.join(SHORT[c] for c in codes)})" if codes else ""
    line = f"read: {_counts(preview)}{tags}"
    if preview.differences:
        d = preview.differences[0]
        line += (
            f"; the list and the games differ {times(preview.difference_count)} (e.g. {d['id']} "
            f"{d['name']}: {d['what']} {d['listed']} in the list, {d['games']} from the games)"
        )
    if preview.truncated:
        # read, as a rating officer reads it; the import still asks for the confirmation
        if accept_truncated:
            line += f"; confirmed though cut short: {preview.truncated}"
        else:
            line += (
                "; warning: cut short (the import asks for confirmation, "
                f"--accept-truncated): {preview.truncated}"
            )
    details = []
    if preview.contradictions:
        # read, as a rating officer reads it: each line to resolve, as the import asks
        line += (
            f"; {count(len(preview.contradictions), 'contradiction')} to resolve "
            "(--resolve LINE=sign|discs|drop)"
        )
        details = [
            f"  line {c['line']}: '{c['text']}': {' '.join(c['what'])}"
            for c in preview.contradictions
        ]
    return Outcome("read", line, preview.difference_count, bool(preview.truncated), details=details)


def _ftd_outcome(preview: event_import.Preview) -> Outcome:
    """A FlipTheDisc export read: its published standings beside ours (points, and the
    Brightwell value rounded as published)."""
    assert preview.file is not None
    state = wof.state_of(preview.file)
    rows = {r.entrant: r.values for r in ENGINE.standings(state).table("overall").rows}
    found = 0
    for row in preview.published:
        ours = rows.get(str(row["number"]))
        if ours is None or row["score"] is None:
            continue
        if Fraction(str(ours["points"])) != Fraction(str(row["score"])) or (
            row["mbq"] is not None and nearest(ours["bq"]) != row["mbq"]
        ):
            found += 1
    line = f"read: {_counts(preview)}"
    if found:
        line += (
            f"; {count(found, 'player')} differ from the published standings (replay tells which)"
        )
    return Outcome("read", line, found)


def nearest(value: object) -> int:
    """A Brightwell value rounded as FlipTheDisc publishes it (halves up)."""
    return math.floor(Fraction(str(value)).limit_denominator(10_000) + Fraction(1, 2))
