"""Replay a published Othello event and compare our result with the published one.

Reads a WOF rating file (.ELO) in any dialect of the WOF archive, a WOC record of
../shared/data/real/ (woc_*.json) or a FlipTheDisc export (the site's own or re-packaged, with
published standings carrying ``mbq``). A WOF file's notes (what it does not say) and the
differences between its list and its games are printed first. Computes
purely, without saving anything: the same event file the import would save is turned into
engine state, the games after the Swiss get the labels the woc rules propose, and the
standings and final stages are computed. Players equal on points, BQ and discs are ordered
as published (the record's lot). Every difference is marked; those that are known deviations
of the record (docs/formats/woc.md) are named with their reason.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.contract import DrawMethod, DrawRecord, EventState
from rules.formats.woc import ENGINE, record, wof
from rules.formats.woc.brightwell import lot_key
from rules.tiebreaks import show_number
from tournaments.services import ftd as ftd_service
from tournaments.services import ftd_shape, limits
from tournaments.services import wof as wof_service
from tournaments.services.errors import ServiceError
from tournaments.services.file_check import discs as discs_text
from tournaments.services.file_check import times

# (the event: "ftd:<FlipTheDisc id>" or the file's stem, published player id, what) -> why
# the record differs from woc.txt; an export and its re-packaged twin name the same event
KNOWN_DEVIATIONS = {
    ("ftd:591", "20766", "mbq"): (
        "the player withdrew after round 4; FlipTheDisc's value for a withdrawn player's own "
        "Brightwell follows a rule woc.txt does not give (Appendix A 3 defines only what "
        "his opponents count)"
    ),
}


def show(value: Any) -> str:
    return show_number(Fraction(str(value)))


def nearest(value: Any) -> int:
    return math.floor(Fraction(value).limit_denominator(10_000) + Fraction(1, 2))


def wof_from_record(data: dict[str, Any]) -> wof.WofFile:
    """A WOC record of ../shared/data/real/ as the WOF file it came from."""
    entrants = {e["id"]: e for e in data["entrants"]}
    players = [
        wof.WofPlayer(
            row["id"],
            entrants[row["id"]]["surname"],
            entrants[row["id"]]["first_name"],
            entrants[row["id"]]["country"],
            Fraction(str(row["score"])),
            row["disc_count"],
            entrants[row["id"]].get("rating_in_file"),
        )
        for row in data["published_standings"]["rows"]
    ]
    return wof.WofFile(
        header=dict(data.get("source", {}).get("file_header", {})),
        players=players,
        rounds=[[wof.WofGame(*g) for g in rnd["games"]] for rnd in data["rounds"]],
        added=[wof.WofGame(*g) for g in data["added_results"]["games_in_file_order"]],
    )


def with_published_lots(state: EventState, published: list[str]) -> EventState:
    """Exact ties (points, BQ, discs) take the published order as the recorded lot."""
    ranking_rows = ENGINE.standings(state).table("overall").rows
    draws = list(state.draws)
    groups: dict[tuple[Any, ...], list[str]] = {}
    for row in ranking_rows:
        key = (row.values["points"], row.values["bq"], row.values["discs"])
        groups.setdefault(key, []).append(row.entrant)
    position = {e: i for i, e in enumerate(published)}
    for tied in groups.values():
        if len(tied) > 1:
            order = sorted(tied, key=lambda e: position.get(e, 10**9))
            draws.append(DrawRecord(lot_key(tied), order, DrawMethod.RECORD, "published order"))
    return EventState(state.format, state.settings, state.entrants, state.rounds, tuple(draws))


class Command(BaseCommand):
    help = (
        "Replay a published event (WOF .ELO, WOC record or FlipTheDisc JSON) and print our "
        "result beside the published one, row by row."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, file: str, **options: Any) -> None:
        path = Path(file)
        try:
            text = wof_service.decode(path.read_bytes())
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        self.unexplained = 0
        self.known = 0
        try:
            if path.suffix.lower() == ".json":
                data = limits.load_json(text)
                if isinstance(data, dict) and "added_results" in data:
                    self.replay_wof(path.stem, wof_from_record(data), data)
                else:
                    self.replay_ftd(path.stem, ftd_shape.normalise(data))
            else:
                examined = wof_service.examine(text)
                self.tell(examined)
                self.replay_wof(path.stem, examined.parsed, None, examined)
        except ServiceError as error:
            raise CommandError("\n".join(p.text for p in error.problems)) from None
        if self.known:
            self.stdout.write(f"{self.known} known deviations of the record (docs/formats/woc.md)")
        self.stdout.write(f"{self.unexplained} unexplained differences")

    # -- helpers ---------------------------------------------------------------------------

    def differ(self, stem: str, published_id: str, what: str) -> str:
        reason = KNOWN_DEVIATIONS.get((stem, published_id, what))
        if reason:
            self.known += 1
            return f"  known deviation ({what}): {reason}"
        self.unexplained += 1
        return f"  <-- DIFFERS ({what})"

    def compare(
        self,
        stem: str,
        state: EventState,
        published: Sequence[tuple[str, Any, int | None, int | None]],
        keys: dict[str, str],
        names: dict[str, str],
    ) -> EventState:
        """published: [(id, score, discs or None, mbq or None)] in published order."""
        state = with_published_lots(state, [keys[p[0]] for p in published if p[0] in keys])
        standings = ENGINE.standings(state)
        rows = list(standings.table("overall").rows)
        back = {v: k for k, v in keys.items()}
        self.stdout.write(
            f"{'#':>3} | {'published':<34} {'pts':>5} {'discs':>5} {'BQ':>5} | "
            f"{'ours':<34} {'pts':>5} {'discs':>5} {'BQ':>7}"
        )
        for index, (pid, score, discs, mbq) in enumerate(published):
            ours = rows[index] if index < len(rows) else None
            oid = back.get(ours.entrant, "?") if ours else "-"
            line = (
                f"{index + 1:>3} | {pid:>7} {names.get(pid, '')[:26]:<26} {show(score):>5} "
                f"{'' if discs is None else discs:>5} {'' if mbq is None else mbq:>5} | "
            )
            marks = []
            if ours is not None:
                v = ours.values
                name = names.get(oid, "")[:26]
                bq = v["bq"]
                assert isinstance(bq, int | float | Fraction)  # a WOC row's BQ is a number
                line += (
                    f"{oid:>7} {name:<26} {show(v['points']):>5} {v['discs']:>5} {float(bq):>7.1f}"
                )
                if oid != pid:
                    marks.append(self.differ(stem, pid, "order"))
            mine = next((r for r in rows if r.entrant == keys.get(pid)), None)
            if mine is None:
                marks.append(self.differ(stem, pid, "missing"))
            else:
                if Fraction(str(mine.values["points"])) != Fraction(str(score)):
                    marks.append(self.differ(stem, pid, "points"))
                if discs is not None and mine.values["discs"] != discs:
                    marks.append(self.differ(stem, pid, "discs"))
                if mbq is not None and nearest(mine.values["bq"]) != mbq:
                    marks.append(self.differ(stem, pid, "mbq"))
            self.stdout.write(line + "".join(marks))
        return state

    def tell(self, examined: wof_service.Examined) -> None:
        """What the file does not say, and where its list and its games differ."""
        for note in examined.notes:
            self.stdout.write(f"Note: {note.text}")
        rows = examined.difference_rows()
        if rows:
            self.stdout.write(f"The list and the games differ {times(len(rows))}:")
        for row in rows:
            self.stdout.write(
                f"  {row['id']:>7} {row['name'][:26]:<26} {row['what']}: {row['listed']} in "
                f"the list, {row['games']} from the games"
            )

    def replay_ftd(self, stem: str, data: dict[str, Any]) -> None:
        ident = (data.get("source") or {}).get("flipthedisc_id")
        stem = f"ftd:{ident}" if ident is not None else stem
        file = ftd_service.ftd_event_file(data, slug="replay")
        state = wof_service.state_of(file)
        keys = {str(e["id"]): str(i) for i, e in enumerate(data["entrants"], start=1)}
        names = {
            str(e["id"]): f"{e.get('surname', '')} {e.get('name', '')}" for e in data["entrants"]
        }
        c = file["event"]["settings"]["c"]
        self.stdout.write(f"{stem}: FlipTheDisc, {len(keys)} players, C = {c}")
        rows = (data.get("published_standings") or {}).get("rows") or []
        published = [
            (str(r.get("player_id")), r.get("score") or 0, None, r.get("mbq"))
            for r in rows
            if isinstance(r, dict)
        ]
        self.compare(stem, state, published, keys, names)

    def replay_wof(
        self,
        stem: str,
        parsed: wof.WofFile,
        data: dict[str, Any] | None,
        examined: wof_service.Examined | None = None,
    ) -> None:
        check = examined.check if examined else None
        file, added = wof_service.from_wof(parsed, slug="replay", check=check)
        state = wof_service.state_of(file)
        keys = {str(p.id): str(i) for i, p in enumerate(parsed.players, start=1)}
        names = {
            str(p.id): f"{p.surname} {p.first_name}" if p.listed else f"Player {p.id}"
            for p in parsed.players
        }
        self.stdout.write(f"{stem}: WOF file, {len(keys)} players, {len(parsed.rounds)} rounds")
        published = [
            (str(p.id), p.score, p.discs, None)
            for p in parsed.players
            if p.listed and p.score is not None
        ]
        state = self.compare(stem, state, published, keys, names)
        proposal = record.propose(state, added, ENGINE)
        back = {v: k for k, v in keys.items()}
        self.stdout.write("Games after the Swiss (proposed labels):")
        for game, label in zip(added, proposal.labels, strict=True):
            b, w = back[game[0]], back[game[1]]
            self.stdout.write(
                f"  {names[b][:20]:<20} {discs_text(game[2], game[3])} {names[w][:20]:<20} "
                f"{label.kind} {label.match} game {label.game}"
            )
        if proposal.note:
            self.stdout.write(f"  {proposal.note}" + self.differ(stem, "", "final stages"))
        standings = ENGINE.standings(proposal.state)
        if standings.tables[0].key == "final":
            self.stdout.write("Final ranking:")
            for row in standings.tables[0].rows[:5]:
                who = back[row.entrant]
                self.stdout.write(f"  {row.rank}. {names[who]} ({row.status or 'ifrl'})")
            champion = names[back[standings.tables[0].rows[0].entrant]]
            for fact in ((data or {}).get("other_published_results") or {}).get("facts", []):
                if "champion" in fact:
                    ok = champion.split()[0].upper() in fact.upper()
                    mark = "" if ok else self.differ(stem, "", "champion")
                    self.stdout.write(f"  published: {fact}{mark}")
        elif added:
            self.stdout.write(
                "  the final stages are not complete" + self.differ(stem, "", "final")
            )
