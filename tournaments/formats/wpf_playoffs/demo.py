"""The WPF playoffs demo event for `make run` (tournaments/demo.py collects each format's)."""

from __future__ import annotations

from tournaments.demo import simulated_demo

build = simulated_demo("wpf_playoffs", 16, 5, "Demo WPF Grand Prix playoffs")
