"""WOF rating files (.ELO): read every dialect of the WOF archive, write PAPP's layout.

    %%Tournament: WOC 2015
    %%Country: World
    ...
    %        ID, NAME, Firstname, COUNTRY, score, disc-count, rating
    %_%    5537, TAKANASHI, Yusuke, JPN, 11, 519, 2499
    %Round: 1
      4043 (58)>(06) 100004 B
    %%Added results
      3024 (34)>(30)    839 B

Federations have written these files by hand and with several programs since 1977: round
headers in several spellings, games without disc counts (``11770 > 11755``: a result), byes
and withdrawals as comments, files without a player list or without round headers, Latin-1
as well as UTF-8. docs/formats/wof-file.md lists each dialect with a line from the archive and
what this reader does with it. What the file does not say (the rounds of a file without round
headers, the names of players known only from the games) is said in ``WofFile.notes``; a file
that cannot be read is refused with the first few lines at fault and why (``WofError``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rules import words
from rules.contract import Problem
from rules.formats.woc import wof_lines as lines
from rules.formats.woc.wof_lines import UNKNOWN_ID, quote

HEADER_KEYS = ("Tournament", "Country", "Date", "Sender", "Creator", "CreationDate")
SHOWN_PROBLEMS = 3  # a refused file is told in a few lines, whatever its size


class WofError(ValueError):
    """The file cannot be read: ``messages`` are the first few (line, what) as code and
    params, ``problems`` the same in English; ``more`` counts the rest."""

    def __init__(
        self, problems: Sequence[tuple[int, Problem]], more: int = 0, *, binary: bool = False
    ):
        self.binary = binary  # not a text file at all: told in one sentence
        self.messages = list(problems[:SHOWN_PROBLEMS])
        self.problems = [(n, what.text) for n, what in self.messages]
        self.more = more + max(len(problems) - SHOWN_PROBLEMS, 0)
        text = "; ".join(
            words.render("wof.error.line", {"line": n, "what": said(what)})
            for n, what in self.messages
        )
        if self.more:
            text = words.render("wof.error.more", {"problems": text, "more": self.more})
        super().__init__(text)


def said(problem: Problem) -> dict[str, Any]:
    """A problem as a parameter of another message (said in the same language)."""
    return words.message(problem.code, **problem.params)


@dataclass(frozen=True)
class Note:
    """Something the file does not say, or says in its own way: a code and its data; the
    English sentence comes from the words module (the web side says it from the code)."""

    code: str
    text: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.text:
            object.__setattr__(self, "text", words.render(self.code, self.params))


@dataclass(frozen=True)
class WofPlayer:
    id: int  # a negative id stands for '??????' (no WOF id yet)
    surname: str  # the NAME field as read ("VAN DEN BIGGELAAR")
    first_name: str  # the Firstname field as read
    country: str
    score: Fraction | None = None
    discs: int | None = None
    rating: int | None = None
    new: bool = False  # '+': a player new to the rating list
    bonus: Fraction | None = None  # '5+2': points the list adds to those of the games
    listed: bool = True  # False: known only from the games; the file gives no name


@dataclass(frozen=True)
class WofGame:
    black: int
    white: int
    black_discs: int | None  # None: the file gives the result, not the discs
    white_discs: int | None
    line: int = 0
    sign: str = ""  # '<', '>' or '=' as written

    @property
    def by_discs(self) -> str:
        """'<', '>' or '=' as the discs say; '' without discs."""
        if self.black_discs is None or self.white_discs is None:
            return ""
        if self.black_discs == self.white_discs:
            return "="
        return ">" if self.black_discs > self.white_discs else "<"

    @property
    def result(self) -> str:
        """'<', '>' or '=' for Black against White: the sign as written, else the discs'."""
        return self.sign or self.by_discs

    @property
    def decided(self) -> bool:
        """The result is not the one the discs give: no discs, or a winner-first file's
        '(32)>(32)'."""
        return self.result != self.by_discs


# What the director may do with a game that contradicts itself (issue 28, item 13), by what
# was found: trust the sign (the result as written; discs kept as written, or none when they
# cannot be right), trust the discs (the result they give), or drop the game.
CHOICES = ("sign", "discs", "drop")
CHOICES_OF = {
    "wof.line.sign": ("sign", "discs", "drop"),
    "wof.line.discs": ("sign", "drop"),
    "wof.line.self": ("drop",),
    "wof.line.unlisted": ("drop",),
}


@dataclass(frozen=True)
class Contradiction:
    """A line whose game(s) contradict themselves or the list: what was found (problems),
    what the director may choose, and what was chosen (None: not yet; the game is left out
    until then, never guessed)."""

    line: int
    text: str  # the line as written, quoted
    problems: tuple[Problem, ...]
    choices: tuple[str, ...]
    chosen: str | None = None


@dataclass
class WofFile:
    header: dict[str, str] = field(default_factory=dict)
    players: list[WofPlayer] = field(default_factory=list)
    rounds: list[list[WofGame]] = field(default_factory=list)
    byes: dict[int, list[int]] = field(default_factory=dict)  # round number -> ids
    added: list[WofGame] = field(default_factory=list)
    left: dict[int, int] = field(default_factory=dict)  # id -> last round ('%id left')
    original: dict[str, str] = field(default_factory=dict)  # Creator, CreationDate as first made
    notes: list[Note] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # the names over the list, as written
    rounds_known: bool = True  # False: no numbered round headers; the rounds were formed
    rounds_formed: bool = False  # the rounds were formed when the file was first read
    listed: bool = True  # the file has a player list
    encoding: str = "utf-8"
    contradictions: list[Contradiction] = field(default_factory=list)
    # id -> the last round in which a game of his was left out (dropped or not yet resolved):
    # a round he played, not one he missed (no withdrawal is inferred from it)
    left_out: dict[int, int] = field(default_factory=dict)

    def player(self, ident: int) -> WofPlayer:
        return next(p for p in self.players if p.id == ident)


# -- bytes to text ---------------------------------------------------------------------------


_ODD = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def binary(text: str) -> bool:
    """Whether the text is binary data (an image, a zip, a .doc) rather than a file of lines."""
    head = text[:8192]
    return "\x00" in head or len(_ODD.findall(head)) > max(8, len(head) // 50)


def decode(data: bytes) -> tuple[str, str]:
    """The text of a file and its encoding: UTF-8 (with or without a BOM), else the Windows
    code page of the 1990s files (Latin-1 where that code page has a hole)."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "latin-1"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


# -- reading -----------------------------------------------------------------------------------


@dataclass
class Block:
    """Games under one heading: a numbered round, a named section ('%Round SF1', '%%Finale',
    '%groupA'), the added results, or no heading at all."""

    kind: str  # "round", "named", "added", "none"
    label: str
    line: int
    games: list[WofGame] = field(default_factory=list)
    byes: list[tuple[int, int]] = field(default_factory=list)  # (id, line)
    left: list[tuple[int, int]] = field(default_factory=list)


class _Reader:
    def __init__(self) -> None:
        self.out = WofFile()
        self.problems: list[tuple[int, Problem]] = []
        self.listed: list[tuple[lines.PlayerFields, int]] = []
        self.blocks: list[Block] = []
        self.pending: tuple[str, int] | None = None  # a comment that may head the next games
        self.after_game = False
        self.disagree: list[WofGame] = []  # games whose sign is not what their discs say
        self.comments: list[tuple[int, str]] = []  # (line, text) of a '%' after a game
        self.contradicted: list[tuple[int, Problem]] = []  # for the director to resolve
        self.texts: dict[int, str] = {}  # the game lines as written, for the contradictions

    def problem(self, number: int, problem: Problem) -> None:
        self.problems.append((number, problem))

    def block(self, kind: str, label: str, number: int) -> Block:
        self.blocks.append(Block(kind, label, number))
        self.pending = None
        return self.blocks[-1]

    def current(self, number: int) -> Block:
        return self.blocks[-1] if self.blocks else self.block("none", "", number)

    def line(self, number: int, raw: str) -> None:
        text = raw.strip()
        if not text:
            self.after_game = False
            return
        if text[0] != "%":
            self.game(number, text)
            self.after_game = True
            return
        was_game, self.after_game = self.after_game, False
        self.comment_line(number, text, was_game)

    def game(self, number: int, text: str) -> None:
        read = lines.games(text)
        if read is None:
            self.problem(
                number, Problem("wof.line.game", f"line {number}", params={"text": quote(text)})
            )
            return
        found, comment = read
        if comment:
            self.comments.append((number, comment))
        if self.pending is not None:
            self.block("named", *self.pending)
        block = self.current(number)
        for fields in found:
            game = WofGame(
                fields.black,
                fields.white,
                fields.black_discs,
                fields.white_discs,
                number,
                fields.sign,
            )
            if game.black_discs is not None:
                self.check_discs(game)
            if game.black == game.white and game.black != UNKNOWN_ID:
                self.contradicted.append(
                    (number, Problem("wof.line.self", f"line {number}", params={"id": game.black}))
                )
            block.games.append(game)
        self.texts[number] = text

    def check_discs(self, game: WofGame) -> None:
        bd, wd = game.black_discs or 0, game.white_discs or 0
        if bd + wd > 64:
            params = {"discs": bd + wd, "black": bd, "white": wd}
            self.contradicted.append(
                (game.line, Problem("wof.line.discs", f"line {game.line}", params=params))
            )
        elif game.sign != game.by_discs:
            self.disagree.append(game)

    def comment_line(self, number: int, text: str, was_game: bool) -> None:
        if lines.ADDED.match(text):
            self.block("added", "Added results", number)
            return
        if lines.FORMED.match(text):
            self.out.rounds_formed = True
            return
        label = lines.round_label(text)
        if label is not None:
            kind = "round" if label.isdecimal() else ("named" if label else "none")
            self.block(kind, label, number)
            return
        header = lines.HEADER.match(text)
        if header and not header.group(2).startswith("//"):
            self.out.header[header.group(1).strip()] = header.group(2).strip()
            self.pending = None
            return
        original = lines.ORIGINAL.match(text)
        if original:
            key = "Creator" if original.group(1).lower() == "creator" else "CreationDate"
            self.out.original[key] = original.group(2).strip()
            return
        if lines.COLUMNS.match(text):
            self.out.columns = [c.strip(" %_\t") for c in text.split(",")]
            self.pending = None
            return
        player = lines.PLAYER.match(text)
        if player:
            self.pending = None
            fields = lines.player(player)
            if isinstance(fields, dict):
                params = {"text": quote(text), "why": fields}
                self.problem(number, Problem("wof.line.player", f"line {number}", params=params))
            else:
                self.listed.append((fields, number))
            return
        bye = lines.BYE.match(text)
        if bye:
            self.current(number).byes.extend((i, number) for i in lines.bye_ids(bye))
            return
        left = lines.LEFT.match(text)
        if left:
            self.current(number).left.append((int(left.group(1)), number))
            return
        fresh = bool(self.blocks) and not self.blocks[-1].games  # just under a heading
        if not was_game and not fresh and not text.startswith("%_%"):
            self.pending = (text.strip("% \t:").strip(), number)


def parse(text: str, resolutions: Mapping[int, str] | None = None) -> WofFile:
    """Read a whole file; raise WofError naming the first lines at fault. A game that
    contradicts itself or the list is not a refusal: it is listed in ``contradictions`` with
    its line, and ``resolutions`` (line -> 'sign', 'discs' or 'drop') say what the director
    chose; a game without a choice is left out (issue 28, item 13)."""
    if binary(text):
        raise WofError([(1, Problem("wof.line.binary", "line 1"))], binary=True)
    reader = _Reader()
    for number, raw in enumerate(text.splitlines(), start=1):
        reader.line(number, raw)
    from rules.formats.woc.wof_structure import assemble

    _signs(reader)
    if reader.comments:
        line, comment = reader.comments[0]
        params = {"games": len(reader.comments), "line": line, "text": quote(comment, 60)}
        reader.out.notes.append(Note("wof.game_comments", params=params))
    out = assemble(reader.out, reader.listed, reader.blocks, reader.problems, reader.contradicted)
    if reader.problems:
        raise WofError(sorted(reader.problems, key=lambda p: (p[0], p[1].text)))
    _resolve(out, reader.contradicted, reader.texts, resolutions or {})
    return out


def _resolve(
    out: WofFile,
    contradicted: Sequence[tuple[int, Problem]],
    texts: Mapping[int, str],
    resolutions: Mapping[int, str],
) -> None:
    """One contradiction per line, with the choices every problem of the line allows; the
    director's choice applied to the contradicted games of that line."""
    if not contradicted:
        return
    by_line: dict[int, list[Problem]] = {}
    for number, problem in contradicted:
        if problem not in by_line.setdefault(number, []):
            by_line[number].append(problem)
    chosen: dict[int, str | None] = {}
    for number, problems in sorted(by_line.items()):
        choices = tuple(c for c in CHOICES if all(c in CHOICES_OF[p.code] for p in problems))
        choice = resolutions.get(number)
        chosen[number] = choice if choice in choices else None
        out.contradictions.append(
            Contradiction(
                number, quote(texts.get(number, ""), 80), tuple(problems), choices, chosen[number]
            )
        )
    known = {p.id for p in out.players}

    def wrong(game: WofGame) -> bool:
        return (
            game.black == game.white
            or (game.black_discs or 0) + (game.white_discs or 0) > 64
            or (game.by_discs != "" and game.sign != game.by_discs)
            or (out.listed and not {game.black, game.white} <= known)
        )

    def resolved(games: list[WofGame], number: int = 0) -> list[WofGame]:
        kept = []
        for game in games:
            if game.line not in chosen or not wrong(game):
                kept.append(game)
                continue
            choice = chosen[game.line]
            if choice == "sign" and (game.black_discs or 0) + (game.white_discs or 0) > 64:
                kept.append(WofGame(game.black, game.white, None, None, game.line, game.sign))
            elif choice == "sign":
                kept.append(game)  # the sign is the result; the discs are kept as written
            elif choice == "discs":
                kept.append(
                    WofGame(
                        game.black,
                        game.white,
                        game.black_discs,
                        game.white_discs,
                        game.line,
                        game.by_discs,
                    )
                )
            else:  # 'drop', or no choice yet: left out
                for ident in (game.black, game.white):
                    out.left_out[ident] = max(out.left_out.get(ident, 0), number)
        return kept

    out.rounds = [resolved(r, n) for n, r in enumerate(out.rounds, start=1)]
    out.added = resolved(out.added)


def _signs(reader: _Reader) -> None:
    """A file that writes every game winner first ('>' only, some Japanese files) gives the
    result by the sign and the discs as they were counted, which may disagree ('(32)>(32)',
    '(18)>(46)'); elsewhere a sign that disagrees with its discs is a mistake."""
    if not reader.disagree:
        return
    signs = {g.sign for b in reader.blocks for g in b.games}
    if signs == {">"}:
        reader.out.notes.append(
            Note(
                "wof.winner_first",
                params={"games": len(reader.disagree), "line": reader.disagree[0].line},
            )
        )
        return
    for game in reader.disagree:
        params = {"sign": game.sign, "black": game.black_discs, "white": game.white_discs}
        reader.contradicted.append(
            (game.line, Problem("wof.line.sign", f"line {game.line}", params=params))
        )


def write(
    data: WofFile,
    *,
    creator: str = "",
    created: str = "",
    comments: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """The file as PAPP lays it out (elo.c, v1.36); see wof_write.py."""
    from rules.formats.woc.wof_write import write_file

    return write_file(data, creator=creator, created=created, comments=comments or {})
