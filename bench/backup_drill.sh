#!/usr/bin/env bash
# The backup figures of docs/reliability.md: N simulated events (every format) in a scratch
# PostgreSQL database, `manage.py backup`, then `manage.py restore` of the event files into
# a new database and of the dump into another, each event's file compared byte for byte.
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
as arbiter_drill $py manage.py shell -c "
from tournaments.models import Event, Entrant, Match, Game
print(f'{Event.objects.count()} events, {Entrant.objects.count()} entrants, '
      f'{Match.objects.count()} matches, {Game.objects.count()} games')" 2>/dev/null

echo "== backup"
/usr/bin/time -f "%e s wall" env DATABASE_URL="$pg/arbiter_drill" $py manage.py backup --dir "$work/backups"
made="$(ls -d "$work"/backups/arbiter-backup-*)"
for part in "$made" "$made/events" "$made/database.pgdump"; do du -sb "$part"; done

cat > "$work/compare.py" <<EOF
from pathlib import Path
from tournaments.models import Event
from tournaments.services.backup import event_file_text
folder = Path("$made/events")
same = sum((folder / f"{e.slug}.json").read_bytes() == event_file_text(e).encode() for e in Event.objects.all())
print(f"{same} of {len(list(folder.iterdir()))} event files identical after the restore")
EOF

echo "== restore the event files into a new database"
fresh arbiter_drill_files
as arbiter_drill_files $py manage.py migrate -v0
/usr/bin/time -f "%e s wall" env DATABASE_URL="$pg/arbiter_drill_files" $py manage.py restore "$made"
as arbiter_drill_files $py manage.py shell < "$work/compare.py" 2>/dev/null | tail -1

echo "== restore the database dump into an empty database"
fresh arbiter_drill_dump
/usr/bin/time -f "%e s wall" env DATABASE_URL="$pg/arbiter_drill_dump" $py manage.py restore --database "$made"
as arbiter_drill_dump $py manage.py shell < "$work/compare.py" 2>/dev/null | tail -1

for db in arbiter_drill arbiter_drill_files arbiter_drill_dump; do
  dropdb -h "${PGHOST:-127.0.0.1}" -U "${PGUSER:-postgres}" "$db"
done
rm -rf "$work"
