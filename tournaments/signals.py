"""The app's own signals: a leaf module (Django only), so models can announce a write that
the view side listens for (tournaments.apps) without importing it back."""

from django.dispatch import Signal

# A bulk write to events (QuerySet.update or delete), which sends no post_save.
events_written = Signal()

# A change of an event at the venue was committed (tournaments/services/mirror/outbox.py):
# the pusher (tournaments/services/mirror/runner.py, connected in tournaments.apps) sends it.
mirror_changed = Signal()

# Inside the transaction of a round's release (tournaments/services/rounds.py, publish_round,
# with ``event`` and ``rnd``) and of the standings or outlook it brings
# (tournaments/services/standings.py, with ``event_id`` and ``version``, the results version
# they are of), once every write is done: a receiver (tournaments/views/release_warm.py,
# connected in tournaments.apps) builds what the crowd is about to ask for, as the
# transaction sees it, and answers a callable that stores it at the commit, before the
# commit moves the event's stamp (services/at_commit.py), or None.
round_releasing = Signal()
standings_publishing = Signal()
