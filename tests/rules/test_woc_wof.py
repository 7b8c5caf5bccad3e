"""WOF rating files (.ELO): parse and write (rules/formats/woc/wof.py).

The real records in ../shared/data/real/ carry what came from PAPP's .ELO files; a file is
built from them here, read back and written again.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.formats.woc import wof
from tests.shared_data import load


def elo_from_record(name: str) -> str:
    data = load(name)
    published = {row["id"]: row for row in data["published_standings"]["rows"]}
    entrants = {e["id"]: e for e in data["entrants"]}
    players = [
        wof.WofPlayer(
            ident,
            entrants[ident]["surname"],
            entrants[ident]["first_name"],
            entrants[ident]["country"],
            Fraction(row["score"]),
            row["disc_count"],
            entrants[ident]["rating_in_file"],
        )
        for ident, row in published.items()
    ]
    file = wof.WofFile(
        header={k: v for k, v in data["source"]["file_header"].items()},
        players=players,
        rounds=[[wof.WofGame(*g) for g in rnd["games"]] for rnd in data["rounds"]],
        added=[wof.WofGame(*g) for g in data["added_results"]["games_in_file_order"]],
    )
    return wof.write(file)


@pytest.mark.parametrize("name", ["woc_2012.json", "woc_2014.json", "woc_2015.json"])
def test_real_records_round_trip(name: str) -> None:
    data = load(name)
    text = elo_from_record(name)
    parsed = wof.parse(text)
    assert parsed.header["Creator"] == "PAPP 1.36"
    assert [p.id for p in parsed.players] == [r["id"] for r in data["published_standings"]["rows"]]
    assert [
        [[g.black, g.white, g.black_discs, g.white_discs] for g in rnd] for rnd in parsed.rounds
    ] == [rnd["games"] for rnd in data["rounds"]]
    assert [[g.black, g.white, g.black_discs, g.white_discs] for g in parsed.added] == data[
        "added_results"
    ]["games_in_file_order"]
    assert wof.write(parsed) == text


def test_papp_layout_of_lines() -> None:
    """elo.c: '%6ld (%02d)%c(%02d) %6ld B' and '%_%  id, NAME, First, CTRY, score, discs, elo'."""
    text = elo_from_record("woc_2015.json")
    assert "%_%    5537, TAKANASHI, Yusuke, JPN, 11, 519, 2499" in text
    assert "  4043 (58)>(06) 100004 B" in text
    assert "%%Added results\n  3024 (34)>(30)    839 B" in text


HEAD = "%%Tournament: T\n%_%     1, A, a, FRA, 1, 40\n%_%     2, B, b, FRA, 0, 24\n"


# Issue 22 changed three of these: a game without a round header is a file without round
# headers (read, its rounds formed: test_woc_wof_dialects.py), a player twice in a round is
# kept and said (the archive has such rounds), and a sign that disagrees with the discs is a
# mistake only where the file does not write every game winner first (hence the '<' game).
# Issue 28 (item 13) made four more contradictions the director resolves, line by line.
@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("%Round: 1\n     1 (40)>(24)      2 B\n%Round: 3\n", 6, "round 3 where round 2"),
        ("%Round: 1\n     1 forty 2\n", 5, "cannot read"),
    ],
)
def test_malformed_files_are_refused_with_line_and_problem(body, line, words) -> None:
    with pytest.raises(wof.WofError) as error:
        wof.parse(HEAD + body)
    assert any(n == line and words in text for n, text in error.value.problems), error.value


@pytest.mark.parametrize(
    ("body", "line", "words"),
    [
        ("%Round: 1\n     1 (40)>(30)      2 B\n", 5, "70 discs"),
        ("%Round: 1\n     1 (40)>(24)      9 B\n", 5, "player 9 is not in the player list"),
        (
            "%Round: 1\n     1 (20)>(24)      2 B\n%Round: 2\n     2 (20)<(44)      1 B\n",
            5,
            "does not agree",
        ),
        ("%Round: 1\n     1 (40)>(24)      1 B\n", 5, "plays against himself"),
    ],
)
def test_issue_28_item_13_contradictions_are_listed_for_the_director(body, line, words) -> None:
    (found,) = wof.parse(HEAD + body).contradictions
    assert found.line == line and any(words in p.text for p in found.problems), found


def test_byes_are_kept_in_a_comment_line() -> None:
    text = HEAD + "%_%     3, C, c, GBR, 1, 32\n%Round: 1\n     1 (40)>(24)      2 B\n% bye: 3\n"
    parsed = wof.parse(text)
    assert parsed.byes == {1: [3]}
    assert wof.parse(wof.write(parsed)).byes == {1: [3]}
