"""Sentences of contention (rules/contention/): the reason of each verdict.

A verdict's code is ``contention.<goal>.<status>.<why>`` (types.verdict reads the status from
it), and its sentence starts with the status ("clinched: ..."), as the pages show it. The same
sentence under a win code and a stage code is one sentence to translate.
"""

from __future__ import annotations

from rules.words import gettext_noop as _

WORDS: dict[str, str] = {
    # What a verdict is about, said inside it ("can still {target}"); also the stage's name.
    "contention.target.first": _("finish first"),
    "contention.target.round_2": _("reach Round 2"),
    "contention.target.round_3": _("reach Round 3"),
    "contention.target.semi_finals": _("reach the semi-finals"),
    "contention.target.top_8": _("reach the quarter-finals (top 8)"),
    "contention.target.final": _("reach the final"),
    # What the points bound counts ({unit}), and what is left to play ({left}).
    "contention.unit.points": _("points"),
    "contention.unit.match_points": _("match points"),
    "contention.unit.wins": _("wins"),
    "contention.left.round": _("in the {rounds} round left"),
    "contention.left.rounds": _("in the {rounds} rounds left"),
    "contention.left.group": _("in the group's games left"),
    # The points bound (bounds.py), for either goal.
    "contention.win.eliminated.withdrawn": _("eliminated: withdrawn from the event"),
    "contention.stage.eliminated.withdrawn": _("eliminated: withdrawn from the event"),
    "contention.win.clinched.points": _(
        "clinched: no one else can reach {low_shown} {unit} {left}"
    ),
    "contention.stage.clinched.points": _(
        "clinched: no one else can reach {low_shown} {unit} {left}"
    ),
    "contention.win.clinched.points.one_other": _(
        "clinched: only {rivals} other can reach {low_shown} {unit} {left}, with {places} places"
    ),
    "contention.stage.clinched.points.one_other": _(
        "clinched: only {rivals} other can reach {low_shown} {unit} {left}, with {places} places"
    ),
    "contention.win.clinched.points.others": _(
        "clinched: only {rivals} others can reach {low_shown} {unit} {left}, with {places} places"
    ),
    "contention.stage.clinched.points.others": _(
        "clinched: only {rivals} others can reach {low_shown} {unit} {left}, with {places} places"
    ),
    "contention.win.eliminated.points.one": _(
        "eliminated: {ahead} entrant already has more than the {high_shown} {unit} {name} can "
        "still reach {left}"
    ),
    "contention.stage.eliminated.points.one": _(
        "eliminated: {ahead} entrant already has more than the {high_shown} {unit} {name} can "
        "still reach {left}"
    ),
    "contention.win.eliminated.points": _(
        "eliminated: {ahead} entrants already have more than the {high_shown} {unit} {name} can "
        "still reach {left}"
    ),
    "contention.stage.eliminated.points": _(
        "eliminated: {ahead} entrants already have more than the {high_shown} {unit} {name} can "
        "still reach {left}"
    ),
    "contention.win.alive.points": _(
        "alive: can finish with {low_shown} to {high_shown} {unit} {left}"
    ),
    "contention.stage.alive.points": _(
        "alive: can finish with {low_shown} to {high_shown} {unit} {left}"
    ),
    # Every outcome of the games left (exact.py), for either goal.
    "contention.win.clinched.enumerated.one": _(
        "clinched: {name} will {target} in the only outcome of the games left"
    ),
    "contention.stage.clinched.enumerated.one": _(
        "clinched: {name} will {target} in the only outcome of the games left"
    ),
    "contention.win.clinched.enumerated": _(
        "clinched: {name} will {target} in all {outcomes} outcomes of the games left"
    ),
    "contention.stage.clinched.enumerated": _(
        "clinched: {name} will {target} in all {outcomes} outcomes of the games left"
    ),
    "contention.win.eliminated.enumerated": _(
        "eliminated: {name} cannot {target} in any of the {outcomes} outcomes of the games left"
    ),
    "contention.stage.eliminated.enumerated": _(
        "eliminated: {name} cannot {target} in any of the {outcomes} outcomes of the games left"
    ),
    "contention.win.alive.enumerated": _(
        "alive: {name} can {target} in {reach} of the {outcomes} outcomes of the games left"
    ),
    "contention.stage.alive.enumerated": _(
        "alive: {name} can {target} in {reach} of the {outcomes} outcomes of the games left"
    ),
    "contention.win.alive.enumerated.open": _(
        "alive: {name} can {target} in {reach} of the {outcomes} outcomes of the games left "
        "({open} more left to a tiebreak on scores, a lot or a tiebreaker game)"
    ),
    "contention.stage.alive.enumerated.open": _(
        "alive: {name} can {target} in {reach} of the {outcomes} outcomes of the games left "
        "({open} more left to a tiebreak on scores, a lot or a tiebreaker game)"
    ),
    # A single elimination or a final, in the formats that have one.
    "contention.win.clinched.champion": _("clinched: won the final"),
    "contention.win.eliminated.final": _("eliminated: finished {rank}"),
    # Reaching the next stage decides the win (freestyle, woc).
    "contention.win.eliminated.stage": _("eliminated: cannot {target}"),
    "contention.win.alive.stage": _("alive: can still {target}"),
    # The WPF ladder (brackets.py): its FINAL is a name of the rules.
    "contention.win.clinched.champion.wpf": _("clinched: won the FINAL"),
    "contention.win.eliminated.two_losses": _(
        "eliminated: {losses} losses: in the Placement Bracket, out of reach of the FINAL"
    ),
    "contention.win.alive.losses.one": _(
        "alive: {losses} loss: winning every match left wins the FINAL"
    ),
    "contention.win.alive.losses": _(
        "alive: {losses} losses: winning every match left wins the FINAL"
    ),
    # The bot contest's brackets and final (brackets.py).
    "contention.win.eliminated.bracket": _("eliminated: two losses in the double elimination"),
    "contention.stage.eliminated.bracket": _("eliminated: two losses in the double elimination"),
    "contention.win.eliminated.not_finalist": _("eliminated: not in the final"),
    "contention.stage.eliminated.not_finalist": _("eliminated: not in the final"),
    "contention.stage.clinched.finalist": _("clinched: plays the final"),
    "contention.win.alive.finalist": _("alive: plays the final"),
    "contention.win.alive.bracket": _("alive: still in a bracket"),
    "contention.stage.alive.losers_match": _(
        "alive: a loss in the losers' bracket match left eliminates; a win or a tie keeps it in"
    ),
    "contention.stage.clinched.places": _(
        "clinched: {entries} entries left in the brackets for {places} places in the final: "
        "the losers' bracket plays no more, so no loss can put this entry out"
    ),
    "contention.stage.clinched.winners_done": _(
        "clinched: the winners' bracket is down to {winners} (2K is {quota}) and plays no "
        "more: its entries play the final"
    ),
    "contention.stage.alive.winners": _(
        "alive: {entries} entries left for {places} places in the final: winning every match "
        "left reaches it, a loss in the winners' bracket and one in the losers' would not"
    ),
    "contention.stage.alive.losers": _(
        "alive: {entries} entries left for {places} places in the final: the losers' bracket "
        "can play again, and a loss in it eliminates"
    ),
    # Freestyle (rules/formats/freestyle/contention.py): {table} is the group's table title.
    "contention.stage.alive.tiebreaker": _(
        "alive: tied at place {rank} of {table}: a tiebreaker game decides who goes on"
    ),
    "contention.stage.clinched.group": _("clinched: qualified from {table}"),
    "contention.stage.eliminated.group": _("eliminated: out of {table}"),
    "contention.win.eliminated.earlier": _("eliminated: out in an earlier round"),
    "contention.stage.eliminated.earlier": _("eliminated: out in an earlier round"),
    "contention.win.clinched.no_opponent": _(
        "clinched: no opponent left for the final: goes through"
    ),
    "contention.win.alive.moved_up": _("alive: moves up to the final (the winner withdrew)"),
    "contention.win.alive.unbeaten": _("alive: not beaten in the knockout"),
    "contention.win.alive.not_started": _("alive: the event has not started"),
    "contention.win.eliminated.beaten": _("eliminated: out of the knockout"),
    # GokoDom (rules/formats/gokodom/contention.py).
    "contention.win.eliminated.quarter_finals": _("eliminated: cannot reach the quarter-finals"),
    "contention.win.alive.quarter_finals": _(
        "alive: can still reach the quarter-finals and win them"
    ),
    "contention.win.eliminated.knocked_out": _("eliminated: lost in the elimination"),
    "contention.win.alive.unbeaten.elimination": _(
        "alive: not beaten yet in the single elimination"
    ),
    "contention.win.eliminated.not_qualified": _("eliminated: not in the top eight"),
    "contention.stage.clinched.seeded": _("clinched: seeded into the quarter-finals"),
    "contention.stage.alive.playoff": _("alive: plays the 8th-place playoff"),
    "contention.stage.clinched.qualified": _("clinched: in the top eight of the Swiss"),
    "contention.stage.eliminated.swiss_rank": _("eliminated: outside the top eight"),
    # The World Othello Championship (rules/formats/woc/contention.py).
    "contention.win.alive.semi_finals": _(
        "alive: can still reach the semi-finals and win from there"
    ),
    "contention.win.eliminated.list": _("eliminated: not among the four semi-finalists"),
    "contention.stage.eliminated.list": _("eliminated: not among the four semi-finalists"),
    "contention.stage.clinched.semi_finalist": _("clinched: plays the semi-finals"),
    "contention.win.eliminated.beaten.final_stages": _(
        "eliminated: beaten in the semi-finals or final"
    ),
    "contention.win.alive.unbeaten.final_stages": _("alive: not beaten in the final stages"),
}
