"""Bot contest: a seeding gauntlet, winners'/losers' brackets and a final round robin.

Rule document: bot_contest.txt; decisions in docs/formats/bot_contest.md.

Keys read and written:

- entrant flags: ``reference`` (true for the reference programs of the gauntlet).
- round details: ``board`` and ``board_source`` ("rotation" or "director") on every round;
  ``seeds`` (entrant ids in seed order) on the first round after the gauntlet;
  ``brackets`` ({"winners": [...], "losers": [...]}, at the start of a stage-two round);
  ``finalists`` on the final round.
- match details: ``seeds`` (the two seeds, in seat order) on bracket and final matches.
  ``bracket`` is "gauntlet", "winners", "losers" or "final".
- game details: ``board`` (checked against the round's board), ``result`` ("X", "O" or "tie",
  the referee's verdict; required when ``result_from`` is "referee" or the game did not end
  normally). ``GameState.first`` is the seat that moved first; by default seat 0 in game 1,
  seat 1 in game 2.
- recorded decisions (draw keys): ``seeding/tie-N`` (order of entries tied at place N of
  the gauntlet), ``board/round-N`` (the director's board for round N), ``final/winner``
  (the entrant id the director declares winner of a tied final).
"""

from rules.formats.bot_contest.engine import ENGINE, BotContestEngine

__all__ = ["ENGINE", "BotContestEngine"]
