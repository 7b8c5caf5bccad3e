"""The plain round robin by Berger tables (docs/formats/round_robin.md): the engine that
proves the contract end to end."""

from .engine import ENGINE, RoundRobinEngine

__all__ = ["ENGINE", "RoundRobinEngine"]
