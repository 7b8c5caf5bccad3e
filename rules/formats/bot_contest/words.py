"""Sentences of the bot contest (rules/words.py): what the engine says, by code."""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # settings
    "bot_contest.setting.k": _("K must be a whole number, at least 1."),
    "bot_contest.setting.losers_target": _(
        "The losers' bracket target must be a whole number, at least 1."
    ),
    "bot_contest.setting.finalists": _(
        "2K plus the losers' target gives {finalists} finalists; the rules allow no fewer "
        "than 4 and no more than 8."
    ),
    "bot_contest.setting.references": _("There must be a reference program."),
    "bot_contest.setting.boards.name": _("Each board needs a name."),
    "bot_contest.setting.boards.list": _("List the boards the director chooses from."),
    # planning
    "bot_contest.absence": _(
        "programs play unattended, so a bot contest has no check-in; withdraw an entry that "
        "cannot play."
    ),
    # {purpose} is the draw's own message (or its purpose as the draw gave it)
    "bot_contest.draw_needed": _("Enter the draw: {purpose}."),
    "bot_contest.draw.seeding_tie": _("order of entries tied on gauntlet total and game points"),
    "bot_contest.references": _(
        "The gauntlet needs {needed} reference programs (flag 'reference'); {marked} are marked."
    ),
    "bot_contest.too_few": _("The contest needs two entries."),
    "bot_contest.gauntlet": _("Each entry plays each reference twice, moving first in game 1."),
    "bot_contest.seeded": _(
        "Seeds by gauntlet total, then total game points, then a recorded draw."
    ),
    "bot_contest.fold": _("Seed {high} meets seed {low}."),
    "bot_contest.first_mover": _("Seed {first} moves first in game 1, seed {second} in game 2."),
    # {the_bracket} is one of the two bracket messages below
    "bot_contest.bracket_waits": _(
        "{the_bracket} ({size}) has reached its size for the final and waits."
    ),
    "bot_contest.bracket.winners": _("The winners' bracket"),
    "bot_contest.bracket.losers": _("The losers' bracket"),
    "bot_contest.bye": _("Odd bracket: the highest seed that has not had a bye gets one."),
    "bot_contest.second_bye": _(
        "Odd bracket in which every entry has had a bye: the highest seed with the fewest "
        "byes gets another."
    ),
    "bot_contest.repeat_avoided": _("Seed order gave way to avoid repeat matches."),
    "bot_contest.repeat_kept": _(
        "Seed order gave way to avoid repeat matches; {repeats} repeat(s) could not be avoided."
    ),
    "bot_contest.board_needed": _("Choose the board for round {number}."),
    "bot_contest.board.director": _("The director chose {board}."),
    "bot_contest.board.rotation": _("Next board in the rotation: {board}."),
    "bot_contest.board_reused": _(
        "{board} was used in an earlier round; the list of boards is exhausted."
    ),
    "bot_contest.round_robin": _(
        "Everyone plays everyone else in the final, one two-game match a pair."
    ),
    "bot_contest.finalists": _(
        "{count} entries reach the final: {from_winners} from the winners' bracket and "
        "{from_losers} from the losers'."
    ),
    "bot_contest.single": _("Only one entry remains."),
    "bot_contest.finished": _("The final round robin is over."),
    # {problem} is the match's problem, said as its own message
    "bot_contest.in_match": _("{match}: {problem}"),
    "bot_contest.unplayed": _("{match}: both games must be entered before the next round."),
    # a game
    "bot_contest.ending": _("Game {game}: a game between two programs cannot end as a bye."),
    "bot_contest.score_missing": _("Game {game}: enter the points both programs scored."),
    "bot_contest.score_type": _("Game {game}: points are numbers."),
    "bot_contest.score_negative": _("Game {game}: the points a program scored cannot be negative."),
    "bot_contest.first": _("Game {game}: the program that moved first must be seat 1 or seat 2."),
    "bot_contest.result": _(
        "Game {game}: the referee's result must be X, O or tie; got {result!r}."
    ),
    # {why} is one of the two messages below
    "bot_contest.result_missing": _(
        "Game {game}: enter the referee's result (X, O or tie): {why}."
    ),
    "bot_contest.result_missing.referee": _("this event takes results from the referee"),
    # whole clauses, not "ended by {ending}": the bare words already mean other things
    "bot_contest.result_missing.resignation": _("the game ended by resignation"),
    "bot_contest.result_missing.time_default": _("the game ended by time default"),
    "bot_contest.result_missing.forfeit": _("the game ended by forfeit"),
    "bot_contest.result_missing.default": _("the game ended by default"),
    "bot_contest.result_missing.bye": _("the game ended by bye"),
    "bot_contest.result_points": _(
        "Game {game}: the referee's result ({result}) does not match the points ({points}), "
        "and this event takes the result from the points."
    ),
    "bot_contest.board": _(
        "Game {game} was played on board {played!r}; this round uses {board!r}."
    ),
    # a match
    "bot_contest.seats": _("A match needs two entries."),
    "bot_contest.game_count": _("A match is two games; {given} were entered."),
    "bot_contest.first_twice": _(
        "Each entry moves first once in a match; both games have the same first mover."
    ),
    "bot_contest.match_games": _("Seat {seat} won more games ({games})."),
    "bot_contest.match_points": _("Games {games}; seat {seat} scored more points ({points})."),
    "bot_contest.match_tied": _("The match is tied ({games}): both entries stay in their bracket."),
    "bot_contest.bye_counts": _("A bye counts as a match won: the entry stays in its bracket."),
    # standings
    "bot_contest.seeding_draw_pending": _(
        "{count} entries are level on total and game points; a recorded draw will order them "
        "when stage two is planned."
    ),
    "bot_contest.final_tie": _(
        "{names} share the highest total of the final; the director decides the winner."
    ),
    "bot_contest.ranking": _(
        "Finalists by the final round robin; the others by the round they went out (later "
        "first), entries out in the same round sharing a place."
    ),
    # the checker's findings (checker.py); {bracket} is one of bot_contest.check.bracket.*
    "bot_contest.check.bracket.winners": _("winners' bracket"),
    "bot_contest.check.bracket.losers": _("losers' bracket"),
    "bot_contest.check.nobody": _("nobody"),
    "bot_contest.check.no_gauntlet_match": _("{who} has no gauntlet match against {reference}."),
    "bot_contest.check.not_gauntlet": _(
        "The gauntlet match {players} is not an entry against a reference program."
    ),
    "bot_contest.check.games": _("{match_code} has {count} games; a match has 2."),
    "bot_contest.check.same_first": _(
        "In {match_code} the same program moves first in both games."
    ),
    "bot_contest.check.no_score": _("Game {game} of {match_code} has no score."),
    "bot_contest.check.board": _(
        "Game {game} of {match_code} is on {board}; the round's board is {round_board}."
    ),
    "bot_contest.check.seeds": _(
        "The seeds are not the entries still in the contest (references are never seeded)."
    ),
    "bot_contest.check.seed_order": _(
        "{who} (total {total}) is seeded below {above} (total {above_total})."
    ),
    "bot_contest.check.brackets": _(
        "The brackets of round {number} are not those the results give."
    ),
    "bot_contest.check.no_bracket_plays": _(
        "Round {number} is a bracket round, but neither bracket should play any more."
    ),
    "bot_contest.check.should_stop": _(
        "The {bracket} plays round {number} but has {count} entries, few enough to stop."
    ),
    "bot_contest.check.bye": _(
        "The {bracket}'s bye goes to {chosen} (highest seed with the fewest byes); the record "
        "gives it to {given_to}."
    ),
    "bot_contest.check.even_bye": _("The {bracket} is even but has a bye."),
    "bot_contest.check.pairs": _("{match_code} pairs {players}; the rule pairs them otherwise."),
    "bot_contest.check.finalists": _(
        "The finalists are not the entries left in the two brackets, in seed order."
    ),
    "bot_contest.check.final_missing": _("{players} do not meet in the final."),
    "bot_contest.check.final_once": _("{players} should meet once in the final."),
    "bot_contest.check.value": _("{who}'s {table} {column} is {shown}; the games give {value}."),
    "bot_contest.check.order": _(
        "{below} is below {above} in the {table} table with a higher total."
    ),
}

# -- labels built from a pattern (rules/words.py, ``patterns``) -------------------------
# a stage-two round: the event's round number, then the stage's own count
STAGE_TWO_ROUND = _("Round {n} (stage two, round {stage_round})")
BOARD = _("Board {n}")  # a board with no name in the settings
DRAWN_BY_LOT = _("Drawn by lot ({key})")  # why one entry seeds above another

LABELS: tuple[str, ...] = (STAGE_TWO_ROUND, BOARD, DRAWN_BY_LOT)
