"""Sentences of the Freestyle engine (freestyle.txt; decisions in docs/formats/freestyle.md)."""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # settings and the field
    "freestyle.setting.max_entrants": _(
        "'max_entrants' must be a whole number of at least {minimum}: Round 2 needs four "
        "players from each of the four Round 1 groups."
    ),
    "freestyle.field_size": _(
        "A Freestyle tournament takes {minimum} to {maximum} players; {given} are entered."
    ),
    # a player not known (a place nobody is left to fill), inside another sentence
    "freestyle.nobody": _("nobody"),
    # the course of the event
    "freestyle.results_missing": _(
        "{round} is not finished: {matches} still need a result (a tie in the last two "
        "rounds is replayed)."
    ),
    "freestyle.finished": _("The final has been played: {name} wins the tournament."),
    "freestyle.advance": _("The top {count} go on to Round {next}."),
    "freestyle.advance.semi_finals": _("The top {count} go on to the semi-finals."),
    # absence: what it does to a knockout match ("Ann is absent: ..."), and why a group
    # round refuses it ("Ann marked absent: ...")
    "freestyle.absent.walkover": _("the match is lost by walkover"),
    "freestyle.absent.group_round": _(
        "a Freestyle group round is every game of the group, so a player who cannot play it "
        "leaves the event (freestyle.txt, Player withdrawals). Mark them present, or "
        "withdraw them."
    ),
    # Round 1 order and groups; {rating} is a number or freestyle.rating.none
    "freestyle.seed_order": _("Players listed by the seeds the director gave."),
    "freestyle.equal_rating": _("{names} have equal rating points ({rating}): ordered by lot."),
    "freestyle.rating.none": _("none"),
    "freestyle.snake": _(
        "Players listed by rating points fill groups B, Y, R, G by the table "
        "1, 8, 9, 16, 17, 24, 25 / 2, 7, 10, 15, ... (a snake of four)."
    ),
    # who is A; {parity} is freestyle.even or freestyle.odd
    "freestyle.round1_roles": _(
        "Seeds {high} and {low} add up to {total}, {parity}: seed {a} is A."
    ),
    "freestyle.even": _("even"),
    "freestyle.odd": _("odd"),
    "freestyle.higher_seed_chooses": _("Seed {high} is the higher seed and chooses to be A or B."),
    "freestyle.berger": _("Playing round {round} of the group (Berger tables)."),
    # the groupings of Rounds 2 and 3, drawn by digits
    "freestyle.digit_again": _("Digit {digit} drawn ({key}): it chooses no grouping, drawn again."),
    "freestyle.digit": _("Digit {digit} drawn ({key}): grouping {grouping} is used."),
    "freestyle.draw": _("No Round {round} grouping after many digits."),
    "freestyle.grouping.round2": _(
        "Grouping {grouping}: {groups}; the groups are T, E, B, S in that order."
    ),
    "freestyle.grouping.round3": _(
        "Grouping {grouping}: {groups}; the #1s are seeds 1 and 2, the #2s seeds 3 and 4."
    ),
    # seeding of a Round 3 pair or a final; {where} is one of freestyle.where.*
    "freestyle.seeded": _("{where}: {ahead_name} is seeded above {behind_name} ({detail})."),
    "freestyle.where.group": _("Group {group}"),
    "freestyle.where.final": _("Final"),
    "freestyle.where.third_place": _("Third place game"),
    # group ranking
    "freestyle.tiebreaker_game": _(
        "{names} are still tied for place {place} in Round {round}, {label}, after every "
        "ranking step: they play a tiebreaker game; record its winner."
    ),
    # semi-finals and finals
    "freestyle.semi_final": _(
        "{match}: the #1 of one Round 3 group ({high}) against the #2 of the other ({low}); "
        "the #1 is the higher seed and chooses to be A or B."
    ),
    "freestyle.no_opponent": _("{name} has no opponent left and goes through."),
    "freestyle.moved_up": _(
        "{name} withdrew after the semi-finals: {moved} moves up to the final."
    ),
    "freestyle.final": _("The winners of the two semi-finals play."),
    "freestyle.third_place": _("The losing players in the Semi-Finals play off for 3rd/4th place."),
    "freestyle.final_ranking": _(
        "1st and 2nd from the final, 3rd and 4th from the third place game."
    ),
    # scoring
    "freestyle.bye": _("No opponent: goes through without play."),
    "freestyle.players": _("A Freestyle game has two players."),
    "freestyle.one_game": _("Matches are one game, no rematch; {given} games were entered."),
    "freestyle.after_decision": _("Game {game} already had a winner; only a tie game is replayed."),
    "freestyle.replay": _("Tie game: it is replayed with the players switching A and B roles."),
    "freestyle.walkover": _("{names} withdrew: the opponent goes through."),
    "freestyle.void": _("{names} withdrew during the round: this game does not count."),
    "freestyle.both_absent": _("{names} are both absent: enter the game, or withdraw one of them."),
    "freestyle.absent_walkover": _("{names} was absent: the opponent goes through."),
    "freestyle.round1_choice": _(
        "In Round 1 the seeds decide who is A; there is no choice to record."
    ),
    "freestyle.choice": _("The higher seed chooses to be A or B; got {value!r}."),
    "freestyle.score_missing": _("Game {game}: enter the game points of both players."),
    "freestyle.score_negative": _("Game {game}: game points cannot be negative."),
    "freestyle.ending": _("Game {game}: a game between two players cannot end as a bye."),
    "freestyle.b_colours": _("Game {game}: B plays blue/red or yellow/green; got {value!r}."),
    "freestyle.piece": _("Game {game}: name the piece A chose, as text."),
    # the checker's findings (checker.py)
    "freestyle.check.met_again": _("{first} and {second} met in Round 2 and again in Round 3."),
    "freestyle.check.replay": _(
        "{match_code}: every game but the last must be a tie and the last decisive."
    ),
    "freestyle.check.rating_order": _(
        "{below} (rating {below_rating}) is listed below {above} (rating {above_rating})."
    ),
    "freestyle.check.snake": _(
        "{who}, number {number} of the rating list, belongs in group {expected}."
    ),
    "freestyle.check.group_seeds": _("Group {group} is not seeded in rating order."),
    "freestyle.check.parity": _("{match_code}: seeds {a} and {b} make seed {seed} A."),
    "freestyle.check.no_meeting": _("{first} and {second} do not meet in group {group}."),
    "freestyle.check.meet_twice": _(
        "{first} and {second} meet twice, or are not both in group {group}."
    ),
    "freestyle.check.chooser": _("{match_code}: the higher seed sits second."),
    "freestyle.check.grouping": _(
        "The digits {digits} choose grouping {chosen}; the record uses {grouping}."
    ),
    "freestyle.check.same_origin": _(
        "Group {group} takes two players from the same earlier group."
    ),
    "freestyle.check.semi_same_group": _(
        "{match_code} pairs two players of Round 3 group {group}."
    ),
    "freestyle.check.chain": _(
        "Round {number} group {group}: {below} is listed below {above}; the ranking steps put "
        "{below} higher."
    ),
    "freestyle.check.group_holds": _(
        "Group {group} of round {number} should hold {wanted} ({spec}); the record has {held}."
    ),
    "freestyle.check.semis": _(
        "{match_code} pairs {players}; the semi-finals are {first_one} v {second_two} and "
        "{second_one} v {first_two}, the #1 first."
    ),
    "freestyle.check.final_pair": _(
        "{match_code} is between {first} and {second}; the record has {recorded_first} and "
        "{recorded_second}."
    ),
    "freestyle.check.final_ranking": _(
        "The final ranking begins {begins}; the final and third-place game give {given}."
    ),
}

# -- labels built from a pattern (rules/words.py, ``patterns``) -------------------------
GROUP = _("Group {key}")
ROUND1_GROUP = _("Group {key} ({colour})")  # {colour}: Blue, Yellow, Red, Green
GROUP_TABLE = _("Round {n}, {label}")  # a group's standings table; {label}: its group
PRIOR_HEAD_TO_HEAD = _("Round {n} head-to-head wins")
PRIOR_WINS = _("Round {n} wins")
PRIOR_POINTS = _("Round {n} points difference")
PLACE_IN_ROUND = _("Place in Round {n}")
RANDOM_CALL = _("Random call")
RANDOM_CALL_CALLED = _("Random call (digit {key}, {name} called even)")
WON_CALL = _("won the call")
LOST_CALL = _("lost the call")
# what an outside draw is for, as the director reads it before typing the digit in
EQUAL_RATING_PURPOSE = _("order of players with equal rating {rating}")
GROUPING_RULE_2 = _("1 to 6 choose groupings 1 to 6; 0, 7, 8 and 9 are drawn again")
GROUPING_RULE_3 = _("1, 4, 7 choose grouping 1; 2, 5, 8 grouping 2; 3, 6, 9 grouping 3; 0 again")
GROUPING_PURPOSE = _("Round {n} grouping, attempt {attempt}: one digit from 0 to 9 ({rule}).")
GROUPING_PURPOSE_AGAIN = _(
    "Round {n} grouping, attempt {attempt}: one digit from 0 to 9 ({rule}); drawn before: "
    "{earlier}."
)
SEEDING_CALL_PURPOSE = _(
    "Round 3 group {group} seeding of the #{place}s: one digit from 0 to 9; {name} calls even "
    "(0 is even) and is seeded higher if it is even."
)
FINAL_CALL_PURPOSE = _(
    "Seeding call for the final: one digit from 0 to 9; {name} calls even (0 is even) and is "
    "seeded higher if it is even."
)
THIRD_PLACE_CALL_PURPOSE = _(
    "Seeding call for the third place game: one digit from 0 to 9; {name} calls even (0 is "
    "even) and is seeded higher if it is even."
)

LABELS: tuple[str, ...] = (
    GROUP,
    ROUND1_GROUP,
    GROUP_TABLE,
    PRIOR_HEAD_TO_HEAD,
    PRIOR_WINS,
    PRIOR_POINTS,
    PLACE_IN_ROUND,
    RANDOM_CALL_CALLED,
    EQUAL_RATING_PURPOSE,
    GROUPING_PURPOSE,
    GROUPING_PURPOSE_AGAIN,
    SEEDING_CALL_PURPOSE,
    FINAL_CALL_PURPOSE,
    THIRD_PLACE_CALL_PURPOSE,
)
