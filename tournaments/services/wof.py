"""WOF rating files (.ELO) into the database (export: wof_export.py).

``examine`` reads a file as the import does and checks its published list against its games
(rules/formats/woc/wof_check.py); ``from_wof`` builds the Arbiter event file from it and hands
it on to ``eventfile.import_event``: the same checks, all or nothing. The games after the Swiss
carry no labels in a WOF file; ``record.propose`` says which are the playoffs, semi-finals,
third place and final by following the woc rules, and ``import_wof`` takes the labels the
director confirmed (or the proposal when none are given). A file whose games cover fewer
rounds or players than its list says is refused unless the director confirms it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import words
from rules.contract import Problem
from rules.formats.woc import ENGINE, record, wof, wof_check
from rules.formats.woc.finals import KIND_STAGE
from tournaments.models import Event
from tournaments.services import eventfile
from tournaments.services.errors import ServiceError

# re-exported: the FlipTheDisc importer's too
from tournaments.services.record_file import STAGES as STAGES
from tournaments.services.record_file import add_final_rounds as add_final_rounds
from tournaments.services.record_file import event_file as event_file
from tournaments.services.record_file import state_of as state_of
from tournaments.services.wof_export import CREATOR
from tournaments.services.wof_export import export_wof as export_wof
from tournaments.words import sentence

RESULT_WORDS = {">": "black", "<": "white", "=": "draw"}


BINARY = words.render("wof.binary", {})


def problems_of(error: wof.WofError) -> list[Problem]:
    """The reader's refusal as the page lists it, said from codes (in the page's language)."""
    if error.binary:
        return [Problem("wof.binary", "file")]
    problems = [
        Problem("wof.invalid", f"line {n}", params={"line": n, "what": wof.said(what)})
        for n, what in error.messages
    ]
    if error.more:
        problems.append(Problem("wof.more", "file", params={"more": error.more}))
    return problems


def read(text: str, resolutions: Mapping[int, str] | None = None) -> wof.WofFile:
    try:
        return wof.parse(text, resolutions)
    except wof.WofError as error:
        raise ServiceError(problems_of(error)) from None


def decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8, else the Windows code page of older files."""
    return wof.decode(data)[0]


@dataclass
class Examined:
    """A WOF file read as the import reads it, and its list beside its games."""

    parsed: wof.WofFile
    check: wof_check.CrossCheck
    _by_id: dict[int, wof.WofPlayer] | None = field(default=None, repr=False)

    @property
    def notes(self) -> list[wof.Note]:
        implied = self.check.note
        return [*self.parsed.notes, *([implied] if implied else [])]

    @property
    def truncated(self) -> wof.Note | None:
        return self.check.truncated

    def name_of(self, ident: int) -> str:
        # by id, built once: a scan of the list per row made a large file's preview
        # quadratic (issue 28, item 14)
        if self._by_id is None:
            self._by_id = {p.id: p for p in self.parsed.players}
        player = self._by_id.get(ident)
        if player is None or not player.listed:
            return f"Player {ident}"
        return f"{player.surname} {player.first_name}".strip()

    def difference_rows(self) -> list[dict[str, Any]]:
        """One row per player whose list differs from the games: who, what, both values."""
        return [
            {
                "id": "??????" if d.player < 0 else str(d.player),
                "name": self.name_of(d.player),
                "what": d.what,
                "what_said": d.what_said,
                "listed": _show(d.listed),
                "games": _show(d.games),
            }
            for d in self.check.differences
        ]


def _show(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def examine(text: str, resolutions: Mapping[int, str] | None = None) -> Examined:
    parsed = read(text, resolutions)
    return Examined(parsed, wof_check.cross_check(parsed))


# -- games that contradict themselves: the director's choice, line by line (issue 28) ---------

CHOICE_WORDS = {
    "sign": gettext_lazy("trust the sign"),
    "discs": gettext_lazy("trust the discs"),
    "drop": gettext_lazy("drop the game"),
}


def choices_said(choices: Sequence[str]) -> str:
    return ", ".join(f"{CHOICE_WORDS[c]} ({c})" for c in choices)


def contradiction_rows(parsed: wof.WofFile) -> list[dict[str, Any]]:
    """Each line that contradicts itself or the list: its number and text, what is wrong,
    the choices it offers (value, words) and the one made."""
    return [
        {
            "line": c.line,
            "text": c.text,
            "what": [sentence(p) for p in c.problems],
            "choices": [(value, str(CHOICE_WORDS[value])) for value in c.choices],
            "chosen": c.chosen or "",
        }
        for c in parsed.contradictions
    ]


def resolution_problems(parsed: wof.WofFile, resolutions: Mapping[int, str]) -> list[Problem]:
    """What keeps the contradictions from being resolved: a line without a choice, a choice
    the line does not offer, a choice for a line that has no contradiction. Each names its
    line; the game is never guessed."""
    problems = []
    lines = {c.line for c in parsed.contradictions}
    for c in parsed.contradictions:
        if c.chosen is not None:
            continue
        params = {"line": c.line, "choices": choices_said(c.choices)}
        given = resolutions.get(c.line)
        if given:
            text = _(
                "Line %(line)s: '%(choice)s' is not offered for this game; choose %(choices)s."
            )
            params["choice"] = given
        else:
            text = _("Line %(line)s: choose what to do with this game (%(choices)s): %(what)s")
            params["what"] = " ".join(sentence(p) for p in c.problems)
        problems.append(Problem("wof.contradiction", f"line {c.line}", text % params, params))
    for line in sorted(set(resolutions) - lines):
        text = _("Line %(line)s has no contradiction: there is nothing to choose there.")
        problems.append(
            Problem("wof.contradiction.none", f"line {line}", text % {"line": line}, {"line": line})
        )
    return problems


def truncation_problem(examined: Examined) -> Problem:
    note = examined.truncated
    assert note is not None
    text = _(
        "%(note)s Nothing was saved: confirm that the file holds all that was played to "
        "import it as it is."
    ) % {"note": sentence(note)}
    return Problem("wof.truncated", "file", text, dict(note.params))


def refuse_truncated(examined: Examined, accept: bool) -> None:
    if examined.truncated is not None and not accept:
        raise ServiceError([truncation_problem(examined)])


# -- the event file ------------------------------------------------------------------------------


def _key(ident: int) -> str:
    return str(ident)


def _player(p: wof.WofPlayer) -> dict[str, Any]:
    # NAME and Firstname as read: the entrant's family and given names (issue 28)
    flags: dict[str, Any] = {}
    if p.new:
        flags["new"] = True
    if p.bonus:
        flags["bonus"] = str(p.bonus)
    if not p.listed:
        flags = {"listed": False}
    if p.id < 0:
        flags["no_id"] = True
    name = f"{p.surname} {p.first_name}".strip() if p.listed else f"Player {p.id}"
    return {
        "key": _key(p.id),
        "name": name[:150] or f"Player {p.id}",
        "family_name": p.surname[:150] if p.listed else "",
        "given_name": p.first_name[:150] if p.listed else "",
        "country": p.country,
        "external_id": "" if p.id < 0 else p.id,
        "rating": p.rating,
        "flags": {"wof": flags} if flags else {},
    }


def _game(game: wof.WofGame) -> tuple[Any, ...]:
    """(black, white, black discs, white discs, match details, game details)."""
    details = {"decided": RESULT_WORDS[game.result]} if game.decided else {}
    return (
        _key(game.black),
        _key(game.white),
        game.black_discs,
        game.white_discs,
        {},
        details,
    )


def _left(parsed: wof.WofFile, rounds: int, byes: Mapping[int, Sequence[int]]) -> dict[str, int]:
    """Who withdrew after which round: the file's '%id left' lines; else, when the rounds are
    known, a listed player with no game or bye after some round."""
    left: dict[str, int] = {}
    if parsed.rounds_known and not parsed.rounds_formed:
        last: dict[str, int] = {}
        for n, games in enumerate(parsed.rounds, start=1):
            for g in games:
                last[_key(g.black)] = last[_key(g.white)] = n
            for ident in byes.get(n, ()):
                last[_key(ident)] = n
        players = {p.id for p in parsed.players}
        for ident, n in parsed.left_out.items():  # a game left out is a round played
            if ident in players:  # not one not in the list (his game was dropped)
                last[_key(ident)] = max(last.get(_key(ident), 0), n)
        left = {k: v for k, v in last.items() if v < rounds}
    for ident, after in parsed.left.items():
        if after < rounds:
            left[_key(ident)] = after
    return left


def source_of(parsed: wof.WofFile) -> dict[str, Any]:
    """What the file said about itself, kept for the export: its header as read and the
    program that first made it."""
    original = dict(parsed.original)  # a file this program wrote says it in comments
    if not original and parsed.header.get("Creator") != CREATOR:
        original = {k: parsed.header[k] for k in ("Creator", "CreationDate") if k in parsed.header}
    header = {k: v for k, v in parsed.header.items() if k not in ("Creator", "CreationDate")}
    source: dict[str, Any] = {"format": "wof", "header": header, "original": original}
    if parsed.rounds_formed or not parsed.rounds_known:
        source["rounds_formed"] = True
    return source


def from_wof(
    parsed: wof.WofFile,
    *,
    slug: str,
    name: str = "",
    check: wof_check.CrossCheck | None = None,
) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """The Swiss part as an event file, and the added games with entrant numbers as ids."""
    check = check or wof_check.cross_check(parsed)
    byes: dict[int, list[int]] = {n: list(ids) for n, ids in parsed.byes.items()}
    for n, ids in check.implied_byes.items():
        byes.setdefault(n, []).extend(ids)
    settings: dict[str, Any] = {"c": 6}
    if byes and check.reading.bye_discs != 32:
        settings["bye_discs"] = check.reading.bye_discs
    data = event_file(
        slug=slug,
        name=name or parsed.header.get("Tournament", "") or slug,
        settings=settings,
        players=[_player(p) for p in parsed.players],
        rounds=[[_game(g) for g in r] for r in parsed.rounds],
        byes={n: [_key(i) for i in ids] for n, ids in byes.items()},
        left_after=_left(parsed, len(parsed.rounds), byes),
        source=source_of(parsed),
    )
    number = {_key(p.id): str(i) for i, p in enumerate(parsed.players, start=1)}
    added = []
    for g in parsed.added:
        b, w, bd, wd, _match, details = _game(g)
        added.append((number[b], number[w], bd, wd, details))
    return data, added


def propose(
    text: str, *, slug: str = "proposal", resolutions: Mapping[int, str] | None = None
) -> tuple[dict[str, Any], list[tuple[Any, ...]], record.Proposal]:
    data, added = from_wof(read(text, resolutions), slug=slug)
    return data, added, record.propose(state_of(data), added, ENGINE)


def labels_from(raw: Sequence[Mapping[str, Any]], count: int) -> list[record.Label]:
    """Labels as the director confirmed them: one per added game, in file order."""
    problems = []
    if len(raw) != count:
        problems.append(
            Problem("wof.labels", "labels", f"{count} added games need {count} labels.")
        )
    out = []
    for i, item in enumerate(raw):
        kind = item.get("kind")
        if kind not in KIND_STAGE:
            problems.append(
                Problem(
                    "wof.labels.kind",
                    f"labels[{i}].kind",
                    f"labels[{i}].kind: '{kind}' is not one of {', '.join(KIND_STAGE)}.",
                )
            )
            continue
        code = str(item.get("match") or (f"X{i + 1}" if kind == "other" else kind))
        out.append(record.Label(kind, code, int(item.get("game", 1))))
    if problems:
        raise ServiceError(problems)
    return out


def import_wof(
    text: str,
    *,
    by: Any,
    slug: str,
    name: str = "",
    labels: Sequence[Mapping[str, Any]] | None = None,
    accept_truncated: bool = False,
    resolutions: Mapping[int, str] | None = None,
) -> Event:
    """Create an event from a WOF file; the added games take the confirmed ``labels`` (the
    proposal when None), the games that contradict themselves the director's choice per
    line (``resolutions``). All or nothing, through the event file import."""
    examined = examine(text, resolutions)
    unresolved = resolution_problems(examined.parsed, resolutions or {})
    if unresolved:
        raise ServiceError(unresolved)
    refuse_truncated(examined, accept_truncated)
    data, added = from_wof(examined.parsed, slug=slug, check=examined.check)
    if name:
        data["event"]["name"] = name
    state = state_of(data)
    chosen = (
        record.propose(state, added, ENGINE).labels
        if labels is None
        else labels_from(labels, len(added))
    )
    add_final_rounds(data, record.final_rounds(state, added, chosen))
    return eventfile.import_event(data, by=by)
