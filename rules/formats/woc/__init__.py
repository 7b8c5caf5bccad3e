"""World Othello Championship (woc.txt): the engine is in engine.py; see docs/formats/woc.md.

Keys this format reads and writes:

Entrant flags
  ``group_a``          II.6.1: played a semi-final in the previous ten WOCs (round 1 draw).
  ``host_additional``  II.2: the host's designated additional player (plays only if the field
                       would otherwise be odd).

Game details (seat 0 is Black, 1 White; a seat may be given as 0/1 or "black"/"white")
  ``defaulter``    who resigned (resignation), lost on time first (time_default) or did not
                   play (forfeit/default).
  ``second_flag``  time_default only: "defaulter" (his flag fell again: 64-0) or
                   "non_defaulter" (the other flag fell after the two extra minutes: 33-31).
  ``declared``     optional "black"/"white"/"draw" as the judge declared it; checked.
  ``decided``      "black"/"white"/"draw": the result a record gives where the discs do not
                   decide it (a WOF file's result without discs, or '(32)>(32)' in a file
                   written winner first); the discs stand as written (none: 0-0).
  ``record_index`` the game's place among a record's added results (a WOF file's order).
  ``penalty``      V.2(b, c): {"kind": "score", "scores": [b, w], "offender": seat,
                   "note": str} | {"kind": "award", "to": seat} | {"kind": "draw"}.

Round details written on round 1: ``field``, ``system``, ``rounds`` and, for a round robin,
``draw_numbers``; an imported record adds ``source`` (a WOF file's header as read, the program
that first made it, whether its rounds were formed: docs/formats/wof-file.md).

Entrant flags written by the WOF import: ``wof`` = {``name``, ``first``: NAME and Firstname as
read; ``new``; ``bonus``: points the list adds; ``listed``: false for a player known only from
the games; ``no_id``: listed as '??????'}.

Match details written: ``pairing_cost`` (rule -> cost, Swiss rounds 2+).
Row details: ``brightwell`` (the parts of BQ), ``games``, ``byes``.
Draw keys: ``round-robin/draw-numbers``, ``round-1/group-a``, ``round-1/group-b``,
``round-1/rest``, ``standings/lot/<ids joined by +>`` (value: the tied ids, best first).
"""

from rules.formats.woc.engine import WocEngine

ENGINE = WocEngine()

__all__ = ["ENGINE", "WocEngine"]
