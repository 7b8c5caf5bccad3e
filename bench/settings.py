"""The project's settings plus one bare view (the ceiling of a request through Django)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
DEBUG = False
