"""The demo `make run` loads: accounts and one event per format at an interesting stage.

Idempotent: running it again changes nothing and creates no duplicates.
"""

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import demo_entries, demo_series
from tournaments.demo import DEMO_BUILDERS
from tournaments.models import Event, EventDirector


class Command(BaseCommand):
    help = "Load the demo accounts and events (safe to run again)."

    def handle(self, **options: Any) -> None:
        User = get_user_model()
        password = settings.ARBITER_DEMO_PASSWORD
        with transaction.atomic():
            admin, created_admin = User.objects.get_or_create(
                username="admin",
                defaults={"is_staff": True, "is_superuser": True, "display_name": "Admin"},
            )
            if created_admin:
                admin.set_password(password)
                admin.save()
            director, created_director = User.objects.get_or_create(
                username="director", defaults={"display_name": "Demo Director"}
            )
            if created_director:
                director.set_password(password)
                director.save()
        made = []
        for slug, build in DEMO_BUILDERS.items():
            if Event.objects.filter(slug=slug).exists():
                continue
            event = build(director=director, rng=random.Random(slug))
            EventDirector.objects.get_or_create(event=event, user=director)
            made.append(event.name)
        # the series read the events above (the GP feeds the playoffs, GokoDom's seasons)
        made += [s.name for s in demo_series.build(director=director)]
        # an event taking entries: `make run` shows the entry form (issue 32)
        if (open_event := demo_entries.build(director=director)) is not None:
            EventDirector.objects.get_or_create(event=open_event, user=director)
            made.append(open_event.name)
        self.stdout.write(self.style.SUCCESS("Demo ready."))
        if made:
            self.stdout.write("Created: " + ", ".join(made))
        site = settings.ARBITER_SITE_URL  # `make run` sets it to the port it serves
        self.stdout.write(
            f"  superuser: admin / {password}    director: director / {password}\n"
            f"  open {site}/ (events) and {site}/admin/"
        )
