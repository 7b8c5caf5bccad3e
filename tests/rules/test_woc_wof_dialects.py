"""The WOF reader on the dialects of the WOF archive (issue 22; docs/formats/wof-file.md).

Each dialect is shown by lines of the form the archive writes them; the sample of 302 real
files (../shared/data/real/wof-archive-sample, tests/shared_data.py) is read whole.
"""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from rules.formats.woc import wof, wof_check
from tests.shared_data import real, sample_files

LIST = (
    "%%Tournament: T\n%%Country: Japan\n%%Date: 17/03/1991\n%%Sender: S\n\n"
    "%_%  11348, TEZUKA, hirohisa, JPN, 2.0, 99\n"
    "%_%  11872, UNO, toshihiro, JPN, 1.0, 80\n"
    "%_%  11770, SATO, ken, JPN, 1.0, 70\n"
    "%_%  11755, ITO, jun, JPN, 0.0, 40\n"
)


@pytest.mark.parametrize(
    "header", ["%Round: 1", "%Round 1", "%Round1", "% Round 1", "%round1:", "%%Round: 1"]
)
def test_round_headers_in_every_spelling(header: str) -> None:
    text = LIST + f"{header}\n 11348 (52)>(12)  11872\n 11770 (33)>(31)  11755\n"
    text += header.replace("1", "2") + "\n 11348 (40)>(24)  11770\n 11872 (40)>(24)  11755\n"
    parsed = wof.parse(text)
    assert parsed.rounds_known
    assert [[(g.black, g.white) for g in r] for r in parsed.rounds] == [
        [(11348, 11872), (11770, 11755)],
        [(11348, 11770), (11872, 11755)],
    ]


def test_a_game_without_discs_is_a_result() -> None:
    parsed = wof.parse(LIST + "%Round1\n 11348 (52)>(12)  11872\n 11770 >  11755\n")
    game = parsed.rounds[0][1]
    assert (game.black_discs, game.white_discs, game.result, game.decided) == (
        None,
        None,
        ">",
        True,
    )
    assert any(n.code == "wof.no_discs" and "1 of 2 games" in n.text for n in parsed.notes)
    discs, points = wof_check.official(game)
    assert discs is None and points == (1, 0)


@pytest.mark.parametrize(
    ("line", "ids"),
    [("%12349 had a bye", [12349]), ("% 299 bye", [299]), ("% 884 and 882 bye", [884, 882])],
)
def test_byes_written_as_comments(line: str, ids: list[int]) -> None:
    text = "%Round1\n 11348 >  11872\n" + line + "\n%Round2\n 11872 >  11348\n"
    parsed = wof.parse(text)
    assert parsed.byes == {1: ids}


def test_a_withdrawal_comment_gives_the_round_he_left_after() -> None:
    text = "%Round1\n 1 > 2\n 3 > 4\n%4 left the tournament\n%Round2\n 1 > 3\n"
    assert wof.parse(text).left == {4: 1}


def test_a_file_without_a_player_list_knows_players_by_their_ids() -> None:
    parsed = wof.parse("%%Tournament: X\n\n%Round1\n 11348 > 11872\n 11770 = 11755\n")
    assert not parsed.listed
    assert [(p.id, p.surname, p.listed) for p in parsed.players] == [
        (11348, "", False),
        (11872, "", False),
        (11770, "", False),
        (11755, "", False),
    ]
    assert any(n.code == "wof.no_list" for n in parsed.notes)


def test_a_file_without_round_headers_says_its_rounds_are_formed() -> None:
    """Swedish Champ. 91 writes one game a line, no headers: each game goes to the first round
    where both players are free, which gives back a Swiss written round after round."""
    games = ["1314 > 1302", " 180 = 1303", "1314 >  180", "1302 > 1303", "1302 >  180"]
    parsed = wof.parse("%%Tournament: Swedish Champ. 91\n\n" + "\n".join(games) + "\n")
    assert not parsed.rounds_known
    assert [[(g.black, g.white) for g in r] for r in parsed.rounds] == [
        [(1314, 1302), (180, 1303)],
        [(1314, 180), (1302, 1303)],
        [(1302, 180)],
    ]
    note = next(n for n in parsed.notes if n.code == "wof.no_rounds")
    assert "known in their order, not their rounds" in note.text and note.params == {"rounds": 3}


def test_sections_after_the_rounds_are_added_results_in_file_order() -> None:
    """'%Round SF1', '%%Finale', '% 1st place play-off:' after the rounds; Kolkata 2021 writes
    its final before them: all are games after the rounds, in the order read."""
    text = (
        LIST
        + "%%Final\n 11348 (24)<(40) 11872\n\n%%Round 1\n 11348 (40)>(24) 11872\n"
        + " 11770 (40)>(24) 11755\n\n%Round SF1\n 11770 (33)>(31) 11348\n"
        + "\n%% Finale\n 11872 (20)<(44) 11348\n"
    )
    parsed = wof.parse(text)
    assert len(parsed.rounds) == 1
    assert [(g.black, g.white) for g in parsed.added] == [
        (11348, 11872),
        (11770, 11348),
        (11872, 11348),
    ]


def test_a_comment_inside_a_round_does_not_end_it() -> None:
    text = "%round1:\n6804 < 6917\n%6917 wins with a draw\n6845 > 5676\n%round2:\n6917 > 6845\n"
    parsed = wof.parse(text)
    assert [len(r) for r in parsed.rounds] == [2, 1] and not parsed.added


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "%_%    5105, VAN DEN BIGGELAAR, Nicky, NLD,  8, 510, 2319",
            ("VAN DEN BIGGELAAR", "Nicky", "NLD", Fraction(8), None, 510, 2319),
        ),
        (
            "%_%\t 250008,\tLIN,\tWei Hao, Roy\tSGP,\t5,\t465",
            ("LIN", "Wei Hao, Roy", "SGP", Fraction(5), None, 465, None),
        ),
        (
            "%_%   250053, CHUA,     Zi Wei,            SGP   3,5   327",
            ("CHUA", "Zi Wei", "SGP", Fraction(7, 2), None, 327, None),
        ),
        (
            "%_% +120258, NUSSELDER, Feline, NL, 2,5, 173",
            ("NUSSELDER", "Feline", "NL", Fraction(5, 2), None, 173, None),
        ),
        (
            "%_%  120254, DUFOUR, Daniel, NL, 4+2, 229",
            ("DUFOUR", "Daniel", "NL", Fraction(4), Fraction(2), 229, None),
        ),
        (
            "%_%    36, MARCONI, Francesco,  4, 226",
            ("MARCONI", "Francesco", "", Fraction(4), None, 226, None),
        ),
        (
            "%_%   14160, HASHIMOTO, Yuuta, JPN, 5, 206, -",
            ("HASHIMOTO", "Yuuta", "JPN", Fraction(5), None, 206, None),
        ),
        (
            "%_% 440501, NYAMJAV Enkhjargal, , MNG,  1, 72, 0",
            ("NYAMJAV Enkhjargal", "", "MNG", Fraction(1), None, 72, 0),
        ),
    ],
)
def test_player_lines_of_every_dialect(line: str, expected: tuple) -> None:
    """NAME and Firstname as read (a surname with spaces stays the NAME), the country, the
    score (a decimal comma, a '+2' the games do not give), discs and rating; written back and
    read again unchanged."""
    ident = int(line.split(",")[0].split()[-1].lstrip("+"))
    text = f"{line}\n%_% 99999, OTHER, one, FRA, 0, 0\n%Round: 1\n{ident} (40)>(24) 99999\n"

    def fields(p: wof.WofPlayer) -> tuple:
        return (p.surname, p.first_name, p.country, p.score, p.bonus, p.discs, p.rating)

    player = wof.parse(text).player(ident)
    assert fields(player) == expected
    again = wof.parse(wof.write(wof.parse(text))).player(ident)
    assert fields(again) == expected


def test_a_list_of_brightwell_values_is_not_read_as_discs() -> None:
    text = (
        "%     ID,   FAMILY NAME,      Firstname,  COUNTRY,    Score,      MBQ\n"
        "%_%   250008, LIN,      Wei Hao Roy,       SGP   5     381\n"
        "%_%   250006, LEONG,    Chee Kit,          SGP   5     378\n"
        "% Round 1\n250008 (40)>(24) 250006\n"
    )
    parsed = wof.parse(text)
    assert [p.discs for p in parsed.players] == [None, None]
    assert any(n.code == "wof.bq_column" for n in parsed.notes)


def test_a_file_written_winner_first_keeps_its_discs_and_its_results() -> None:
    """Some Japanese files write the winner first, '>' everywhere, with discs that do not say
    so: '(32)>(32)' a win, '(18)>(46)' a win of the first player."""
    text = "%Round 1\n 5546 (32)>(32) 5539\n 10870 (18)>(46) 7046\n%Round 2\n 5539 (40)>(24) 7046\n"
    parsed = wof.parse(text)
    first, second = parsed.rounds[0]
    assert (first.result, first.decided, second.result, second.decided) == (">", True, ">", True)
    assert wof_check.official(second) == ((18, 46), (1, 0))
    assert any(n.code == "wof.winner_first" and "2 games" in n.text for n in parsed.notes)


def test_no_wof_id_is_the_one_listed_player_without_one() -> None:
    text = (
        "%_%  11037, INOUE, hiroshi, ?, 1.0, 40\n%_% ??????, ILAGAN, rey, ?, 0.0, 24\n"
        "%Round RR\n  11037 (40)>(24)  ??????\n"
    )
    parsed = wof.parse(text)
    (game,) = parsed.rounds[0]
    assert game.white < 0 and parsed.player(game.white).surname == "ILAGAN"
    assert "??????, ILAGAN" in wof.write(parsed)


def test_latin1_files_are_read() -> None:
    data = "%_%    180, WÅHLBERG, per-erik, SWE, 1, 40\n%_%  1, A, b, FRA, 0, 24\n".encode(
        "latin-1"
    )
    text, encoding = wof.decode(data + b"%Round: 1\n 180 (40)>(24) 1\n")
    assert encoding == "latin-1" and wof.parse(text).player(180).surname == "WÅHLBERG"
    assert wof.decode("Å".encode())[1] == "utf-8"


def test_a_binary_file_is_refused_in_one_sentence() -> None:
    blob = bytes(range(256)) * 40
    with pytest.raises(wof.WofError) as error:
        wof.parse(wof.decode(blob)[0])
    assert error.value.binary and len(error.value.problems) == 1
    assert len(str(error.value)) < 80


def test_a_broken_file_is_told_in_a_few_lines_without_its_bytes() -> None:
    text = "%Round: 1\n" + "".join(f"{'x' * 300} {n}\n" for n in range(500))
    with pytest.raises(wof.WofError) as error:
        wof.parse(text)
    assert len(error.value.problems) == 3 and error.value.more == 497
    assert error.value.problems[0][0] == 2 and "cannot read" in error.value.problems[0][1]
    assert len(str(error.value)) < 300  # quotes are cut: never the raw line


def test_the_list_beside_the_games() -> None:
    text = (
        "%_% 11348, A, a, JPN, 2, 92\n%_% 11872, B, b, JPN, 2, 46\n"
        "%_% 11770, C, c, JPN, 1, 57\n%_% 11755, D, d, JPN, 0, 61\n"
        "%Round: 1\n 11348 (52)>(12) 11872\n 11770 (33)>(31) 11755\n"
        "%Round: 2\n 11348 (40)>(24) 11770\n 11872 (34)>(30) 11755\n"
    )
    check = wof_check.cross_check(wof.parse(text))
    assert [(d.player, d.what, d.listed, d.games) for d in check.differences] == [
        (11872, "points", Fraction(2), Fraction(1))
    ]
    assert check.truncated is None


def test_byes_papp_leaves_out_are_those_the_list_counts() -> None:
    """PAPP writes no line for a bye; its list gives a bye 1 point and 40 discs (Farnborough
    2011). A listed player missing from a round he plays after, or the one missing from the
    last round, has a bye there."""
    text = (
        "%_% 1, A, a, GB, 2, 104\n%_% 2, B, b, GB, 2, 104\n%_% 3, C, c, GB, 2, 104\n"
        "%Round: 1\n 1 (40)>(24) 2\n%Round: 2\n 3 (40)>(24) 1\n%Round: 3\n 2 (40)>(24) 3\n"
    )
    check = wof_check.cross_check(wof.parse(text))
    assert check.implied_byes == {1: [3], 2: [2], 3: [1]}
    assert check.reading.bye_discs == 40 and check.differences == ()
    assert check.note is not None and "3 byes" in check.note.text


def _cut(text: str, header: str, lines_after: int) -> str:
    lines = text.splitlines()
    return "\n".join(lines[: lines.index(header) + lines_after]) + "\n"


def test_a_file_cut_short_is_said_so() -> None:
    """WOC 2014 as PAPP wrote it, cut at a line boundary in round 7: its list gives 13 rounds
    of points to the 64 players; the games give 6 rounds and part of the 7th."""
    text = real("raw", "20141106_WOC_2014.ELO").read_text(encoding="utf-8")
    whole = wof_check.cross_check(wof.parse(text))
    assert whole.differences == () and whole.truncated is None
    cut = wof_check.cross_check(wof.parse(_cut(text, "%Round: 7", 15)))
    assert cut.truncated is not None
    assert cut.truncated.params["short_count"] > 20 and cut.truncated.params["rounds"] == 7
    assert "4043: 11 points from" in cut.truncated.text


def test_a_listed_player_with_a_score_and_no_game_is_said() -> None:
    text = (
        "%_% 1, A, a, GB, 1, 40\n%_% 2, B, b, GB, 0, 24\n%_% 3, C, c, GB, 1, 40\n"
        "%Round: 1\n 1 (40)>(24) 2\n"
    )
    cut = wof_check.cross_check(wof.parse(text))
    assert cut.truncated is not None and cut.truncated.params["absent"] == [3]


@pytest.mark.slow
def test_the_whole_sample_is_read() -> None:
    """At least 299 of the 302 files of the archive sample read; a refused one is refused with
    its line and reason (WofError), never an exception of another kind."""
    files = sample_files()
    assert len(files) == 302
    start = time.perf_counter()
    read, refused = 0, []
    for path in files:
        text, _encoding = wof.decode(path.read_bytes())
        try:
            parsed = wof.parse(text)
        except wof.WofError as error:
            refused.append((path.name, error.problems))
            assert error.problems and all(n >= 1 and what for n, what in error.problems)
            continue
        wof_check.cross_check(parsed)
        read += 1
    assert read >= 299, refused
    assert time.perf_counter() - start < 10  # about 1 s here; the bench times the import check


@pytest.mark.slow
def test_every_read_sample_file_writes_back_to_the_same_games() -> None:
    """Text to data to text: writing a read file and reading it again gives the same players,
    rounds, byes and added results, and writing that gives the same text."""
    for path in sample_files():
        text, _encoding = wof.decode(path.read_bytes())
        try:
            first = wof.parse(text)
        except wof.WofError:
            continue
        written = wof.write(first)
        second = wof.parse(written)
        assert [(p.id, p.surname, p.first_name, p.country) for p in second.players] == [
            (p.id, p.surname, p.first_name, p.country) for p in first.players
        ], path.name

        def games(data: wof.WofFile) -> list:
            rounds = [[_game(g) for g in r] for r in data.rounds]
            return [rounds, [_game(g) for g in data.added], data.byes, data.left]

        assert games(second) == games(first), path.name
        assert wof.write(second) == written, path.name


def _game(game: wof.WofGame) -> tuple:
    return (game.black, game.white, game.black_discs, game.white_discs, game.result)


def test_a_result_the_record_decides_is_scored_as_recorded() -> None:
    """woc IV.8 adds empty squares to the winner of a game played out; a record's result
    without discs, or won on '(32)>(32)', keeps its discs as written (none: 0-0)."""
    from rules.contract import GameState
    from rules.formats.woc.scoring import score_game

    no_discs, _ = score_game(GameState(1, (None, None), details={"decided": "white"}), "g")
    assert no_discs is not None and (no_discs.scores, no_discs.winner) == ((0, 0), 1)
    on_32, _ = score_game(GameState(1, (32, 32), details={"decided": "black"}), "g")
    assert on_32 is not None and (on_32.scores, on_32.winner) == ((32, 32), 0)
    short, _ = score_game(GameState(1, (30, 20), details={"decided": "black"}), "g")
    assert short is not None and short.scores == (30, 20)  # no empty squares added
    refused, problems = score_game(GameState(1, (None, None), details={"decided": "?"}), "g")
    assert refused is None and problems[0].field == "g.details.decided"


# -- issue 28, item 12: dialects the reader did not know ---------------------------------------


@pytest.mark.parametrize(
    "line", ["11770 < 11755 B", "11770<11755 B", " 11770  <   11755   B ", "11770 <11755\tW"]
)
def test_issue_28_item_12_a_result_without_discs_with_a_flag(line: str) -> None:
    parsed = wof.parse(LIST + "%Round1\n 11348 (52)>(12)  11872\n" + line + "\n")
    game = parsed.rounds[0][1]
    assert (game.black, game.white, game.black_discs, game.result) == (11770, 11755, None, "<")


@pytest.mark.parametrize(
    ("line", "comment"),
    [
        (" 11770 (33)>(31)  11755 B % Time forfeit", "Time forfeit"),
        (" 11770 >  11755 % Timeout is a loss", "Timeout is a loss"),
        (" 11770 > 11755 % TEZUKA - UNO  33-31", "TEZUKA - UNO  33-31"),
    ],
)
def test_issue_28_item_12_a_comment_after_the_game(line: str, comment: str) -> None:
    """The game is read; the comment is kept in a note (its discs, if any, are not taken: a
    comment is not a result)."""
    parsed = wof.parse(LIST + "%Round1\n 11348 (52)>(12)  11872\n" + line + "\n")
    game = parsed.rounds[0][1]
    assert (game.black, game.white, game.result) == (11770, 11755, ">")
    note = next(n for n in parsed.notes if n.code == "wof.game_comments")
    assert note.params["games"] == 1 and note.params["line"] == 12
    assert note.params["text"] == comment


def test_issue_28_item_12_a_comment_line_inside_a_round_keeps_the_round() -> None:
    text = (
        LIST
        + "%Round1\n 11348 > 11872 % TEZUKA - UNO  40-24\n% SATO - ITO  33-31\n 11770 > 11755\n"
        + "%Round2\n 11348 > 11770\n 11872 > 11755\n"
    )
    parsed = wof.parse(text)
    assert [[(g.black, g.white) for g in r] for r in parsed.rounds] == [
        [(11348, 11872), (11770, 11755)],
        [(11348, 11770), (11872, 11755)],
    ]
    assert not parsed.added


@pytest.mark.parametrize(
    "line",
    [
        " 11348 (52)>(12)  11872 B   11770 (33)>(31)  11755 B",
        " 11348 (52)>(12)  11872    11770 (33)>(31)  11755",
        "11348 > 11872  11770 > 11755",
        "11348 > 11872 B 11770 (33)>(31) 11755 % two boards",
    ],
)
def test_issue_28_item_12_two_games_on_one_line(line: str) -> None:
    parsed = wof.parse(LIST + "%Round1\n" + line + "\n")
    assert [(g.black, g.white, g.line) for g in parsed.rounds[0]] == [
        (11348, 11872, 11),
        (11770, 11755, 11),
    ]


def test_issue_28_item_12_a_line_with_a_game_and_more_text_is_still_refused() -> None:
    with pytest.raises(wof.WofError) as error:
        wof.parse(LIST + "%Round1\n 11348 (52)>(12)  11872 and then 11770\n")
    assert error.value.messages[0][0] == 11


# -- issue 28, item 13: files that contradict themselves ---------------------------------------

CONTRADICTIONS = (
    LIST
    + "%Round1\n"
    + " 11348 (52)<(12)  11872\n"  # line 11: '<' against the discs
    + " 11770 (40)>(30)  11755\n"  # line 12: 70 discs
    + "%Round2\n"
    + " 11348 > 11348\n"  # line 14: a player against himself
    + " 11872 (40)>(24)  99999\n"  # line 15: a player not in the list
    + " 11770 (33)>(31)  11755\n"
)


def test_issue_28_item_13_contradictions_are_listed_with_their_lines_not_refused() -> None:
    parsed = wof.parse(CONTRADICTIONS)
    found = {
        c.line: ([p.code for p in c.problems], c.choices, c.chosen) for c in parsed.contradictions
    }
    assert found == {
        11: (["wof.line.sign"], ("sign", "discs", "drop"), None),
        12: (["wof.line.discs"], ("sign", "drop"), None),
        14: (["wof.line.self"], ("drop",), None),
        15: (["wof.line.unlisted"], ("drop",), None),
    }
    assert parsed.contradictions[0].text == "11348 (52)<(12)  11872"
    # never guessed: a game whose contradiction is not resolved is not among the games
    assert [(g.black, g.white) for r in parsed.rounds for g in r] == [(11770, 11755)]


def test_issue_28_item_13_the_directors_choice_per_line_is_applied() -> None:
    parsed = wof.parse(CONTRADICTIONS, resolutions={11: "sign", 12: "sign", 14: "drop", 15: "drop"})
    assert [c.chosen for c in parsed.contradictions] == ["sign", "sign", "drop", "drop"]
    first, second = parsed.rounds[0]
    assert (first.result, first.black_discs, first.white_discs, first.decided) == (
        "<",
        52,
        12,
        True,
    )
    assert (second.result, second.black_discs, second.decided) == (">", None, True)
    assert [(g.black, g.white) for g in parsed.rounds[1]] == [(11770, 11755)]
    trusted = wof.parse(
        CONTRADICTIONS, resolutions={11: "discs", 12: "drop", 14: "drop", 15: "drop"}
    )
    first = trusted.rounds[0][0]
    assert (first.result, first.decided, len(trusted.rounds[0])) == (">", False, 1)


def test_issue_28_item_13_a_choice_the_line_does_not_offer_is_not_applied() -> None:
    parsed = wof.parse(CONTRADICTIONS, resolutions={14: "sign", 12: "discs"})
    assert {c.line: c.chosen for c in parsed.contradictions}[14] is None
    assert {c.line: c.chosen for c in parsed.contradictions}[12] is None
