"""The Freestyle demo event for `make run` (tournaments/demo.py collects each format's)."""

from __future__ import annotations

from tournaments.demo import simulated_demo

build = simulated_demo("freestyle", 28, 2, "Demo Freestyle (groups, semis, final)")
