"""The GokoDom demo event for `make run` (tournaments/demo.py collects each format's)."""

from __future__ import annotations

from tournaments.demo import simulated_demo

build = simulated_demo("gokodom", 24, 3, "Demo GokoDom league (Swiss, then top 8)")
