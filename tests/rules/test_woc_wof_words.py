"""The WOF reader says codes and parameters (issue 23, item 3): its notes, the lines it refuses
and the list-against-games check get their English from rules/formats/woc/words.py, so the
import page says them in the reader's language."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rules import words
from rules.formats.woc import wof, wof_check
from tests.shared_data import sample_files

HEAD = "%_%     1, A, a, GBR, 1, 40\n%_%     2, B, b, GBR, 0, 24\n"


def test_a_refused_line_is_a_code_and_its_params() -> None:
    with pytest.raises(wof.WofError) as error:
        wof.parse(HEAD + "%Round: 1\n     1 forty 2\n")
    ((line, problem),) = error.value.messages
    assert (line, problem.code, dict(problem.params)) == (4, "wof.line.game", {"text": "1 forty 2"})
    assert error.value.problems == [(4, "cannot read '1 forty 2' as a game.")]
    assert str(error.value) == "line 4: cannot read '1 forty 2' as a game."


def test_a_player_line_says_why_as_a_message_of_its_own() -> None:
    with pytest.raises(wof.WofError) as error:
        wof.parse(HEAD + "%_% 3, \n%Round: 1\n     1 (40)>(24)      2 B\n")
    (_line, problem), *_ = error.value.messages
    assert problem.code == "wof.line.player"
    assert problem.params["why"] == words.message("wof.player.fields")
    assert problem.text == (
        "'%_% 3,': a player line needs id, NAME, Firstname[, COUNTRY, score, discs, rating]."
    )


def test_a_note_is_said_from_its_code() -> None:
    parsed = wof.parse(HEAD + "%Round: 1\n     1 (40)>(24)      2 B\n     1 > 2\n")
    note = next(n for n in parsed.notes if n.code == "wof.no_discs")
    assert dict(note.params) == {"games": 1, "of": 2}
    assert (
        note.text
        == words.render("wof.no_discs", {"games": 1, "of": 2})
        == (
            "1 of 2 games give the result without the discs: their winners are known, their disc "
            "counts are not (they count 0 discs)."
        )
    )


def test_a_cut_short_file_says_both_what_it_found_and_keeps_its_data() -> None:
    """Not "wof.truncated": that is the web side's refusal, with a text of its own."""
    text = "%_% 1, A, a, GB, 2, 80\n%_% 2, B, b, GB, 0, 24\n%_% 3, C, c, GB, 1, 40\n"
    cut = wof_check.cross_check(wof.parse(text + "%Round: 1\n 1 (40)>(24) 2\n"))
    note = cut.truncated
    assert note is not None and note.code == "wof.cut_short"
    assert note.params["found"]["code"] == "wof.cut_short.both"
    assert note.params["absent"] == [3] and note.params["short"] == [1]
    assert note.text == (
        "The games cover fewer rounds or players than the list says: 1 listed players have "
        "more points than games (e.g. 1: 2 points from 1 games); 1 of 3 listed players with a "
        "score have no game in the file (e.g. 3). The file holds 1 rounds: it may have been "
        "cut short."
    )


def _stored(params: object) -> object:
    def plain(value: object) -> object:
        if isinstance(value, Fraction):
            return value.numerator if value.denominator == 1 else float(value)
        if isinstance(value, dict):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    return json.loads(json.dumps(plain(params)))


@pytest.mark.slow
def test_every_note_of_the_sample_says_the_same_from_stored_params() -> None:
    """What a page shows from the stored code and params is what the reader said, for every
    note of the 302 files of the archive sample and of their first halves (cut short)."""
    said = 0
    for path in sample_files():
        text, _encoding = wof.decode(path.read_bytes())
        half = "\n".join(text.splitlines()[: len(text.splitlines()) // 2])
        for version in (text, half):
            try:
                parsed = wof.parse(version)
            except wof.WofError as error:
                messages = [what for _n, what in error.messages]
                notes = []
            else:
                check = wof_check.cross_check(parsed)
                messages = []
                notes = [*parsed.notes, check.note, check.truncated]
            for message in [*messages, *(n for n in notes if n is not None)]:
                again = words.render(message.code, _stored(dict(message.params)))
                assert again == message.text, (path.name, message.code)
                said += 1
    assert said > 500
