from django.db import migrations, models

# What the standings read of an entrant (services/standings_kept.py): a statement that
# changes any of it, for any writer (the services, the admin, an import's COPY, a restore,
# a mirror), adds a row per event it touched. Statement triggers with transition tables:
# one row for an import of 10,000 entrants, none for an edit of what the standings do not
# read (an e-mail, a claim code).
READ = (
    "event_id, number, name, rating, seed, country, gender, team_id, flags, status, "
    "withdrawn_after_round"
)

FORWARD = f"""
CREATE FUNCTION tournaments_entrants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO tournaments_entrantchange (event_id)
        SELECT DISTINCT event_id FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO tournaments_entrantchange (event_id)
        SELECT DISTINCT event_id FROM old_rows;
    ELSE
        INSERT INTO tournaments_entrantchange (event_id)
        SELECT DISTINCT changed.event_id FROM (
            SELECT n.event_id, o.event_id AS was FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE ({", ".join("n." + c for c in READ.split(", "))})
                IS DISTINCT FROM ({", ".join("o." + c for c in READ.split(", "))})
        ) AS differs, LATERAL (VALUES (differs.event_id), (differs.was)) AS changed(event_id);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tournaments_team_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tournaments_entrantchange (event_id)
    SELECT DISTINCT n.event_id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.name IS DISTINCT FROM o.name
        AND EXISTS (SELECT 1 FROM tournaments_entrant e WHERE e.team_id = n.id);
    RETURN NULL;
END $$;

CREATE FUNCTION tournaments_event_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM tournaments_entrantchange c USING old_rows o WHERE c.event_id = o.id;
    RETURN NULL;
END $$;

CREATE TRIGGER entrants_inserted AFTER INSERT ON tournaments_entrant
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_entrants_changed();
CREATE TRIGGER entrants_updated AFTER UPDATE ON tournaments_entrant
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_entrants_changed();
CREATE TRIGGER entrants_deleted AFTER DELETE ON tournaments_entrant
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_entrants_changed();
CREATE TRIGGER team_renamed AFTER UPDATE ON tournaments_team
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_team_renamed();
CREATE TRIGGER event_deleted AFTER DELETE ON tournaments_event
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournaments_event_deleted();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS entrants_inserted ON tournaments_entrant;
DROP TRIGGER IF EXISTS entrants_updated ON tournaments_entrant;
DROP TRIGGER IF EXISTS entrants_deleted ON tournaments_entrant;
DROP TRIGGER IF EXISTS team_renamed ON tournaments_team;
DROP TRIGGER IF EXISTS event_deleted ON tournaments_event;
DROP FUNCTION IF EXISTS tournaments_entrants_changed();
DROP FUNCTION IF EXISTS tournaments_team_renamed();
DROP FUNCTION IF EXISTS tournaments_event_deleted();
"""


def triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD)


def no_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_standings_tables_as_json"),
    ]

    operations = [
        migrations.CreateModel(
            name="EntrantChange",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("event_id", models.BigIntegerField(db_index=True)),
            ],
        ),
        migrations.RunPython(triggers, no_triggers),
    ]
