"""The app's own signals: a leaf module (Django only), so models can announce a write that
the view side listens for (tournaments.apps) without importing it back."""

from django.dispatch import Signal

# A bulk write to events (QuerySet.update or delete), which sends no post_save.
events_written = Signal()
