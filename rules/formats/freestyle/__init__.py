"""Freestyle tournaments (freestyle.txt): the engine and a simulation helper."""

from rules.formats.freestyle.engine import ENGINE, FreestyleEngine
from rules.formats.freestyle.simulate import simulate_event

__all__ = ["ENGINE", "FreestyleEngine", "simulate_event"]
