"""Real servers for the reliability proofs: a private Redis on a free port, gunicorn, a
Celery worker and beat, pointed at the database the caller names, and a small HTTP client
that acts as a signed-in user. Shared by tests/reliability (short runs, in CI) and
bench/reliability.py (`make bench-reliability`, full size).

    with Stack(database_url(connection.settings_dict)) as stack:
        base = stack.gunicorn()              # http://127.0.0.1:<port>
        stack.worker(); stack.beat()
        stack.stop_redis(); ...; stack.start_redis()   # refused, then back (empty)

Each process runs in a session of its own and is killed with its children when the stack
closes, whatever happened in between. The private Redis keeps nothing on disk (as in
production, docs/operations.md) and is never the shared one: stopping it harms nobody.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(settings_dict: Mapping[str, Any]) -> str:
    """A Django DATABASES entry (PostgreSQL) as the DATABASE_URL another process reads."""
    auth = quote(settings_dict.get("USER") or "")
    if settings_dict.get("PASSWORD"):
        auth += ":" + quote(settings_dict["PASSWORD"])
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{settings_dict['NAME']}"


def wait_for(predicate: Callable[[], bool], timeout: float, what: str, step: float = 0.05) -> float:
    """Seconds until ``predicate()`` held; AssertionError naming ``what`` after ``timeout``."""
    started = time.monotonic()
    while True:
        if predicate():
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(step)


def missing() -> list[str]:
    """What the stack needs and this machine lacks (the tests skip locally, fail in CI)."""
    return [f"{tool} on the PATH" for tool in ("redis-server",) if not shutil.which(tool)]


class Process:
    """One server, in a process group of its own; its output goes to a log file."""

    def __init__(self, name: str, args: list[str], env: Mapping[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        with log.open("ab") as out:
            self.popen = subprocess.Popen(
                args, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole group (a worker's pool children too); -9 is a crash."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, sig)
        if sig == signal.SIGKILL:
            self.popen.wait(10)

    def stop(self, grace: float = 10) -> None:
        if self.alive:
            self.kill(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(grace)
        self.kill(signal.SIGKILL)  # children that outlived their parent, too

    def tail(self, lines: int = 30) -> str:
        try:
            text = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(text[-lines:])


class Stack:
    """A private Redis and the app's processes against ``database``; a context manager that
    always kills what it started."""

    def __init__(self, database: str, **env: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="arbiter-stack-"))
        self.prefix = f"stack-{uuid.uuid4().hex[:8]}"
        self.processes: list[Process] = []
        self.redis_port = free_port()
        self._redis: Process | None = None
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database,
            "REDIS_URL": self.redis_url,
            "ARBITER_CACHE_PREFIX": self.prefix,
            "CELERY_QUEUE": os.environ.get("CELERY_QUEUE", "celery"),
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "ARBITER_VAR_DIR": str(self.dir / "var"),
            "ARBITER_PRODUCTION": "0",  # plain HTTP on loopback
            "DJANGO_DEBUG": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "ARBITER_BACKUP_EVERY_MINUTES": "0",  # beat sends the sweeps only
            "PYTHONUNBUFFERED": "1",
            **env,
        }

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    # -- Redis -------------------------------------------------------------------------------

    def start_redis(self) -> None:
        """Start (or start again, empty) the private Redis on its port."""
        self._redis = self._start(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.dir)],
        )  # fmt: skip
        wait_for(self.redis_answers, 20, "the private Redis to answer")

    def stop_redis(self) -> None:
        """Kill the private Redis: its port refuses connections until start_redis()."""
        if self._redis is not None:
            self._redis.kill()
            self.processes.remove(self._redis)
            self._redis = None

    def redis_answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    # -- the app ------------------------------------------------------------------------------

    def gunicorn(self, wsgi: str = "config.wsgi:application", workers: int = 2, **env: str) -> str:
        """Serve ``wsgi`` on a free port; returns the base URL once /healthz answers."""
        port = free_port()
        proc = self._start(
            f"gunicorn-{port}",
            [sys.executable, "-m", "gunicorn", wsgi, "-b", f"127.0.0.1:{port}",
             "-w", str(workers), "--timeout", "120", "--log-level", "warning"],
            **env,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"

        def up() -> bool:
            if not proc.alive:
                raise AssertionError(f"gunicorn exited:\n{proc.tail()}")
            try:
                return Browser(base).get("/healthz")[0] == 200
            except OSError:
                return False

        wait_for(up, 60, "gunicorn to answer", step=0.2)
        return base

    def worker(self, name: str = "worker", **env: str) -> Process:
        return self._start(
            name,
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--concurrency=1", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "--loglevel=WARNING", "-n", f"{name}-{self.prefix}@%h"],
            **env,
        )  # fmt: skip

    def beat(self, **env: str) -> Process:
        return self._start(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING",
             "-s", str(self.dir / "beat-schedule")],
            **env,
        )  # fmt: skip

    def _start(self, name: str, args: list[str], **env: str) -> Process:
        proc = Process(name, args, {**self.env, **env}, self.dir / f"{name}.log")
        self.processes.append(proc)
        return proc

    def logs(self, lines: int = 20) -> str:
        return "\n".join(f"--- {p.name}\n{p.tail(lines)}" for p in self.processes)

    def close(self) -> None:
        for proc in reversed(self.processes):
            proc.stop()
        self.processes.clear()
        self._redis = None
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Stack:
        try:
            self.start_redis()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- a signed-in user's browser over real HTTP -------------------------------------------------


def session_of(user: Any) -> str:
    """A session for ``user`` in the database the servers read (no password hash paid)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Browser:
    """Requests as a browser sends them: the session cookie, and a CSRF secret of our own as
    cookie and header (what Django accepts from htmx). One connection per request: gunicorn's
    sync workers close each one."""

    def __init__(self, base: str, session: str = "") -> None:
        host, port = base.removeprefix("http://").split(":")
        self.address = (host, int(port))
        self.csrf = uuid.uuid4().hex  # 32 characters: a CSRF secret
        self.cookies = f"csrftoken={self.csrf}" + (f"; sessionid={session}" if session else "")

    def request(
        self, method: str, path: str, data: Mapping[str, Any] | None = None, *, htmx: bool = False
    ) -> tuple[int, dict[str, str], str]:
        headers = {"Cookie": self.cookies, "X-CSRFToken": self.csrf}
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(*self.address, timeout=120)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", errors="replace")
            return response.status, dict(response.getheaders()), text
        finally:
            conn.close()

    def get(self, path: str, *, htmx: bool = False) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, htmx=htmx)

    def post(
        self, path: str, data: Mapping[str, Any], *, htmx: bool = True
    ) -> tuple[int, dict[str, str], str]:
        return self.request("POST", path, data, htmx=htmx)


@contextlib.contextmanager
def sending_to(stack: Stack, **settings: Any) -> Iterator[None]:
    """This process's cache and Celery broker on the stack's Redis (tasks really sent, not
    run eagerly), e.g. to save results whose recomputes a real worker runs."""
    from django.test import override_settings

    from config.celery import app

    caches = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": stack.redis_url,
            "KEY_PREFIX": stack.prefix,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }
    saved = app.conf.broker_url, app.conf.task_always_eager
    with override_settings(CACHES=caches, CELERY_TASK_ALWAYS_EAGER=False, **settings):
        app.conf.broker_url, app.conf.task_always_eager = stack.redis_url, False
        app._pool = app.amqp._producer_pool = None  # pools hold connections to the old broker
        try:
            yield
        finally:
            app.conf.broker_url, app.conf.task_always_eager = saved
            app._pool = app.amqp._producer_pool = None
