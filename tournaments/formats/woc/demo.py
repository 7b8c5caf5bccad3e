"""The WOC demo event for `make run` (tournaments/demo.py collects each format's)."""

from __future__ import annotations

from tournaments.demo import simulated_demo

build = simulated_demo("woc", 20, 7, "Demo World Othello Championship (modified Swiss)")
