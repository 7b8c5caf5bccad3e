"""Tasks sent by their registered name, so that no service imports a task module.

The task modules (tournaments/tasks.py, tournaments/formats/gokodom/tasks.py) import the
services they call; a service importing them back would make an import cycle
(tests/test_import_graph.py forbids it). The task object is looked up in the Celery app's
registry, so ``apply_async`` behaves exactly as before: eager under ``task_always_eager``
(the tests), sent to the broker otherwise.
"""

from __future__ import annotations

from typing import Any

from celery import Task, current_app


def task(name: str) -> Task[Any, Any]:
    """The registered task ``name`` (e.g. "tournaments.tasks.build_report")."""
    app = current_app
    if name not in app.tasks:
        # A process that has not loaded its task modules yet (a web process: only a worker
        # imports them at start). This imports the autodiscovered tasks.py and
        # CELERY_IMPORTS, once.
        app.loader.import_default_modules()
    return app.tasks[name]


def send(name: str, *args: Any, **options: Any) -> Any:
    """``apply_async`` of the task ``name`` with ``args``; one attempt at the broker
    (retry=False): the callers leave a task that cannot be sent to their sweep."""
    return task(name).apply_async(args, retry=False, **options)


def runs_eagerly() -> bool:
    """True when tasks run in-process (no worker: tests, or no Redis configured)."""
    return bool(current_app.conf.task_always_eager)
