"""Sentences of the WPF GP Playoffs engine, by code (rules/words.py).

Parameters are shown as given: scores and times already written (``"412.5"``, ``"9:58.4"``),
entrant names, match codes and round labels.
"""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # settings
    "wpf.setting.puzzles": _("A puzzle is listed twice."),
    "wpf.setting.count": _("'{key}' must be 1 or more."),
    "wpf.setting.top": _("'eligible_top' cannot be under 16."),
    # eligibility and seeds
    "wpf.gp_scores": _(
        "{name}: the GP round scores must be a list of numbers that are not negative."
    ),
    "wpf.gp_total": _("{name}: the eligibility score must be a number that is not negative."),
    "wpf.no_score": _("{name} has no GP round scores and no eligibility score."),
    "wpf.not_top": _(
        "Eligibility score {score} is not one of the top {top} (the {top}th is {cut})."
    ),
    "wpf.not_attending": _("Did not say they will be present at the live finals."),
    "wpf.seed_lot": _("Eligibility score {score} is shared; the order was drawn."),
    "wpf.seed": _("Seed {seed}: eligibility score {score}."),
    "wpf.not_invited": _("Eligible, but not among the {players} highest eligibility scores."),
    "wpf.virtual_byes": _(
        "Only {invited} eligible players: seeds {first}-{players} are virtual bye players, "
        "who lose every match."
    ),
    "wpf.virtual_byes.one": _(
        "Only 1 eligible player: seeds 2-{players} are virtual bye players, who lose every match."
    ),
    "wpf.virtual_byes.last": _(
        "Only {invited} eligible players: seed {first} is a virtual bye player, who loses "
        "every match."
    ),
    "wpf.nobody": _("No player is eligible for the playoffs."),
    # rounds and matches
    "wpf.finished": _("All eight rounds have been played: the ranks are the finishing order."),
    # {round} is the round's label ("Round B", "Heat 1 (round F, live)")
    "wpf.incomplete": _("{round} is not complete."),
    # {bracket} is one of wpf.bracket.*
    "wpf.table": _("Match {match}: rank {better} against rank {worse}, {bracket}."),
    "wpf.bracket_misfit": _(
        "The players have lost {lost} and {other_lost} matches, which does not fit the {bracket}."
    ),
    "wpf.bracket.winners": _("Winner's Bracket"),
    "wpf.bracket.losers": _("Loser's Bracket"),
    "wpf.bracket.placement": _("Placement Bracket"),
    "wpf.bracket.championship": _("Championship"),
    # the outcome of "{name} is absent: {outcome}." (words_common "absent")
    "wpf.absent_bye": _('the match is lost, as a "bye" player loses all head-to-head competitions'),
    "wpf.wrong_players": _(
        "Match {match} is for ranks {better} and {worse}, but other players were entered."
    ),
    # puzzles
    "wpf.live_pick": _("The rank 1 player chooses round {letter}'s puzzle."),
    "wpf.preference_list": _(
        "{name}: a preference list must name each of the {count} puzzles of the pool exactly once."
    ),
    "wpf.random_list": _(
        "No player submitted a preference list: a randomly generated list is used."
    ),
    # {bracket} is one of wpf.pick_bracket.*
    "wpf.pick_priority": _(
        "Seed {seed} (rank {rank}, {bracket} bracket) has the highest pick priority."
    ),
    "wpf.pick_bracket.winners": _("winners"),
    "wpf.pick_bracket.losers": _("losers"),
    "wpf.pick_bracket.placement": _("placement"),
    "wpf.reversed": _(
        "The picker has the highest rank in the Winner's Bracket in round {letter}: the "
        "preference list is reversed."
    ),
    "wpf.puzzle": _("Round {letter} uses {puzzle}."),
    "wpf.puzzle_fixed": _("Round {letter} uses {puzzle}, fixed in advance."),
    # results
    "wpf.code": _("{match} is not a match of the playoffs."),
    "wpf.players": _("Match {match} needs two players."),
    "wpf.seed_unknown": _("Match {match}: a player has no seed."),
    "wpf.bye": _('A "bye" player is seeded worst and loses all head-to-head competitions.'),
    "wpf.bye.both": _(
        'A "bye" player is seeded worst and loses all head-to-head competitions. '
        "Both are byes: the better seed wins."
    ),
    "wpf.judges": _("Judges' decisions are final."),
    "wpf.scores": _("Enter an official time for each player."),
    "wpf.time": _("{name}: a time is negative."),
    "wpf.online_time": _(
        "{name}: an online official time is a solving time up to 20:00, or 22:00 for an "
        "incorrect answer."
    ),
    "wpf.submissions": _("Enter the submissions of both players."),
    "wpf.submission": _(
        "{name}: each submission needs a time in seconds (not negative) and whether it was correct."
    ),
    "wpf.online_late": _("{name}: a submission at {time} is after the end of the 20-minute round."),
    "wpf.after_correct": _(
        "{name}: a submission was entered after a correct answer; the match stops at the "
        "first correct answer."
    ),
    "wpf.faster": _("Faster official time: {time} against {other}."),
    "wpf.tie_seed": _("Equal official times ({time}): the better seed ({seed}) wins."),
    "wpf.live_worse_seed": _(
        "The worse seed ({seed}) solved in {time}, under 10:00 and faster against {other}."
    ),
    "wpf.live_worse_seed.alone": _(
        "The worse seed ({seed}) solved in {time}, under 10:00 and faster, the other did not."
    ),
    # {why} is one of wpf.live_better_seed.*
    "wpf.live_better_seed": _("The better seed ({seed}) wins: {why}."),
    "wpf.live_better_seed.no_solve": _("the worse seed did not solve"),
    "wpf.live_better_seed.not_under": _("the worse seed's {time} is not under 10:00"),
    "wpf.live_better_seed.not_faster": _("the worse seed's {time} is not faster than {other}"),
    "wpf.live_better_seed.equal": _("equal times ({time})"),
    # standings
    "wpf.hidden": _(
        "Online results are not public until they are presented at the start of the live stage."
    ),
    # why a player holds their rank; {kept}: the matches since, "A1, B1"
    "wpf.rank.seed": _("Rank {rank} is the initial seed."),
    "wpf.rank.seed_kept": _("Rank {rank} is the initial seed; kept in {kept}."),
    "wpf.rank.won": _(
        "Rank {rank} since {match}: won as rank {before} against {opponent}, and the two "
        "swapped ranks."
    ),
    "wpf.rank.won_kept": _(
        "Rank {rank} since {match}: won as rank {before} against {opponent}, and the two "
        "swapped ranks; kept in {kept}."
    ),
    "wpf.rank.lost": _(
        "Rank {rank} since {match}: lost as rank {before} to {opponent}, and the two swapped ranks."
    ),
    "wpf.rank.lost_kept": _(
        "Rank {rank} since {match}: lost as rank {before} to {opponent}, and the two "
        "swapped ranks; kept in {kept}."
    ),
    # the checker's findings (checker.py); {bracket} is one of wpf_playoffs.check.bracket.*,
    # a missing player wpf_playoffs.check.virtual_bye or wpf_playoffs.check.nobody
    "wpf_playoffs.check.bracket.winners": _("winners"),
    "wpf_playoffs.check.bracket.losers": _("losers"),
    "wpf_playoffs.check.bracket.placement": _("placement"),
    "wpf_playoffs.check.bracket.championship": _("championship"),
    "wpf_playoffs.check.virtual_bye": _("a virtual bye"),
    "wpf_playoffs.check.nobody": _("nobody"),
    "wpf_playoffs.check.beyond": _("Round {number} is beyond the playoff's table."),
    "wpf_playoffs.check.not_a_match": _("{match_code} is not a match of this round."),
    "wpf_playoffs.check.missing": _("Match {match_code} (ranks {better} and {worse}) is missing."),
    "wpf_playoffs.check.pairs": _(
        "{match_code} pairs ranks {better} and {worse}: {first} and {second}; the record seats "
        "{seated}."
    ),
    "wpf_playoffs.check.bracket": _(
        "{match_code} is in the {bracket} bracket; the record says {recorded}."
    ),
    "wpf_playoffs.check.losses": _(
        "{match_code} is a {bracket} match but its players have lost {better_lost} and "
        "{worse_lost} matches."
    ),
    "wpf_playoffs.check.seeds": _(
        "The seed list is not the 16 eligible players with the highest scores (virtual byes last)."
    ),
    "wpf_playoffs.check.gp_position": _(
        "{who} is seeded {seed} below {above} on the same score with a better GP position."
    ),
    "wpf_playoffs.check.higher_score": _(
        "{who} is seeded {seed} below {above} with a higher eligibility score."
    ),
    "wpf_playoffs.check.rank": _("Rank {rank} belongs to {holder}; the standings show {shown}."),
    "wpf_playoffs.check.lost": _("{who} has lost {lost} matches; the standings show {shown}."),
}

# -- labels (rules/words.py, ``patterns``) ----------------------------------------------
ONLINE_ROUND = _("Round {n} (online)")  # an online round of a letter also played live
HEAT = _("Heat {heat} (round {letter}, live)")
NO_SOLVE = _("no solve")  # in a match's summary: "9:58.4 - no solve"
# why one rank is above the next: the match between them
WON = _("won {match}")
WON_SWAPPED = _("won {match} (ranks swapped)")
TIED_SCORE_PURPOSE = _("order of players tied on eligibility score {score}")
RANDOM_LIST_PURPOSE = _("random preference list for round {letter}")

LABELS: tuple[str, ...] = (
    ONLINE_ROUND,
    HEAT,
    _("{time} - no solve"),
    _("no solve - {time}"),
    WON,
    WON_SWAPPED,
    TIED_SCORE_PURPOSE,
    RANDOM_LIST_PURPOSE,
)
