"""Two Arbiter instances, a venue and the public one, as real processes on real databases,
with a link between them that a test cuts (tests/venue/proxy.py). Used by tests/venue and by
bench/venue.py (`make bench-venue`).

    with Pair.start(workdir) as pair:
        pair.venue.base, pair.public.base     # http://127.0.0.1:<port>, each its own server
        pair.link.url                         # the public instance as the venue reaches it
        pair.link.cut(); pair.link.restore()  # tests/venue/proxy.py
        desk = pair.venue.director()          # a signed-in Client
        pair.venue.manage("export_event", slug)

Each instance has a PostgreSQL database of its own, made for the pair and dropped with it:
the first is migrated (a few seconds: synchronous_commit off, as nothing here must survive
a crash of the database server), the second is copied from it (CREATE DATABASE ... TEMPLATE),
so both start with the same director account. The venue runs as `make run` does
(runserver, no Redis: eager tasks, local-memory cache); the public one on gunicorn, with the
suite's Redis under a key prefix of its own when REDIS_URL is set (eager tasks still: no
worker to start). Every process runs in a session of its own and is killed with its
children when the pair closes, whatever happened in between.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator, Mapping
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from bench.stack import Process, free_port, wait_for
from tests.venue.proxy import LinkProxy

ROOT = Path(__file__).resolve().parent.parent.parent
DIRECTOR = "director"
DIRECTOR_PASSWORD = "venue-director-pw-1"  # a test account, throwaway databases

# What the suite's own environment must not pass on to an instance: each has its own.
_NOT_INHERITED = ("DATABASE_URL", "REDIS_URL", "ARBITER_CACHE_PREFIX", "CELERY_TASK_ALWAYS_EAGER")


# -- PostgreSQL ------------------------------------------------------------------------------


def postgres_settings() -> dict[str, Any]:
    """Where the suite's PostgreSQL is (its Django settings), or AssertionError naming why."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "postgresql" not in database["ENGINE"]:
        raise AssertionError("the venue tests need PostgreSQL (DATABASE_URL)")
    return dict(database)


def database_url(database: Mapping[str, Any], name: str) -> str:
    auth = quote(database.get("USER") or "")
    if database.get("PASSWORD"):
        auth += ":" + quote(database["PASSWORD"])
    host = database.get("HOST") or "127.0.0.1"
    port = f":{database['PORT']}" if database.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{name}"


def admin_connection(database: Mapping[str, Any]) -> Any:
    import psycopg

    return psycopg.connect(
        host=database.get("HOST") or "127.0.0.1",
        port=int(database.get("PORT") or 5432),
        user=database.get("USER") or "postgres",
        password=database.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
    )


def create_database(database: Mapping[str, Any], name: str, template: str = "") -> None:
    with admin_connection(database) as conn:
        if template:
            # a template must have no other session: the migrating process has exited
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        else:
            conn.execute(f'CREATE DATABASE "{name}"')
            conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')


def drop_database(database: Mapping[str, Any], name: str) -> None:
    with admin_connection(database) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- HTTP ------------------------------------------------------------------------------------


class Response:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.body)

    def __repr__(self) -> str:
        return f"<Response {self.status}: {self.text[:300]!r}>"


class Client:
    """Requests as a browser sends them: cookies kept, a CSRF secret of our own sent as
    cookie and header (what Django accepts from htmx). A new connection per request."""

    def __init__(self, base: str, timeout: float = 60) -> None:
        parts = urlsplit(base)
        self.base = base
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.timeout = timeout
        self.csrf = uuid.uuid4().hex  # 32 characters: a CSRF secret
        self.cookies: dict[str, str] = {"csrftoken": self.csrf}

    def request(
        self,
        method: str,
        path: str,
        data: Mapping[str, Any] | None = None,
        *,
        json_body: Any = None,
        headers: Mapping[str, str] | None = None,
        htmx: bool = False,
    ) -> Response:
        sent = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "X-CSRFToken": self.csrf,
            "Referer": self.base + "/",
            **(headers or {}),
        }
        if htmx:
            sent["HX-Request"] = "true"
        body: bytes | None = None
        if json_body is not None:
            body = json.dumps(json_body).encode()
            sent["Content-Type"] = "application/json"
        elif data is not None:
            body = urlencode(data, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(*self.address, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=sent)
            answer = conn.getresponse()
            response = Response(answer.status, answer.msg, answer.read())
        finally:
            conn.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for key, morsel in cookie.items():
                if key == "csrftoken":
                    continue  # ours stays: it is the header we send
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = morsel.value
        return response

    def get(self, path: str, **kwargs: Any) -> Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: Mapping[str, Any] | None = None, **kwargs: Any) -> Response:
        return self.request("POST", path, data if data is not None else {}, **kwargs)

    def login(self, username: str = DIRECTOR, password: str = DIRECTOR_PASSWORD) -> Client:
        answer = self.post("/accounts/login/", {"username": username, "password": password})
        if answer.status != 302 or "sessionid" not in self.cookies:
            raise AssertionError(f"sign-in as {username} at {self.base} failed: {answer!r}")
        return self


# -- an instance -----------------------------------------------------------------------------


class Instance:
    """One Arbiter: its database, its server process, and any process a test adds to it."""

    def __init__(
        self,
        name: str,
        database: str,
        url: str,
        workdir: Path,
        *,
        server: str = "gunicorn",
        redis_url: str = "",
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.database = database
        self.database_url = url
        self.dir = workdir / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.server = server
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.processes: list[Process] = []
        self._server: Process | None = None
        inherited = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
        self.env: dict[str, str] = {
            **inherited,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": url,
            "ARBITER_VAR_DIR": str(self.dir / "var"),
            "ARBITER_SITE_URL": self.base,
            "ARBITER_PRODUCTION": "0",  # plain HTTP on loopback
            "DJANGO_DEBUG": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "ARBITER_BACKUP_EVERY_MINUTES": "0",
            "CELERY_TASK_ALWAYS_EAGER": "1",  # no worker: tasks run in the process that sends
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }  # fmt: skip
        self.redis_url = redis_url
        self.prefix = f"venue-{name}-{uuid.uuid4().hex[:8]}"
        if redis_url:
            # its own cache keys and its own Celery queue on the shared Redis: its worker
            # takes only its own tasks, and closing the instance forgets only its keys
            self.env.update(REDIS_URL=redis_url, ARBITER_CACHE_PREFIX=self.prefix,
                            CELERY_QUEUE=self.prefix)  # fmt: skip

    # -- the server -------------------------------------------------------------------------

    def launch(self) -> Process:
        """Start the server (not waiting for it: see wait_up)."""
        if self.server == "runserver":
            args = [sys.executable, "manage.py", "runserver", "--noreload", "--skip-checks",
                    f"127.0.0.1:{self.port}"]  # fmt: skip
        else:
            args = [sys.executable, "-m", "gunicorn", "config.wsgi:application",
                    "-b", f"127.0.0.1:{self.port}", "-w", "2", "--timeout", "120",
                    "--log-level", "warning"]  # fmt: skip
        self._server = self.spawn(f"{self.name}-{self.server}", args)
        return self._server

    def wait_up(self, timeout: float = 90) -> None:
        server = self._server
        assert server is not None, f"{self.name}: launch() first"

        def up() -> bool:
            if not server.alive:
                raise AssertionError(f"{self.name}'s {self.server} exited:\n{server.tail()}")
            try:
                return Client(self.base, timeout=5).get("/healthz").status == 200
            except OSError:
                return False

        wait_for(up, timeout, f"the {self.name} instance to answer", step=0.2)

    def start(self) -> Instance:
        self.launch()
        self.wait_up()
        return self

    def crash(self) -> None:
        """The machine dies: its server (and everything else of it) is killed, no goodbye."""
        for proc in list(self.processes):
            proc.kill()
        self.processes.clear()
        self._server = None

    @property
    def alive(self) -> bool:
        return self._server is not None and self._server.alive

    # -- its other processes ----------------------------------------------------------------

    def spawn(self, name: str, args: list[str], **env: str) -> Process:
        """A process of this instance (its settings, its database), e.g. a pusher."""
        proc = Process(name, args, {**self.env, **env}, self.dir / f"{name}.log")
        self.processes.append(proc)
        return proc

    def worker(self, concurrency: int = 2) -> Process:
        """A Celery worker of this instance (its queue only): tasks leave the web process.
        Two processes, as a two-core laptop's default: a push is not queued behind a
        standings recompute (it would be with one)."""
        assert self.redis_url, f"{self.name} has no Redis: its tasks run in the web process"
        return self.spawn(
            "worker",
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork",
             f"--concurrency={concurrency}", "--without-gossip", "--without-mingle",
             "--without-heartbeat",
             f"--loglevel={os.environ.get('VENUE_WORKER_LOGLEVEL', 'WARNING')}",
             "-n", f"{self.prefix}@%h"],
            CELERY_TASK_ALWAYS_EAGER="0",
        )  # fmt: skip

    def beat(self) -> Process:
        assert self.redis_url, f"{self.name} has no Redis"
        return self.spawn(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING",
             "-s", str(self.dir / "beat-schedule")],
        )  # fmt: skip

    def manage(self, *args: str, timeout: float = 180, check: bool = True) -> str:
        """``manage.py ARGS`` against this instance's database; its output."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, timeout=timeout,
            capture_output=True, text=True,
        )  # fmt: skip
        if check and done.returncode != 0:
            raise AssertionError(
                f"{self.name}: manage.py {' '.join(args)} exited {done.returncode}:\n"
                f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
            )
        return done.stdout

    def client(self) -> Client:
        return Client(self.base)

    def director(self) -> Client:
        """A browser signed in as the director (the same account on both instances)."""
        return Client(self.base).login()

    def logs(self, lines: int = 30) -> str:
        return "\n".join(f"--- {p.name}\n{p.tail(lines)}" for p in self.processes)

    def stop(self) -> None:
        for proc in reversed(self.processes):
            proc.stop(grace=5)
        self.processes.clear()
        self._server = None
        if self.redis_url:
            forget_redis_keys(self.redis_url, self.prefix)


def forget_redis_keys(url: str, prefix: str) -> None:
    """An instance's keys on the shared Redis: its cache, its queue and kombu's marks."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        for pattern in (f"{prefix}*", f"*{prefix}*"):
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)
    finally:
        client.close()


# -- the pair --------------------------------------------------------------------------------

# One account on both instances: the director who runs the event at the venue and online.
_MAKE_DIRECTOR = (
    "from accounts.models import User; "
    f"User.objects.create_user({DIRECTOR!r}, email='director@example.org', "
    f"password={DIRECTOR_PASSWORD!r})"
)


class Pair:
    """The venue's Arbiter and the public one, and the link from the first to the second."""

    def __init__(self, workdir: Path, venue: Instance, public: Instance, link: LinkProxy) -> None:
        self.dir = workdir
        self.venue = venue
        self.public = public
        self.link = link
        self._databases = [venue.database, public.database]
        self._postgres: dict[str, Any] = {}

    @classmethod
    @contextlib.contextmanager
    def start(
        cls,
        workdir: Path,
        *,
        venue_env: Mapping[str, str] | None = None,
        public_env: Mapping[str, str] | None = None,
        public_redis: str | None = None,
        venue_redis: str = "",
        public_worker: bool = False,
    ) -> Iterator[Pair]:
        """Both instances up and migrated, the link open; everything gone on exit.
        ``public_redis``: the public instance's Redis (default: the suite's REDIS_URL, if
        any; "" for none); its tasks run in the web process. ``venue_redis``: the venue on
        Redis with a Celery worker and beat of its own (default: none, as `make run`).
        ``public_worker``: the public instance's tasks (the standings recompute after a
        push) in a Celery worker of its own, as a public server runs, rather than in the
        push's request (needs its Redis)."""
        database = postgres_settings()
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        # named after the suite's (or the bench's) own database, so that machines shared by
        # several checkouts see whose databases these are
        own = str(database.get("NAME") or "arbiter").removeprefix("test_")[:30]
        stem = f"{own}_venue_{worker}_{uuid.uuid4().hex[:8]}"
        names = {"venue": f"{stem}_venue", "public": f"{stem}_public"}
        redis_url = os.environ.get("REDIS_URL", "") if public_redis is None else public_redis
        made: list[str] = []
        instances: list[Instance] = []
        link: LinkProxy | None = None
        try:
            create_database(database, names["venue"])
            made.append(names["venue"])
            venue = Instance(
                "venue", names["venue"], database_url(database, names["venue"]), workdir,
                server="runserver", redis_url=venue_redis,
                env={"DJANGO_DEBUG": "1", **(venue_env or {})},  # as `make run`
            )  # fmt: skip
            instances.append(venue)
            if venue_redis:
                venue.env["CELERY_TASK_ALWAYS_EAGER"] = "0"  # its worker runs them
            venue.manage("migrate", "--noinput")
            venue.manage("shell", "-c", _MAKE_DIRECTOR)
            create_database(database, names["public"], template=names["venue"])
            made.append(names["public"])
            public = Instance(
                "public", names["public"], database_url(database, names["public"]), workdir,
                server="gunicorn", redis_url=redis_url, env=public_env,
            )  # fmt: skip
            instances.append(public)
            if public_worker:
                assert redis_url, "a public worker needs Redis (REDIS_URL)"
                public.env["CELERY_TASK_ALWAYS_EAGER"] = "0"
            link = LinkProxy("127.0.0.1", public.port).start()
            venue.launch()
            public.launch()
            if venue_redis:
                venue.worker()
                venue.beat()
            if public_worker:
                public.worker(concurrency=1)
            public.wait_up()
            venue.wait_up()
            pair = cls(workdir, venue, public, link)
            pair._postgres = database
            yield pair
        finally:
            if link is not None:
                link.close()
            for instance in instances:
                instance.stop()
            for name in made:
                with contextlib.suppress(Exception):
                    drop_database(database, name)
            shutil.rmtree(workdir, ignore_errors=True)

    def logs(self, lines: int = 30) -> str:
        return f"{self.venue.logs(lines)}\n{self.public.logs(lines)}"
