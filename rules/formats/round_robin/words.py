"""Sentences of the plain round robin (engine.py): settings, the Berger schedule,
swaps, scoring and absences."""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # settings
    "round_robin.setting.tiebreaks": _("'tiebreaks' must be a list of names."),
    "round_robin.setting.tiebreak": _("'{key}' is not a tiebreak; choose from {allowed}."),
    "round_robin.setting.games": _("'games_per_match' must be 1 to 10."),
    # a hand swap in a draft round; {meets} is one of the three round_robin.swap.* below
    "round_robin.swap_after_round_1": _(
        "In a round robin every round follows the Berger table: {meets}. Swap players of "
        "different matches before round 1 is published (their draw numbers are exchanged "
        "for the whole table), or swap two opponents' seats."
    ),
    "round_robin.swap.leaves_order": _("{name} would leave the table's order for the rounds left"),
    "round_robin.swap.meets_again": _(
        "{name} would meet {opponent} in round {round} and again in round {again}"
    ),
    "round_robin.swap.off_again": _(
        "{name} would have the round off in round {round} and again in round {again}"
    ),
    # pairing
    "round_robin.too_few": _("A round robin needs two entrants."),
    "round_robin.late_entry": _("A round robin cannot take entrants after round 1: {names}."),
    "round_robin.finished": _("All {rounds} rounds of the round robin have been played."),
    # {first} and {second} are draw numbers (places in the Berger table), never entrant
    # numbers: said so, since the page shows entrant numbers beside them (issue 28, item 10)
    "round_robin.berger": _(
        "Berger table, round {round}: draw number {first} meets draw number {second}"
    ),
    "round_robin.berger.off": _(
        "Berger table, round {round}: draw number {first} has the round off"
    ),
    "round_robin.opponent_withdrawn": _("{name} has withdrawn: the round is off."),
    "round_robin.odd_field": _("Odd field: the round is off."),
    "round_robin.schedule": _("Round {round} of {rounds}"),
    "round_robin.schedule.cycle": _("Round {round} of {rounds} (cycle {cycle} of {cycles})"),
    # scoring; {has} and {entered} are the round_robin.games.* and round_robin.entered.*
    "round_robin.bye": _("A round off scores the bye points."),
    "round_robin.game_count": _("This match has {has}; {entered}."),
    "round_robin.games.one": _("1 game"),
    "round_robin.games.many": _("{count} games"),
    "round_robin.entered.one": _("1 was entered"),
    "round_robin.entered.many": _("{count} were entered"),
    "round_robin.score_missing": _("Game {game}: enter a score for both players."),
    "round_robin.score_negative": _("Game {game}: a score cannot be negative."),
    "round_robin.ending": _("Game {game}: a game between two players cannot end as a bye."),
    # absence: what it does to the game ("Ann is absent: ..."), then how it is scored
    "round_robin.absent.bye": _("the game is not played; the opponent has the round off"),
    "round_robin.absent.forfeit": _("the game is a forfeit, won by the opponent"),
    "round_robin.absent_bye": _("Not played: a player was absent."),
    "round_robin.absent_forfeit": _("Forfeit: the absent player loses the game."),
    "round_robin.absent_forfeit.games": _("Forfeit: the absent player loses the games."),
    "round_robin.absent_forfeit.both": _(
        "Forfeit: the absent player loses the game, and so does the other one (both absent)."
    ),
    "round_robin.absent_forfeit.both_games": _(
        "Forfeit: the absent player loses the games, and so does the other one (both absent)."
    ),
    # the checker's findings (checker.py)
    "round_robin.check.beyond": _("Round {number} is beyond the {rounds} rounds of the schedule."),
    "round_robin.check.berger_pair": _(
        "The Berger table pairs {first} and {second} in round {number} ({role} first); the "
        "record does not."
    ),
    "round_robin.check.berger_off": _(
        "The Berger table pairs {first} in round {number} (a round off); the record does not."
    ),
    "round_robin.check.not_berger": _(
        "Match {match_code} ({players}) is not in the Berger table for round {number}."
    ),
    "round_robin.check.meet_again": _("{first} and {second} meet again in the same cycle."),
    "round_robin.check.absent": _(
        "Match {match_code} marks {names} absent; the round's absent list or the match's "
        "players do not name them."
    ),
    "round_robin.check.draw_numbers": _(
        "The draw numbers of round 1 are not in the order the rule gives."
    ),
    "round_robin.check.games": _("Match {match_code} has {count} games; each match has {games}."),
    "round_robin.check.scores": _("Game {game} of {match_code} needs two scores of 0 or more."),
    "round_robin.check.game_bye": _(
        "Game {game} of {match_code} is between two players and cannot end as a bye."
    ),
    "round_robin.check.value": _("{who}'s {column} is {shown}; the record gives {value}."),
    "round_robin.check.order": _(
        "{above} (rank {above_rank}) and {below} (rank {below_rank}) are not in the order "
        "their points and tiebreaks give."
    ),
}

# the tiebreaks setting's help, with the names of the tiebreaks (setting values)
TIEBREAKS_HELP = _("Tiebreaks after points, in order: {keys}.")

LABELS: tuple[str, ...] = (TIEBREAKS_HELP,)
