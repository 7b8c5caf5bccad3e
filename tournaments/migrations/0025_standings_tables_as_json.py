from django.db import migrations

import tournaments.fields

# The type change resets the column's compression: lz4 again where the server has it (see
# 0022; a server built without lz4 keeps pglz).
LZ4 = """
DO $$ BEGIN
    ALTER TABLE tournaments_standingssnapshot ALTER COLUMN tables SET COMPRESSION lz4;
EXCEPTION WHEN others THEN NULL;
END $$
"""


def tables_lz4(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(LZ4)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0024_standings_snapshot_rows_from"),
    ]

    operations = [
        migrations.AlterField(
            model_name="standingssnapshot",
            name="tables",
            field=tournaments.fields.JSONTextField(default=list),
        ),
        migrations.RunPython(tables_lz4, migrations.RunPython.noop),
    ]
