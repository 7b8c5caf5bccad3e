"""Every admin page renders for a superuser: changelists, add forms, change forms."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.factories import play_round, round_robin_event

pytestmark = pytest.mark.django_db


# Our apps must show every change page; third-party ones (django-axes' log) may be empty.
OURS = {"accounts", "tournaments", "auth"}


@pytest.fixture
def populated(director):
    from django.contrib.auth.models import Group as AuthGroup

    from tournaments.models import Group, Team
    from tournaments.services import standings

    event = round_robin_event(director, players=5, draw_numbers="lot")
    rnd = play_round(event, director)
    event.refresh_from_db()
    standings.refresh(event.pk, event.results_version)  # on_commit waits for a commit
    group = Group.objects.create(round=rnd, key="B", label="Group B")
    group.members.create(entrant=event.entrants.first(), seed=1)
    Team.objects.create(event=event, name="Team 1")
    AuthGroup.objects.create(name="Directors")
    from django.utils import timezone

    from tournaments.models import ImportJob, RefereeGame, RefereeToken, Report

    now = timezone.now()
    RefereeToken.objects.create(event=event, token_hash="0" * 64, hint="abcd", created_at=now)
    RefereeGame.objects.create(
        event=event, game_id="g-1", match=rnd.matches.first(), game_number=1, received_at=now
    )
    ImportJob.objects.create(user=director, kind="event", slug="Player-import", created_at=now)
    from tournaments.models import Notification, ResultEntry

    ResultEntry.objects.create(
        match=rnd.matches.first(), version=0, entered_by=director, entered_at=now
    )
    Notification.objects.create(
        key="pairing:test", event=event, kind="pairing", user=director, created_at=now
    )
    from tournaments.models import Entry

    Entry.objects.create(event=event, name="Ann Early", email="ann@example.org", created_at=now)
    if not Report.objects.exists():
        Report.objects.create(event=event, kind=Report.Kind.choices[0][0], requested_at=now)
    from tournaments.services import series

    season = series.create_series(slug="season", name="Player season", by=director, points=[3])
    series.add_event_stage(season, event, by=director)
    series.import_scores(season, name="Online", text="Player 1,5\n", by=director)
    series.merge_names(season, name="Player One", same_as="Player 1", by=director)
    return event


@pytest.mark.parametrize(
    "model_class", list(admin.site._registry), ids=lambda m: m._meta.label_lower
)
def test_changelist_search_and_change_pages_render(client, admin_user, populated, model_class):
    app, model = model_class._meta.app_label, model_class._meta.model_name
    client.force_login(admin_user)
    changelist = reverse(f"admin:{app}_{model}_changelist")
    assert client.get(changelist).status_code == 200
    assert client.get(changelist, {"q": "Player"}).status_code == 200
    obj = model_class.objects.first()
    if app in OURS:
        assert obj is not None, f"no {model} in the populated event"
    if obj is not None:
        response = client.get(reverse(f"admin:{app}_{model}_change", args=[obj.pk]))
        assert response.status_code == 200
    model_admin = admin.site._registry[model_class]
    add = client.get(reverse(f"admin:{app}_{model}_add"))
    expected = 200 if model_admin.has_add_permission(_request(admin_user)) else 403
    assert add.status_code == expected


def _request(user):
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = user
    return request


def test_admin_is_closed_to_a_director_who_is_not_staff(client, director):
    client.force_login(director)
    response = client.get(reverse("admin:tournaments_event_changelist"))
    assert response.status_code == 302
