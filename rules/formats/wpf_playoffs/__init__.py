"""WPF GP Playoffs ("Swiss Elimination"), from /work/shared/formats/wpf_playoffs.txt.

Sixteen players, seeded by eligibility score, meet by rank on the document's fixed table
(schedule.py): a win by the worse rank swaps the two ranks, and after round H the ranks
are the finishing order. Rounds A-G are online (official time: submission time, 22:00 for a
wrong answer); heats 1-5 are live (the worse seed wins only under 10:00 and faster).

Engine rounds: 1-7 are online rounds A-G, 8-12 are live heats 1-5.

Entrant flags read: ``gp_scores`` (list of GP round scores) or ``gp_total`` (eligibility
score), ``attending`` (bool), ``gp_position`` (int, orders equal scores),
``puzzle_preferences`` (list of the online pool's puzzles, best first, or a mapping from
round letter to such a list).
Round details written: ``seeds`` (round 1: entrant ids in seed order, None for a virtual
bye), ``letter``, ``stage``, ``heat``, ``puzzle``, ``puzzle_picker``, ``puzzle_reversed``,
``puzzle_chooser``, ``puzzle_options``, ``results_public``. Round details read: ``seeds``,
``letter``, ``puzzle`` (on a live heat: the puzzle the rank 1 player chose).
Match details written: ``letter``, ``stage``, ``heat``, ``ranks``, ``hidden_until_reveal``;
read: ``judges_winner`` (seat index). Participant details: ``rank``, ``seed``, ``virtual``.
Game details read: ``submissions`` (per seat, a list of {"time": seconds, "correct": bool}).
Match score details: ``seeds``, ``stage``, ``public``, ``official_times``.
See docs/formats/wpf_playoffs.md.
"""

from .engine import ENGINE, WpfPlayoffsEngine

__all__ = ["ENGINE", "WpfPlayoffsEngine"]
