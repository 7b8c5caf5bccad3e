"""Sentences of the GokoDom engine, by code (rules/words.py). Section numbers are those of
the season's rule document; names are shown as given, match codes as drawn ("R2-3", "QF1").
"""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # -- settings and entrants (engine.py, context.py) ----------------------------------
    "gokodom.setting.swiss_rounds": _("'swiss_rounds' must be 0 (automatic) to 20."),
    "gokodom.setting.first_round_start": _(
        "'first_round_start' must be a date like 2025-02-10; got {value!r}."
    ),
    "gokodom.setting.days": _("'{key}' must be 1 to 60 days; got {days}."),
    "gokodom.setting.last_round_days": _(
        "The final round of the Swiss portion lasts no longer than two weeks (I.C)."
    ),
    "gokodom.colour": _("{name} has no colour: each player is Red or Blue (II.A)."),
    "gokodom.bye_request_shape": _(
        "{name}: a Bye by Request is recorded as a list of round numbers."
    ),
    "gokodom.bye_request_refused": _(
        "{name} asked for a Bye by Request in round {round}: it may not be used in the final "
        "Swiss round (round {last}) or the elimination rounds (I.E)."
    ),
    "gokodom.too_few": _("A GokoDom season needs two players."),
    "gokodom.late_entry": _(
        "Players cannot join after round 1 (the number of rounds depends on the players "
        "signed up, I.B): {names}."
    ),
    "gokodom.match_pending": _("Match {match} has no result yet."),
    # -- games and results (results.py, record.py, knockout.py) --------------------------
    "gokodom.game_number": _(
        "Games must be numbered 1, 2, 3 in order; game {index} is numbered {number}."
    ),
    "gokodom.too_many_games": _("A match has at most 6 games; {count} were entered."),
    "gokodom.match_already_decided": _(
        "The match was decided after game {after} ({score}); game {number} should not have "
        "been played."
    ),
    "gokodom.game_ending": _("Game {number}: a game between two players cannot end as a bye."),
    "gokodom.game_score": _(
        "Game {number}: a game gives 1 game point to the winner, or 0.5 to each player for a "
        "draw (IV.A.3)."
    ),
    "gokodom.seat_order": _(
        "Game {number}: the seats go A-B-B-A-A-B, so the player in seat {seat} moves first in "
        "this game (IV.A.1)."
    ),
    "gokodom.results_shape": _("Record results as one result code for each player of the match."),
    "gokodom.results_players": _(
        "Record exactly one result for each of the two players of the match."
    ),
    "gokodom.results_code": _("A result must be one of W, L, D, WD, DD or LD."),
    "gokodom.results_pair": _(
        "{first} for one player and {second} for the other cannot go together."
    ),
    "gokodom.no_handshake_last_round": _(
        "A Draw by Default is not available in the last round of the Swiss portion (II.B.5)."
    ),
    "gokodom.bye_result": _("A bye is a WB or a BR result."),
    # a Swiss match may also end 3-3 or be settled by recorded results
    "gokodom.match_unfinished": _(
        "Match {match} stopped after {games} games without a winner or a 3-3 tie; enter the "
        "missing games or record the results."
    ),
    "gokodom.match_unfinished.knockout": _(
        "Match {match} stopped after {games} games without a winner; enter the missing games."
    ),
    "gokodom.advances": _(
        "The player who goes through must be one of the two players of the match."
    ),
    # II.B-C: each result a Swiss match gives, with its match points (results.RESULT_REASONS)
    "gokodom.result.w": _("Win (W): 2 match points."),
    "gokodom.result.l": _("Loss (L): 0 match points."),
    "gokodom.result.d": _("Draw (D): 1 match point."),
    "gokodom.result.wd": _("Win by Default (WD): 2 match points."),
    "gokodom.result.dd": _("Draw by Default (DD): 1 match point."),
    "gokodom.result.ld": _("Loss by Default (LD): 0 match points."),
    "gokodom.result.wb": _("Win by Bye (WB): 2 match points."),
    "gokodom.result.br": _("Bye by Request (BR): 1 match point."),
    # -- what the rules leave to the director ---------------------------------------------
    # asked before the next round (engine.py), on the match's score, in the standings
    "gokodom.last_round_handshake": _(
        "Both players of match {match} told the TO they could not agree a time. A Draw by "
        "Default is not available in the last Swiss round (II.B.5): record the results of the "
        "match (match detail 'results', e.g. W and L, or LD for both)."
    ),
    "gokodom.last_round_handshake.open": _(
        "Both players sent a PM, but a Draw by Default is not available in the last Swiss "
        "round: the director records the results."
    ),
    "gokodom.last_round_handshake.pending": _(
        "Match {match}: the director records the results (no DD in the last round)."
    ),
    # an elimination match the rules leave open: asked before the next round, on the
    # match's score (the web side finds open matches by these two codes), in the standings
    "gokodom.tied.decision": _(
        "Match {match}: {a} and {b} tied 3-3 on game points. The rules leave this open: record "
        "who goes through (match detail 'advances')."
    ),
    "gokodom.both_messaged.decision": _(
        "Match {match}: {a} and {b} both told the TO they could not agree a time to play. The "
        "rules leave this open: record who goes through (match detail 'advances')."
    ),
    "gokodom.tied": _("The rules leave this match open: the director records who goes through."),
    "gokodom.both_messaged": _(
        "The rules leave this match open: the director records who goes through."
    ),
    "gokodom.tied.pending": _("Match {match}: the director records who goes through."),
    "gokodom.both_messaged.pending": _("Match {match}: the director records who goes through."),
    "gokodom.director_decision": _(
        "The director decided who goes through (the rules leave this open)."
    ),
    "gokodom.eighth_place": _(
        "Only a coin flip separates {a} and {b} for 8th and 9th place. Decide whether a coin "
        "flip or a playoff match between them settles it (III.A)."
    ),
    "gokodom.eighth_place.pending": _(
        "A coin flip or a playoff match must settle 8th and 9th place."
    ),
    # -- the Swiss rounds (plan_swiss.py, pairing.py) -------------------------------------
    "gokodom.swiss_order": _(
        "Players are ordered by match points, Solkoff, cumulative score, then the random "
        "order; requested byes come last."
    ),
    # II.F-G: the tier of the choice; a window is shown as "+-2"
    "gokodom.paired.opposite_colour": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who has not played them, is within +-{window} match points and has the "
        "opposite colour."
    ),
    "gokodom.paired.same_colour": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who has not played them and is within +-{window} match points (no one "
        "left also had the opposite colour)."
    ),
    "gokodom.paired.outside_window": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who has not played them (no one left was within +-{window} match "
        "points)."
    ),
    "gokodom.paired.opposite_colour.one": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who has not played them, is within +-1 match point and has the "
        "opposite colour."
    ),
    "gokodom.paired.same_colour.one": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who has not played them and is within +-1 match point (no one "
        "left also had the opposite colour)."
    ),
    "gokodom.paired.outside_window.one": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who has not played them (no one left was within +-1 match point)."
    ),
    "gokodom.paired.rematch": _(
        "{higher_name} (#{higher_place}) takes {lower_name} (#{lower_place}), the highest "
        "player below who a rematch: every pairing without one was impossible."
    ),
    "gokodom.pairing_stuck": _(
        "Pairing from the top down would leave {names} without an opponent they have not played."
    ),
    "gokodom.pairing_undone": _(
        "{name} would take {first_name}, but then the players left could not all be paired "
        "without a rematch; that choice is undone and {name} meets {chosen_name}."
    ),
    "gokodom.pairing_undone.bye": _(
        "{name} would take {first_name}, but then the players left could not all be paired "
        "without a rematch; that choice is undone and {name} is left for the bye."
    ),
    "gokodom.rematch": _(
        "No pairing of this round avoids every rematch; players who have met may meet again, "
        "as the last choice of each player."
    ),
    "gokodom.bye": _(
        "Odd number of players: {name}, the last unpaired player on the list, receives a Bye (WB)."
    ),
    "gokodom.requested_bye": _(
        "{name} asked for a Bye by Request: listed last and unpaired this round; the bye "
        "counts as a draw."
    ),
    # what an absence does ("Ann is absent: <this>.", rules/absence.py)
    "gokodom.absent.loss": _("not paired; a Loss (0 match points), and the player stays in"),
    "gokodom.absent.loss_by_default": _(
        "not paired; a Loss by Default (LD), which removes the player (II.B.6)"
    ),
    "gokodom.absent.walkover": _("the match is lost by default; the opponent goes through"),
    # -- the elimination rounds (plan_knockout.py) ----------------------------------------
    "gokodom.playoff": _(
        "{a} and {b} are equal on every tiebreak; a match between them decides 8th place."
    ),
    "gokodom.seeding": _(
        "Seeds by match points, fewest defaults, Solkoff, cumulative, cumulative opponents' "
        "scores, the result between them, then a coin flip."
    ),
    "gokodom.coin_flip": _("A coin flip ordered {names}."),
    "gokodom.bracket": _("Bracket match {match}."),
    "gokodom.walkover": _("{name} has no opponent in {match} and goes through."),
    "gokodom.champion": _("{name} wins the final and the season."),
    "gokodom.no_champion": _("The final was not played: no champion."),
    # -- the checker's findings (checker.py) ------------------------------------------
    "gokodom.check.seats": _(
        "Game {game} of {match_code}: seat {want} sits first by A-B-B-A-A-B; the record has "
        "seat {seat}."
    ),
    "gokodom.check.game_score": _("Game {game} of {match_code} scores {score}."),
    "gokodom.check.decided": _(
        "{match_code} was decided after game {game}; {more} more game(s) are recorded."
    ),
    "gokodom.check.no_result": _(
        "{match_code} stops at {score} after {games} games without a result."
    ),
    "gokodom.check.rounds": _(
        "{rounds} Swiss rounds for {players} players; the rule gives {expected}."
    ),
    "gokodom.check.br.unasked": _(
        "{player} has a Bye by Request without asking for one, or in the last Swiss round."
    ),
    "gokodom.check.br.paired": _("{player} asked for a Bye by Request but is paired."),
    "gokodom.check.absent": _(
        "{match_code} leaves {player} out as absent, but the round does not record the "
        "absence or the result is not an L, an LD or a BR."
    ),
    "gokodom.check.byes": _(
        "Round {number} has {count} assigned byes for {players} players to pair."
    ),
    # {players}: the two players, already joined ("p3 and p7")
    "gokodom.check.rematch": _(
        "{match_code} pairs {players} again although a pairing without a rematch exists."
    ),
    # {label}: the Swiss table's column as it is titled
    "gokodom.check.column": _("{player}: {label} {shown}; the results give {value}."),
    "gokodom.check.order": _(
        "{below} is below {above} with more match points, fewer defaults, a higher Solkoff or "
        "a higher cumulative score."
    ),
    "gokodom.check.seeds": _("The eight seeds are not in order of match points."),
    "gokodom.check.bracket": _(
        "{match_code} is seed {seed} against seed {against} ({wanted}); the record has {found}."
    ),
    "gokodom.check.feeds": _(
        "{match_code} is between the winners of {first} and {second}; the record has {found}."
    ),
}

# -- labels (rules/words.py, ``patterns``) ----------------------------------------------
LAST_SWISS_ROUND = _("Round {n} (last Swiss round)")
RESULT_IN_ROUND = _("Result in round {n}")  # the help of a standings column "R3"
EIGHTH_PLACE_PLAYOFF = _("Playoff for 8th place")
COIN_FLIP_PURPOSE = _("coin flip for seeding (III.A.7)")

LABELS: tuple[str, ...] = (LAST_SWISS_ROUND, RESULT_IN_ROUND)
