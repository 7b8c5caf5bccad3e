"""Seeds and ranks: "If the player with the worse rank wins, then the two players swap
their ranks for the next round." Players are known here by seed (1-16), which also names
the virtual bye players."""

from __future__ import annotations

from dataclasses import dataclass, field

from .schedule import PLAYERS, MatchSpec


@dataclass(frozen=True)
class Played:
    session: int
    code: str
    opponent: int  # the opponent's seed
    won: bool
    rank_before: int
    rank_after: int

    @property
    def swapped(self) -> bool:
        return self.rank_before != self.rank_after


@dataclass
class Ladder:
    """``order[r - 1]`` is the seed holding rank ``r``. "At the start of the tournament,
    these two numbers are identical for each player"."""

    players: int = PLAYERS
    order: list[int] = field(default_factory=list)
    losses: dict[int, int] = field(default_factory=dict)
    history: dict[int, list[Played]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.order:
            self.order = list(range(1, self.players + 1))
            self.losses = dict.fromkeys(self.order, 0)
            self.history = {s: [] for s in self.order}

    def at(self, rank: int) -> int:
        return self.order[rank - 1]

    def rank_of(self, seed: int) -> int:
        return self.order.index(seed) + 1

    def pair(self, spec: MatchSpec) -> tuple[int, int]:
        """The seeds at the match's two ranks, better rank first."""
        return (self.at(spec.better), self.at(spec.worse))

    def play(self, spec: MatchSpec, winner: int, session: int) -> None:
        """Record ``winner`` (a seed at one of the match's ranks) as winning ``spec``."""
        upper, lower = self.pair(spec)
        if winner not in (upper, lower):
            raise ValueError(f"seed {winner} does not play {spec.code}")
        loser = lower if winner == upper else upper
        self.order[spec.better - 1] = winner
        self.order[spec.worse - 1] = loser
        self.losses[loser] += 1
        for seed, other, won in ((winner, loser, True), (loser, winner, False)):
            before = spec.better if seed == upper else spec.worse
            after = spec.better if won else spec.worse
            self.history[seed].append(Played(session, spec.code, other, won, before, after))
