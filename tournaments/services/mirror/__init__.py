"""Venue mode (issue 31, docs/venue.md): an event run at the venue and mirrored to a public
Arbiter, with fencing by epoch.

outbox.py writes each change's row in the transaction of the change and refuses writes to
a read-only copy; push.py is the venue's side (building and sending a push, reading the
answer); receive.py the public copy's (applying a push, the takeover, the pull); links.py
configures a venue and pulls an event; runner.py runs the pusher (a thread, a command's
loop or a Celery task). The package's __init__ imports none of them: audit.py and
standings.py import outbox.py, and the rest import those back.
"""
