"""The app's own signals: a leaf module (Django only), so models can announce a write that
the view side listens for (tournaments.apps) without importing it back."""

from django.dispatch import Signal

# A bulk write to events (QuerySet.update or delete), which sends no post_save.
events_written = Signal()

# A change of an event at the venue was committed (tournaments/services/mirror/outbox.py):
# the pusher (tournaments/services/mirror/runner.py, connected in tournaments.apps) sends it.
mirror_changed = Signal()
