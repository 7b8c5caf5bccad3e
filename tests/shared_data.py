"""Real records of ../shared/data/real, read at test time and never copied into the project.

The folder lives beside the project in this build. In a clone elsewhere it is absent: every
test that needs it skips, saying which file is missing; under CI=true it fails instead, since
CI must run them all. Every test that reads ../shared goes through ``real`` (or ``load``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real"
SAMPLE = REAL / "wof-archive-sample"
RAW = REAL / "raw"


def real(*parts: str) -> Path:
    """A path under ../shared/data/real; skip (fail under CI=true) when it is not there."""
    path = REAL.joinpath(*parts)
    if not path.exists():
        reason = f"the real data {path} is not here (it is kept beside the project, in ../shared)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}; CI runs every test that reads it")
        pytest.skip(reason)
    return path


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(real(name).read_text(encoding="utf-8"))
    return data


def sample_files() -> list[Path]:
    """Every file of the WOF archive sample, in year and name order."""
    return sorted(p for p in real("wof-archive-sample").rglob("*") if p.is_file())
