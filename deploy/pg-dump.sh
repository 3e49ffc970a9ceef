#!/bin/sh
# A PostgreSQL dump of DATABASE_URL (docs/operations.md, Backups): custom format, for pg_restore.
#   DATABASE_URL=postgres://… deploy/pg-dump.sh <destination dir> [days to keep, default 14]
# Writes <destination>/numisma-<UTC time>.dump under a temporary name, checks that pg_restore can
# read its table of contents, then renames it: a half-written dump never looks like a backup.
# Prints the file's name; exit non-zero on any failure. Run by numisma-pg-dump.service.
set -eu
destination=${1:?usage: pg-dump.sh <destination dir> [days to keep]}
keep_days=${2:-14}
: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database}"
umask 077
mkdir -p "$destination"
file="$destination/numisma-$(date -u +%Y%m%dT%H%M%SZ).dump"
trap 'rm -f "$file.partial"' EXIT
pg_dump --format=custom --file="$file.partial" "$DATABASE_URL"
pg_restore --list "$file.partial" >/dev/null
mv "$file.partial" "$file"
trap - EXIT
find "$destination" -maxdepth 1 -name 'numisma-*.dump' -mtime +"$keep_days" -delete
echo "$file"
