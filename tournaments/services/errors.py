"""Errors the services raise; each carries the words a director reads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.contract import Problem
from tournaments.words import sentence


class ServiceError(Exception):
    """An action that cannot be done as asked; ``problems`` say why, field by field."""

    def __init__(self, problems: Sequence[Problem] | str):
        if isinstance(problems, str):
            problems = [Problem("error", "", problems)]
        self.problems = tuple(problems)
        super().__init__(" ".join(p.text for p in self.problems))

    @property
    def messages(self) -> list[str]:
        """The problems in the reader's language (the exception's own text is English)."""
        return [sentence(p) for p in self.problems]


class InvalidResult(ServiceError):
    pass


class StaleResult(ServiceError):
    """Someone saved this match since the form was read: the user must choose."""

    def __init__(self, current_version: int, current: Any):
        self.current_version = current_version
        self.current = current
        super().__init__(
            "Someone else saved a result for this match since you opened it. "
            "Check their result and save again if yours is right."
        )


class NotAllowed(ServiceError):
    pass
