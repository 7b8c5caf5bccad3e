"""The programming contest demo for `make run` (tournaments/demo.py collects each format's)."""

from __future__ import annotations

from tournaments.demo import simulated_demo

build = simulated_demo("bot_contest", 12, 4, "Demo programming contest finals")
