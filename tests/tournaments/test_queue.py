"""Services send tasks by name (services/queue.py), without importing the task modules."""

import subprocess
import sys

import pytest

from tournaments.services import queue


def test_a_process_that_never_imported_the_tasks_finds_them_by_name():
    # a web process: nothing has imported tournaments.tasks when a service first sends one
    code = (
        "import sys, django; django.setup()\n"
        "from tournaments.services import queue, standings, reports\n"
        "assert 'tournaments.tasks' not in sys.modules, 'imported early'\n"
        "print(queue.task('tournaments.tasks.build_report').name)\n"
        "print(queue.task('tournaments.tasks_gokodom.close_due_rounds').name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "tournaments.tasks.build_report",
        "tournaments.tasks_gokodom.close_due_rounds",
    ]


def test_send_runs_the_registered_task_eagerly_in_tests(monkeypatch):
    from tournaments import tasks

    calls = []
    monkeypatch.setattr(tasks.notifications, "deliver", lambda ids: calls.append(ids) or 0)
    queue.send("tournaments.tasks.send_notifications", [7, 8])
    assert calls == [[7, 8]]
    assert queue.runs_eagerly()


def test_an_unknown_task_name_is_an_error_not_a_silent_drop():
    with pytest.raises(KeyError):
        queue.task("tournaments.tasks.no_such_task")
