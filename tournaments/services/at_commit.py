"""What the view side builds inside a service's transaction, stored at its commit.

A round's release brings hundreds of visitors at its commit, before any task runs: what
they ask for first (the released round's part of the entrant book, the round's API
answer, then the placings of the standings that follow) is built inside the transaction
that makes its version and stored by the commit's first hook, before the commit's other
hooks move the event's stamp and tell the live pages (tournaments/views/release_warm.py).
The service makes an ``AtCommit`` and registers it first (``registered``), then, once its
writes are done, sends its signal (tournaments/signals.py) through ``prepare``: each
receiver answers a callable that stores what it built.

Only an optimisation, never the service's failure: a receiver that fails is logged, and
its savepoint (the receiver's own) leaves the transaction as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)


class AtCommit:
    """The stores a transaction's receivers answered, run at its commit (in order)."""

    def __init__(self) -> None:
        self.stores: list[Callable[[], None]] = []

    def prepare(self, signal: Signal, **named: Any) -> None:
        """Send ``signal`` (inside the transaction) and keep what its receivers answer."""
        for receiver, answer in signal.send_robust(sender=None, **named):
            if isinstance(answer, Exception):
                log.warning(
                    "%s failed before the commit",
                    getattr(receiver, "__qualname__", receiver),
                    exc_info=answer,
                )
            elif callable(answer):
                self.stores.append(answer)

    def __call__(self) -> None:
        for store in self.stores:
            try:
                store()
            except Exception:
                log.warning("a store at the commit failed", exc_info=True)
        self.stores.clear()


def registered() -> AtCommit:
    """An ``AtCommit`` registered now as the running transaction's next on_commit hook:
    made before the writes whose hooks move the event's stamp, it runs before them."""
    made = AtCommit()
    transaction.on_commit(made, robust=True)
    return made
