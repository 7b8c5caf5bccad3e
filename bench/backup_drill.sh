#!/usr/bin/env bash
# The backup figures of docs/reliability.md: N simulated events (every format) plus the demo
# in a scratch PostgreSQL database, then what people do between backups (bench/
# backup_activity.py: second directors, claimed entrants, results saved again), then
# `manage.py backup`, `manage.py restore` of the event files into a new database and
# `restore --database` of the dump into another. Compared after each: every event's file
# byte for byte, and every table's rows by natural keys (bench/table_rows.py: rows before,
# after each restore, and the rows each restore added or lost).
# Usage: bash bench/backup_drill.sh [EVENTS_PER_FORMAT (17)]. Drops its own databases only
# (arbiter_drill*); needs pg_dump, pg_restore, createdb and dropdb.
set -euo pipefail
cd "$(dirname "$0")/.."
per_format="${1:-17}"
pg="postgres://${PGUSER:-postgres}@${PGHOST:-127.0.0.1}:${PGPORT:-5432}"
work="$(mktemp -d)"
export ARBITER_VAR_DIR="$work/var" CELERY_TASK_ALWAYS_EAGER=1
unset REDIS_URL
py=.venv/bin/python

fresh() {
  dropdb -h "${PGHOST:-127.0.0.1}" -U "${PGUSER:-postgres}" --if-exists "$1"
  createdb -h "${PGHOST:-127.0.0.1}" -U "${PGUSER:-postgres}" "$1"
}
as() { DATABASE_URL="$pg/$1" "${@:2}"; }

fresh arbiter_drill
as arbiter_drill $py manage.py migrate -v0
declare -A size=([round_robin]=12 [freestyle]=32 [bot_contest]=12 [wpf_playoffs]=16 [gokodom]=24 [woc]=64)
for format in "${!size[@]}"; do
  for seed in $(seq 1 "$per_format"); do
    as arbiter_drill $py manage.py simulate_event --format "$format" --entrants "${size[$format]}" \
      --seed "$seed" >/dev/null 2>&1 || echo "skipped: $format seed $seed (the engine refused)"
  done
done
as arbiter_drill $py manage.py load_demo >/dev/null
echo "== what people did since: $(as arbiter_drill $py -m bench.backup_activity)"
as arbiter_drill $py manage.py shell -c "
from tournaments.models import Event, Entrant, Match, Game
print(f'{Event.objects.count()} events, {Entrant.objects.count()} entrants, '
      f'{Match.objects.count()} matches, {Game.objects.count()} games')" 2>/dev/null

as arbiter_drill $py -m bench.table_rows "$work/before.json"

echo "== backup"
/usr/bin/time -f "%e s wall" env DATABASE_URL="$pg/arbiter_drill" $py manage.py backup --dir "$work/backups"
made="$(ls -d "$work"/backups/arbiter-backup-*)"
for part in "$made" "$made/events" "$made/database.pgdump" "$made/accounts.json"; do du -sb "$part"; done
echo "owned rows: $(cat "$made"/events/*.owned.json.gz | wc -c) bytes gzipped, $(zcat "$made"/events/*.owned.json.gz | wc -c) bytes of JSON"

cat > "$work/compare.py" <<EOF
from pathlib import Path
from tournaments.models import Event
from tournaments.services.backup import event_file_text
folder = Path("$made/events")
files = list(folder.glob("*.json"))  # the event files (owned rows end in .json.gz)
same = sum((folder / f"{e.slug}.json").read_bytes() == event_file_text(e).encode() for e in Event.objects.all())
print(f"{same} of {len(files)} event files identical after the restore")
EOF

echo "== restore the event files into a new database"
fresh arbiter_drill_files
as arbiter_drill_files $py manage.py migrate -v0
/usr/bin/time -f "%e s wall" env DATABASE_URL="$pg/arbiter_drill_files" $py manage.py restore "$made"
as arbiter_drill_files $py manage.py shell < "$work/compare.py" 2>/dev/null | tail -1
as arbiter_drill_files $py -m bench.table_rows "$work/files.json"

echo "== restore the database dump into an empty database"
fresh arbiter_drill_dump
/usr/bin/time -f "%e s wall" env DATABASE_URL="$pg/arbiter_drill_dump" $py manage.py restore --database "$made"
as arbiter_drill_dump $py manage.py shell < "$work/compare.py" 2>/dev/null | tail -1
as arbiter_drill_dump $py -m bench.table_rows "$work/dump.json"

echo "== every table's rows: before, after each restore, and what each restore added or lost"
$py -m bench.table_rows --compare "$work/before.json" "$work/files.json" "$work/dump.json"

for db in arbiter_drill arbiter_drill_files arbiter_drill_dump; do
  dropdb -h "${PGHOST:-127.0.0.1}" -U "${PGUSER:-postgres}" "$db"
done
rm -rf "$work"
