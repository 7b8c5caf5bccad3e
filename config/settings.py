"""Arbiter's settings. Every deployment choice comes from the environment (docs/operations.md);
the defaults make `make run` work alone: SQLite in var/, eager tasks, local-memory cache."""

from __future__ import annotations

from pathlib import Path

import dj_database_url
import django_stubs_ext

from config.env import env_bool, env_int, env_list, env_str

# ModelAdmin[Event] and the other generic classes of the type stubs, subscripted at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ARBITER_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DJANGO_DEBUG", False)
PRODUCTION = env_bool("ARBITER_PRODUCTION", False)
_secret = env_str("DJANGO_SECRET_KEY")
if not _secret:
    if PRODUCTION:
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when ARBITER_PRODUCTION is on.")
    _secret = "dev-only-insecure-key-change-me-for-any-real-deployment-0123456789"
SECRET_KEY = _secret
# The pepper of the API tokens' hashes (tournaments/services/api_tokens.py); changing it
# (or the secret key, when it is not set) makes every API token stop working.
ARBITER_API_TOKEN_PEPPER = env_str("ARBITER_API_TOKEN_PEPPER") or _secret
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "accounts",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # /api/ only: its rate limit and CORS, before the session is read (tournaments/api/)
    "tournaments.api.middleware.ApiEdgeMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # under DEBUG too, a wrong address is the project's 404 page, not Django's technical one
    "tournaments.middleware.ProjectNotFoundMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # a dropped database or Redis connection: a clear 503 page, not a server error
    "tournaments.middleware.ServiceUnavailableMiddleware",
    # a write to a venue's public copy: a page saying where the event is run (docs/venue.md)
    "tournaments.middleware.ReadOnlyEventMiddleware",
    # an event's pages read times in its zone; dropped after each request
    "tournaments.middleware.EventTimeZoneMiddleware",
    # last, as django-axes asks: it turns a locked-out sign-in into a clear page
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # What django-template-partials sets up by itself (partials over Django's cached
            # loaders: DIRS, then each app's templates/), with each format's templates/
            # between them: they live in its package, tournaments/formats/<key>/
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "tournaments.formats.files.TemplateLoader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            # {{ reason|said }} on every page: an engine's message in the page's language
            "builtins": ["tournaments.templatetags.words"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'arbiter.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL: a reader (the venue mode's pusher exporting the event, a page) never makes a
    # save wait, nor a save the reader; IMMEDIATE: a transaction takes the write lock when
    # it begins (waiting its turn), so one that read first never fails "database is locked"
    # when it comes to write after another writer (docs/venue.md)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"init_command": "PRAGMA journal_mode=WAL;", "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "tournaments:event_list"
LOGOUT_REDIRECT_URL = "tournaments:event_list"
AUTHENTICATION_BACKENDS = [
    # brute-force protection on sign-in (django-axes): refuses a locked-out user or address
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("ARBITER_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("ARBITER_LOGIN_COOLOFF_MINUTES", 15) / 60  # hours
# Locked: this username from this client address (so nobody elsewhere can lock a director
# out), the address read as the rate limits read it (ARBITER_CLIENT_IP_HEADER behind the
# proxy, which every visitor would otherwise share).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "tournaments.ratelimit.client_ip"
# Failures while locked are refused without being counted: the lock ends its cool-off after
# it began, however often someone keeps trying.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True

LANGUAGE_CODE = "en"
# The public pages in French too (issue 23); a visitor picks one with the switch in the
# footer (a cookie), else the browser's Accept-Language decides (LocaleMiddleware).
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("ARBITER_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("ARBITER_STATIC_ROOT", str(VAR_DIR / "static")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing one
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # each format's static/, in its package tournaments/formats/<key>/
    "tournaments.formats.files.StaticFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
MEDIA_ROOT = Path(env_str("ARBITER_MEDIA_ROOT", str(VAR_DIR / "media")))
MEDIA_URL = "media/"

# Redis: broker and cache when REDIS_URL is set; otherwise eager tasks and local memory.
REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("ARBITER_CACHE_PREFIX", "arbiter"),
            # A Redis that is down must cost a page little: fail fast, serve uncached.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A killed worker's task comes back within seconds, not the default hour.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 60),
    # kombu looks for such tasks every interval x throttle seconds (default 10 x 10): scan
    # every few seconds instead, so a task comes back soon after its timeout.
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 5),
    "unacked_restore_throttle": 1,
    # Sending a task tries the broker once more, then gives up: with Redis down a result is
    # saved in a tenth of a second (the sweep sends the recompute later), not after the
    # default six seconds of reconnecting inside the request.
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    # A Redis that stalls (accepts, never answers) must not hang the request that sends a
    # task: without these a send waits forever (tests/faults). Above the 1 s BRPOP poll.
    "socket_timeout": env_int("CELERY_BROKER_SOCKET_TIMEOUT", 2),
    "socket_connect_timeout": 2,
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
# The database, not the broker, is the truth about pending work: this sweep re-enqueues the
# recompute of any event whose standings lag its results (a lost task, a broker that was down).
CELERY_BEAT_SCHEDULE = {
    "sweep-standings": {
        "task": "tournaments.tasks.sweep_standings",
        # 30 s: standings lag at most about a minute after Redis returns (a worker and
        # beat reconnect within 30 s; docs/reliability.md, "Redis refused").
        "schedule": float(env_int("ARBITER_SWEEP_SECONDS", 30)),
    },
    "sweep-reports": {"task": "tournaments.tasks.sweep_reports", "schedule": 300.0},
    "sweep-imports": {"task": "tournaments.tasks.sweep_imports", "schedule": 300.0},
    # venue mode: pushes whose retry is due (docs/venue.md, "The pusher")
    "sweep-mirror": {
        "task": "tournaments.tasks.sweep_mirror",
        "schedule": float(env_int("ARBITER_MIRROR_SWEEP_SECONDS", 2)),
    },
}
# Venue mode (docs/venue.md): how the pusher runs: "task" (Celery; the default with Redis),
# "thread" (in the web process; the default without Redis), "command" (manage.py
# push_mirror beside the server), "off".
ARBITER_MIRROR_PUSHER = env_str("ARBITER_MIRROR_PUSHER", "")
# a push's time limit and the longest wait between two tries while the link is down
ARBITER_MIRROR_TIMEOUT = env_int("ARBITER_MIRROR_TIMEOUT", 10)
ARBITER_MIRROR_BACKOFF_MAX = env_int("ARBITER_MIRROR_BACKOFF_MAX", 2)
# while the public copy cannot be reached: a pusher keeps the link for up to HOLD seconds,
# asking whether it answers again every PROBE_MS milliseconds (a small GET, not a push), and
# pushes as soon as it does; then it hands the link back to the sweep (docs/venue.md)
ARBITER_MIRROR_PROBE_MS = env_int("ARBITER_MIRROR_PROBE_MS", 500)
ARBITER_MIRROR_HOLD_SECONDS = env_int("ARBITER_MIRROR_HOLD_SECONDS", 20)
# Backups (manage.py backup / restore, docs/operations.md): where they go, how many the
# scheduled one keeps, and how often beat makes one (0: never).
ARBITER_BACKUP_DIR = Path(env_str("ARBITER_BACKUP_DIR", str(VAR_DIR / "backups")))
ARBITER_BACKUP_KEEP = env_int("ARBITER_BACKUP_KEEP", 48)
ARBITER_BACKUP_EVERY_MINUTES = env_int("ARBITER_BACKUP_EVERY_MINUTES", 60)
if ARBITER_BACKUP_EVERY_MINUTES > 0:
    CELERY_BEAT_SCHEDULE["backup"] = {
        "task": "tournaments.tasks.scheduled_backup",
        "schedule": ARBITER_BACKUP_EVERY_MINUTES * 60.0,
    }
# Live updates (/api/v1/events/<slug>/stream) served by a WSGI worker too, holding it while
# open: for runserver only; production serves them by ASGI (docs/operations.md).
ARBITER_LIVE_WSGI = env_bool("ARBITER_LIVE_WSGI", DEBUG)
# Rate limits ("20/m": n per s, m, h or d) on what people or programs may hammer
# (tournaments/ratelimit.py): past one, a 429 that says when to try again.
ARBITER_RATE_LIMITS = {
    # a signed-in player's own result actions (report, confirm, dispute, ...), per user
    "self_report": env_str("ARBITER_RATE_SELF_REPORT", "20/m"),
    # the bot contest referee program's posts, per token
    "referee": env_str("ARBITER_RATE_REFEREE", "240/m"),
    # posts to the referee endpoint with a missing or wrong token, per address
    "referee_bad_token": env_str("ARBITER_RATE_REFEREE_BAD_TOKEN", "20/m"),
    # sign-up posts per client address (a venue's Wi-Fi shares one: raise it for the day)
    "signup": env_str("ARBITER_RATE_SIGNUP", "20/h"),
    # per account: posts that create an event (/manage/new/) or check or confirm an import
    "event_create": env_str("ARBITER_RATE_EVENT_CREATE", "30/h"),
    # the same posts per client address, whatever the account: ten accounts on one address
    # made 278 public events in a minute (issue 29); a venue's directors share one address
    "event_create_address": env_str("ARBITER_RATE_EVENT_CREATE_ADDRESS", "20/h"),
    # the public API (/api/), per client address: a scoreboard polling each page of an
    # event every few seconds stays well within it
    "api": env_str("ARBITER_RATE_API", "600/m"),
    # API requests with a wrong, revoked or expired bearer token, per address
    "api_bad_token": env_str("ARBITER_RATE_API_BAD_TOKEN", "20/m"),
}
# What one imported file may hold (tournaments/services/limits.py, DESIGN 16): past a limit
# the file is refused, the limit named, before the heavy part of the check. Each is set by
# ARBITER_IMPORT_MAX_<NAME> (ARBITER_IMPORT_MAX_ENTRANTS=20000, ...).
ARBITER_IMPORT_LIMITS = {
    name: env_int(f"ARBITER_IMPORT_MAX_{name.upper()}", default)
    for name, default in {
        "bytes": 5_000_000,  # a WOC of 200 players and 13 rounds is about 0.3 MB
        "entrants": 10_000,
        "rounds": 100,
        "matches": 100_000,
        "games": 300_000,
        "lines": 200_000,  # of a WOF rating file
        "json_depth": 20,  # an event file nests 8 deep; settings and flags a few more
    }.items()
}
# A pasted file travels in a form field: room for the largest file the import takes, and
# its signed copy in the confirmation.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * ARBITER_IMPORT_LIMITS["bytes"] + 1_000_000
# Behind a proxy, the client address is the last one the proxy appended to this header.
ARBITER_CLIENT_IP_HEADER = env_str("ARBITER_CLIENT_IP_HEADER", "")
# Seconds a standings recompute waits after a result, so that a burst makes one recompute.
ARBITER_STANDINGS_DELAY = float(env_str("ARBITER_STANDINGS_DELAY", "1") or 1)
# The worker deletes the standings snapshots no page reads (services/standings_store.py);
# off only where snapshots are counted as recomputes (bench/proof_broker.py).
ARBITER_STANDINGS_PRUNE = env_bool("ARBITER_STANDINGS_PRUNE", True)
# Public pages cached per event version for anonymous visitors (0 turns it off).
ARBITER_PAGE_CACHE = env_bool("ARBITER_PAGE_CACHE", True)
ARBITER_PAGE_CACHE_SECONDS = env_int("ARBITER_PAGE_CACHE_SECONDS", 600)
# A round of up to this many matches has its entrant-book part and API answer built inside
# its release's transaction (tournaments/views/release_warm.py, at_release); a larger one's
# by the release's task after the commit.
ARBITER_RELEASE_BUILD_MATCHES = env_int("ARBITER_RELEASE_BUILD_MATCHES", 1500)
# A public page is rebuilt at most once every this many seconds; meanwhile visitors get the
# newest built (pages poll every 20 s). 0: rebuilt on the first visit after each change.
ARBITER_PAGE_MIN_AGE = env_int("ARBITER_PAGE_MIN_AGE", 5)

EMAIL_BACKEND = env_str("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DJANGO_DEFAULT_FROM_EMAIL", "arbiter@localhost")
# SMTP, read when DJANGO_EMAIL_BACKEND is django.core.mail.backends.smtp.EmailBackend.
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
# The address mails link to (pairings, unsubscribe links): the site as players reach it.
ARBITER_SITE_URL = env_str("ARBITER_SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The WOF rating officer: "Send to the rating officer" mails the event's WOF file here
# (tournaments/services/rating_report.py); empty: the page checks the file but cannot send.
ARBITER_RATING_OFFICER_EMAIL = env_str("ARBITER_RATING_OFFICER_EMAIL", "")
# Mails (tournaments/services/notifications.py) are sent by a task after the commit; this
# sweep sends those whose task was lost or whose SMTP server was down.
CELERY_BEAT_SCHEDULE["sweep-notifications"] = {
    "task": "tournaments.tasks.sweep_notifications",
    "schedule": float(env_int("ARBITER_MAIL_SWEEP_SECONDS", 300)),
}
# Offers of a place (registration, invitations: tournaments/services/places.py) past their
# deadline pass to the next in line; the entries' pages check on read as well.
CELERY_BEAT_SCHEDULE["sweep-offers"] = {
    "task": "tournaments.tasks.sweep_offers",
    "schedule": float(env_int("ARBITER_OFFER_SWEEP_SECONDS", 300)),
}

# Webhooks (tournaments/services/webhooks.py, docs/api.md): a receiver that fails is
# tried again after 30 s, 1 min, 2 min, ... (at most an hour apart) for 24 h; the sweep
# sends what is due. ALLOW_LOCAL lets webhooks reach loopback and private addresses (tests,
# a venue's own network): off, a URL resolving to one is refused (docs/security.md).
ARBITER_WEBHOOK_ALLOW_LOCAL = env_bool("ARBITER_WEBHOOK_ALLOW_LOCAL", False)
ARBITER_WEBHOOK_TIMEOUT = env_int("ARBITER_WEBHOOK_TIMEOUT", 5)
ARBITER_WEBHOOK_BACKOFF_SECONDS = env_int("ARBITER_WEBHOOK_BACKOFF_SECONDS", 30)
ARBITER_WEBHOOK_BACKOFF_MAX_SECONDS = env_int("ARBITER_WEBHOOK_BACKOFF_MAX_SECONDS", 3600)
ARBITER_WEBHOOK_RETRY_HOURS = env_int("ARBITER_WEBHOOK_RETRY_HOURS", 24)
# The key webhook secrets are derived from (empty: SECRET_KEY); changing it changes them all.
ARBITER_WEBHOOK_KEY = env_str("ARBITER_WEBHOOK_KEY")
CELERY_BEAT_SCHEDULE["sweep-webhooks"] = {
    "task": "tournaments.tasks.sweep_webhooks",
    "schedule": float(env_int("ARBITER_WEBHOOK_SWEEP_SECONDS", 15)),
}

# Production hardening, on with ARBITER_PRODUCTION=1 (docs/operations.md).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if PRODUCTION else None
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
# No script reads the CSRF cookie (htmx sends the token from the page's hx-headers).
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_HTTPONLY = True
SECURE_SSL_REDIRECT = PRODUCTION and env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000) if PRODUCTION else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = PRODUCTION
SECURE_HSTS_PRELOAD = PRODUCTION
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("ARBITER_LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery": {"level": env_str("ARBITER_CELERY_LOG_LEVEL", "WARNING")},
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}

# Seed for draws made by the application when an event has none of its own (tests, demo).
ARBITER_DEMO_PASSWORD = env_str("ARBITER_DEMO_PASSWORD", "arbiter-demo")

# The admin's sign-in shows the same clear lockout page as ours.
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"

# Content Security Policy (django-csp): scripts only from our own static files (htmx is
# served from there, with inline indicator styles off); no inline handlers anywhere. Inline
# style attributes are allowed: they cannot run code.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "csp.middleware.CSPMiddleware",
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# GokoDom rounds close themselves at their deadline (tournaments/formats/gokodom/tasks.py).
CELERY_IMPORTS = ("tournaments.formats.gokodom.tasks",)
CELERY_BEAT_SCHEDULE["gokodom-deadlines"] = {
    "task": "tournaments.tasks_gokodom.close_due_rounds",  # the name it was queued by
    "schedule": float(env_int("ARBITER_DEADLINE_SWEEP_SECONDS", 300)),
}
