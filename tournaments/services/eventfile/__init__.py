"""The JSON event file (docs/event-file.md): its schema, export and import.

schema.py says what a valid file is (``validate``, and ``state_from``: a valid file as the
engine's EventState), fields.py checks one field at a time, export.py writes an event as a
file, importing.py writes a validated file into the database. The names callers use are
here.
"""

from tournaments.services.eventfile.export import export_event, export_text
from tournaments.services.eventfile.fields import storable_text
from tournaments.services.eventfile.importing import import_event
from tournaments.services.eventfile.schema import FILE_VERSION, state_from, validate

__all__ = [
    "FILE_VERSION",
    "export_event",
    "export_text",
    "import_event",
    "state_from",
    "storable_text",
    "validate",
]
