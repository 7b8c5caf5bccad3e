from django.db import migrations

# The tables' column from json to text (tournaments/fields.py): its field is unchanged, so
# the change is said here, in SQL. A database migrated before it has json; a new one
# already has text from 0025 (the field's type is its class's). The type change resets
# the column's compression: lz4 again where the server has it (see 0022 and 0025; a
# server built without lz4 keeps pglz).
AS_TEXT = """
ALTER TABLE tournaments_standingssnapshot ALTER COLUMN tables TYPE text USING tables::text;
DO $$ BEGIN
    ALTER TABLE tournaments_standingssnapshot ALTER COLUMN tables SET COMPRESSION lz4;
EXCEPTION WHEN others THEN NULL;
END $$
"""

AS_JSON = """
ALTER TABLE tournaments_standingssnapshot ALTER COLUMN tables TYPE json USING tables::json;
DO $$ BEGIN
    ALTER TABLE tournaments_standingssnapshot ALTER COLUMN tables SET COMPRESSION lz4;
EXCEPTION WHEN others THEN NULL;
END $$
"""


def as_text(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(AS_TEXT)


def as_json(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(AS_JSON)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0026_entrant_changes"),
    ]

    operations = [migrations.RunPython(as_text, as_json)]
