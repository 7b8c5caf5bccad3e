"""From the lines of a WOF file to its rounds, added results and players.

The rounds are the numbered round headers when the file has them; the games under other
headings after the last numbered round ('%%Added results', '%Round SF1', '%%Finale', '%Semi-
finals') are the added results. A file without numbered round headers gives the order of its
games, not their rounds: each game goes to the first round in which neither player has played
yet (a Swiss written round after round comes out as it was played), and the notes say so.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.contract import Problem
from rules.formats.woc.wof import Block, Note, WofFile, WofGame, WofPlayer
from rules.formats.woc.wof_lines import UNKNOWN_ID, PlayerFields


def assemble(
    out: WofFile,
    listed: Sequence[tuple[PlayerFields, int]],
    blocks: Sequence[Block],
    problems: list[tuple[int, Problem]],
    contradicted: list[tuple[int, Problem]],
) -> WofFile:
    unknown = _players(out, listed, problems)
    games = [b for b in blocks if b.games or b.byes or b.left or b.kind == "round"]
    if not any(b.games for b in games):
        if not problems:  # unreadable lines say more than "no games"
            problems.append((1, Problem("wof.line.no_games", "line 1")))
        return out
    numbered = [b for b in games if b.kind == "round"]
    if numbered:
        _numbered(out, games, problems)
    else:
        _formed(out, games)
    _attribute(out, unknown)
    bye_lines = {ident: line for b in blocks for ident, line in b.byes}
    _from_games(out, problems, contradicted, bye_lines)
    _notes(out)
    return out


def _players(
    out: WofFile, listed: Sequence[tuple[PlayerFields, int]], problems: list[tuple[int, Problem]]
) -> list[int]:
    """The listed players; returns the stand-in ids of those listed as '??????'."""
    seen: dict[int, int] = {}
    unknown: list[int] = []
    names = [c.lower() for c in out.columns]
    after = names[names.index("score") + 1 :] if "score" in names else []
    brightwell = bool(after) and "bq" in after[0]
    if brightwell and listed:
        out.notes.append(
            Note("wof.bq_column", params={"column": out.columns[names.index(after[0])]})
        )
    for fields, line in listed:
        ident = fields.id
        if ident == UNKNOWN_ID:
            ident = UNKNOWN_ID - len(unknown)
            unknown.append(ident)
        elif ident in seen:
            twice = Problem(
                "wof.line.twice", f"line {line}", params={"id": ident, "other": seen[ident]}
            )
            problems.append((line, twice))
            continue
        seen[ident] = line
        out.players.append(
            WofPlayer(
                ident,
                fields.surname,
                fields.first_name,
                fields.country,
                fields.score,
                None if brightwell else fields.discs,
                fields.rating,
                fields.new,
                fields.bonus,
            )
        )
    out.listed = bool(listed)
    return unknown


def _numbered(out: WofFile, blocks: Sequence[Block], problems: list[tuple[int, Problem]]) -> None:
    """Numbered rounds in order. Games under another heading between two numbered rounds
    belong to the round before (a comment line inside a round); those before the first
    numbered round or after the last are the added results (Kolkata 2021 lists its final
    first), in the order read."""
    first = next(i for i, b in enumerate(blocks) if b.kind == "round")
    last = max(i for i, b in enumerate(blocks) if b.kind == "round")
    before = [g for b in blocks[:first] for g in b.games]
    for block in blocks[first : last + 1]:
        if block.kind == "round":
            expected = len(out.rounds) + 1
            if int(block.label) != expected:
                params = {"label": block.label, "expected": expected}
                problems.append(
                    (block.line, Problem("wof.line.round", f"line {block.line}", params=params))
                )
            out.rounds.append([])
        number = len(out.rounds)
        out.rounds[-1].extend(block.games)
        for ident, _line in block.byes:
            out.byes.setdefault(number, []).append(ident)
        for ident, _line in block.left:
            out.left[ident] = number
    while out.rounds and not out.rounds[-1] and len(out.rounds) not in out.byes:
        out.rounds.pop()  # a header written before its round was played
    out.added.extend(before)
    for block in blocks[last + 1 :]:
        out.added.extend(block.games)
        for ident, _line in block.left:
            out.left.setdefault(ident, len(out.rounds))
    if before:
        out.notes.append(
            Note("wof.added_first", params={"games": len(before), "line": before[0].line})
        )
    _twice(out)


def _twice(out: WofFile) -> None:
    """A player with two games in one numbered round: kept as the file gives it, and said."""
    found: list[tuple[int, int, int]] = []  # (round, id, line)
    for number, games in enumerate(out.rounds, start=1):
        seen: set[int] = set()
        for game in games:
            for ident in (game.black, game.white):
                if ident in seen and ident != UNKNOWN_ID:
                    found.append((number, ident, game.line))
                seen.add(ident)
    if found:
        rounds = sorted({r for r, _, _ in found})
        number, ident, line = found[0]
        out.notes.append(
            Note(
                "wof.twice",
                params={
                    "rounds": rounds[:20],
                    "round_count": len(rounds),
                    "id": ident,
                    "round": number,
                    "line": line,
                },
            )
        )


def _formed(out: WofFile, blocks: Sequence[Block]) -> None:
    """Rounds formed from the order of the games: each in the first round where both
    players are free; a bye in the first round where its player is free."""
    out.rounds_known = False
    busy: list[set[int]] = []
    for block in blocks:
        if block.kind == "added":
            out.added.extend(block.games)
            continue
        for game in block.games:
            pair = {game.black, game.white} - {UNKNOWN_ID}
            index = next((i for i, used in enumerate(busy) if not used & pair), len(busy))
            if index == len(busy):
                busy.append(set())
                out.rounds.append([])
            busy[index] |= pair
            out.rounds[index].append(game)
    for block in blocks:
        for ident, _line in block.byes:
            index = next((i for i, used in enumerate(busy) if ident not in used), len(busy))
            if index == len(busy):
                busy.append(set())
                out.rounds.append([])
            busy[index].add(ident)
            out.byes.setdefault(index + 1, []).append(ident)
    if any(b.left for b in blocks):
        out.notes.append(Note("wof.left_unplaced"))


def _attribute(out: WofFile, unknown: Sequence[int]) -> None:
    """'??????' in a game is the listed player without a WOF id when there is exactly one;
    otherwise who played the game is not known, and the game is left out (and said)."""
    dropped = 0

    def mapped(games: list[WofGame]) -> list[WofGame]:
        nonlocal dropped
        kept = []
        for game in games:
            if UNKNOWN_ID not in (game.black, game.white):
                kept.append(game)
            elif len(unknown) == 1 and game.black != game.white:
                black = unknown[0] if game.black == UNKNOWN_ID else game.black
                white = unknown[0] if game.white == UNKNOWN_ID else game.white
                kept.append(
                    WofGame(black, white, game.black_discs, game.white_discs, game.line, game.sign)
                )
            else:
                dropped += 1
        return kept

    out.rounds = [mapped(r) for r in out.rounds]
    out.added = mapped(out.added)
    if dropped:
        out.notes.append(Note("wof.unknown_id", params={"games": dropped, "players": len(unknown)}))


def _from_games(
    out: WofFile,
    problems: list[tuple[int, Problem]],
    contradicted: list[tuple[int, Problem]],
    bye_lines: dict[int, int],
) -> None:
    """Players who play but are not listed: known by their id only in a file without a list;
    in a file with one, a contradiction the director resolves (issue 28, item 13)."""
    known = {p.id for p in out.players}
    found: list[int] = []
    for game in [g for r in out.rounds for g in r] + out.added:
        for ident in (game.black, game.white):
            if ident in known:
                continue
            if out.listed:
                unlisted = Problem("wof.line.unlisted", f"line {game.line}", params={"id": ident})
                contradicted.append((game.line, unlisted))
            else:
                known.add(ident)
                found.append(ident)
    for number, ids in out.byes.items():
        for ident in ids:
            if ident in known:
                continue
            if out.listed:
                line = bye_lines.get(ident, 1)
                params = {"round": number, "id": ident}
                problems.append((line, Problem("wof.line.bye", f"line {line}", params=params)))
            else:
                known.add(ident)
                found.append(ident)
    out.players.extend(WofPlayer(i, "", "", "", listed=False) for i in found)


def _notes(out: WofFile) -> None:
    if not out.listed:
        out.notes.append(Note("wof.no_list"))
    if not out.rounds_known:
        out.notes.append(Note("wof.no_rounds", params={"rounds": len(out.rounds)}))
    if out.rounds_formed:
        out.notes.append(Note("wof.rounds_formed"))
    games = [g for r in out.rounds for g in r] + out.added
    plain = sum(1 for g in games if g.black_discs is None)
    if plain:
        out.notes.append(Note("wof.no_discs", params={"games": plain, "of": len(games)}))
    bonus = [p.id for p in out.players if p.bonus]
    if bonus:
        out.notes.append(Note("wof.bonus", params={"players": len(bonus)}))
