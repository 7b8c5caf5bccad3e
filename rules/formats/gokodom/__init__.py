"""GokoDom Season III: a Swiss qualifier with fixed Red/Blue colours and default rules, then
a three-round elimination among the top eight, each match 3 to 6 games seated A-B-B-A-A-B.

Keys this engine reads and writes (see docs/formats/gokodom.md for the full list):

Entrant flags
    ``colour``: "red" or "blue" (II.A), required.
    ``bye_requests``: list of Swiss round numbers the player asked a Bye by Request for (I.E);
    refused for the last Swiss round and later.
Round details (written when drafted)
    ``stage``: "swiss", "playoff" or "knockout"; ``initial_order`` (round 1): the drawn
    random order; ``order``: the Swiss order used; ``window``: the match-point window;
    ``requested_byes``; ``seeds`` (quarter-finals); ``bracket_round``; ``starts``/``ends``:
    ISO dates when ``first_round_start`` is set (a recorded ``ends`` moves the next start).
Match details
    ``result``: "WB" or "BR" on a bye; ``first_seat``: 0/1, the seat first in game 1 when
    drawn; ``unplayed``: true once the director marks the match unplayed; ``messages``: ids
    of the players who sent the TO a PM by the round's end; ``results``: {entrant id: code},
    results recorded by the director (overrides games); ``advances``: entrant id, the
    director's decision for an elimination match the rules leave open (3-3, or both PMs).
Draws
    ``initial-order``, ``round-N/random-order``, ``round-N/<code>/first-seat``,
    ``knockout/seeding-lot/<ids>`` (coin flips), and ``knockout/eighth-place`` (the
    director's choice "coin" or "playoff", stored like a draw).
"""

from __future__ import annotations

from .engine import ENGINE, GokodomEngine
from .results import Result, resolve_deadline, resolve_unplayed

__all__ = ["ENGINE", "GokodomEngine", "Result", "resolve_deadline", "resolve_unplayed"]
