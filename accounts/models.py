from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """Arbiter's user: admins (staff), directors and players are all users; roles per event
    live with the event (tournaments.EventDirector, tournaments.Entrant.user)."""

    display_name = models.CharField(max_length=150, blank=True)
    # No e-mail from Arbiter at all (a player's page, or any mail's link turns it off).
    emails_off = models.BooleanField(default=False)

    def __str__(self) -> str:
        return self.display_name or self.get_full_name() or self.username
