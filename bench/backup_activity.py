"""What people do to events between two backups, for bench/backup_drill.sh: in every event a
second director is added, two entrants are claimed by their players, and the first played
match's result is saved again with a reason (a new version in the result history).
Through the services, so each leaves the audit rows it leaves in real use.

    DATABASE_URL=... python -m bench.backup_activity
"""

from __future__ import annotations


def main() -> None:
    from django.contrib.auth import get_user_model

    from accounts.services import claim_entrant
    from tournaments.models import Event, Match
    from tournaments.services import events, results
    from tournaments.services.errors import ServiceError

    users = get_user_model().objects
    done = {"directors": 0, "claims": 0, "results saved again": 0, "refused": 0}
    for event in Event.objects.order_by("slug"):
        helper, _ = users.get_or_create(username=f"helper-{event.format}")
        if not event.directors.filter(pk=helper.pk).exists():
            events.add_director(event, helper.username, by=None)
            done["directors"] += 1
        for entrant in event.entrants.filter(user__isnull=True).order_by("number")[:2]:
            player = users.create_user(f"{event.slug}-{entrant.number}"[:150], password=None)
            claim_entrant(player, entrant.claim_code)
            done["claims"] += 1
        match = (
            Match.objects.filter(round__event=event, games__isnull=False)
            .order_by("round__number", "order")
            .first()
        )
        if match is not None:
            try:
                results.record(
                    match,
                    results.games_json(match),
                    expected_version=match.version,
                    by=helper,
                    reason="checked against the score sheet",
                )
                done["results saved again"] += 1
            except ServiceError:
                done["refused"] += 1
    print(", ".join(f"{v} {k}" for k, v in done.items()))


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    main()
