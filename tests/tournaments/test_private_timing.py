"""Issue 29 finding 3: a signed-in stranger could tell a private event from a missing one by
timing (/e/<private>/ slower than /e/<missing>/ in 268 of 300 pairs): the private path ran
two more queries (is the user a director? a player?). Both paths now run the same SQL, the
slug aside, so they do the same work. Counting and comparing statements is the measure here
(a timing test would be flaky); bench/ has no part in it."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import round_robin_event

pytestmark = pytest.mark.django_db

PATHS = [
    "/e/{slug}/",
    "/e/{slug}/version",
    "/e/{slug}/standings/",
    "/e/{slug}/rounds/1/",
    "/manage/e/{slug}/",
]


def statements(client, path: str, slug: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path.format(slug=slug))
    # the slug and the session's own values aside, the same statements in the same order
    shapes = [re.sub(r"'[^']*'", "'?'", q["sql"]).replace(slug, "?") for q in queries]
    return response.status_code, shapes


@pytest.mark.parametrize("path", PATHS)
def test_a_private_event_and_a_missing_one_run_the_same_queries_for_a_stranger(
    client, director, django_user_model, path
):
    event = round_robin_event(director, players=4, slug="hidden-one")
    event.public = False
    event.save(update_fields=["public"])
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    client.force_login(stranger)
    client.get("/")  # the session's first reads out of the way
    private = statements(client, path, "hidden-one")
    missing = statements(client, path, "nowhere-xyz")
    assert private[0] == missing[0] == 404
    assert private[1] == missing[1]
