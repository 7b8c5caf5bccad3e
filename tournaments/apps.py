from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.core.signals import request_started
        from django.db.models.signals import post_delete, post_save

        from tournaments.models import Entrant, Event, Team
        from tournaments.signals import events_written
        from tournaments.views.pagecache import events_changed, names_changed

        # A saved or deleted event: the public page cache reads its stamp again.
        def changed(**kwargs: Any) -> None:
            events_changed()

        post_save.connect(changed, sender=Event, weak=False, dispatch_uid="pagecache-event")
        events_written.connect(changed, weak=False, dispatch_uid="pagecache-event-bulk")
        post_delete.connect(changed, sender=Event, weak=False, dispatch_uid="pagecache-event-del")

        # A committed change of a venue event: its pusher sends it (docs/venue.md).
        from tournaments.services.mirror import runner
        from tournaments.signals import mirror_changed

        def push(event_id: int, **kwargs: Any) -> None:
            runner.kick(event_id)

        mirror_changed.connect(push, weak=False, dispatch_uid="mirror-push")
        request_started.connect(runner.serving, weak=False, dispatch_uid="mirror-serving")

        # A renamed entrant or team shows in every row of the event's pages.
        def renamed(instance: Entrant | Team, **kwargs: Any) -> None:
            names_changed(instance.event_id)

        for model in (Entrant, Team):
            for signal in (post_save, post_delete):
                signal.connect(renamed, sender=model, weak=False, dispatch_uid=f"names-{model}")

        # A release's crowd: what it asks for first, built in the release's transaction and
        # its standings', stored at their commits (tournaments/views/release_warm.py).
        from tournaments.signals import round_releasing, standings_publishing
        from tournaments.views import release_warm

        round_releasing.connect(
            release_warm.at_release, weak=False, dispatch_uid="release-warm-round"
        )
        standings_publishing.connect(
            release_warm.at_standings, weak=False, dispatch_uid="release-warm-standings"
        )
