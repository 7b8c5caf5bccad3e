"""The negative control of the concurrency proofs: the app with its version check taken out.

Every result save is recorded over whatever is stored (plain last-write-wins), as if the
form's version were always the current one. tests/reliability and bench/reliability.py
serve it to show that their check catches silent overwrites when they happen: run against
the real app they find none, against this one they must find some.

Never serve this. It is reachable only by naming this module to gunicorn, not by any
setting, and it refuses to load under ARBITER_PRODUCTION.
"""

import os

from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application
from django.db import transaction

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from django.conf import settings  # noqa: E402

from tournaments.models import Match  # noqa: E402
from tournaments.services import results  # noqa: E402

if settings.PRODUCTION:
    raise ImproperlyConfigured("bench.wsgi_last_write_wins is a test fixture: never in production")

_checked = results.record


def _last_write_wins(match, games, *, expected_version, **kwargs):
    # Read the stored version under the row lock and pass it on: the check always passes.
    with transaction.atomic():
        current = (
            Match.objects.select_for_update().values_list("version", flat=True).get(pk=match.pk)
        )
        return _checked(match, games, expected_version=current, **kwargs)


results.record = _last_write_wins
