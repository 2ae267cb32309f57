# Sourced by the seed 004 scripts (pg-context-stats.sh, pg-heap-at-query.sh): a throwaway
# cluster in one temporary directory, with a database pN of pgbench scale 1 over N partitions
# and the index on bid (sql/seed004-partitions.sql) for each N of the grid. The directory,
# and any server or client of the calling script, are gone on every exit.
#
#   seed004_check SCRIPT BINDIR N...    exit 2, naming SCRIPT, unless BINDIR holds a server's
#                                       binaries and every N is a positive integer
#   seed004_cluster BINDIR NAME N...    sets $dir; the server is left running
#
# As root, the server runs as the postgres OS user (as_owner).

seed004_check() {
  local script=$1 bindir=$2 t n
  shift 2
  for t in initdb pg_ctl psql postgres; do
    [ -x "$bindir/$t" ] || { echo "$script: $bindir/$t not found (BINDIR must hold a PostgreSQL server's binaries)" >&2; exit 2; }
  done
  for n in "$@"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "$script: partition count \`$n' is not a positive integer" >&2; exit 2; }
  done
}

as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

seed004_cleanup() {
  exec 3>&- 2>/dev/null || true
  # Clients and debuggers the calling script started: its children only.
  pkill -P $$ 2>/dev/null || true
  [ -f "$dir/data/postmaster.pid" ] && as_owner "$seed004_bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

seed004_cluster() {
  seed004_bin=$1
  local name=$2 sql n
  shift 2
  sql=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/sql/seed004-partitions.sql
  dir=$(mktemp -d "${TMPDIR:-/tmp}/hotloops-$name-XXXXXX")
  chmod 755 "$dir"
  trap seed004_cleanup EXIT
  trap 'exit 130' INT TERM
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  as_owner "$seed004_bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
  as_owner "$seed004_bin/pg_ctl" -D "$dir/data" -o "-k $dir -c listen_addresses=''" -l "$dir/log" -w start >/dev/null
  for n in "$@"; do
    as_owner "$seed004_bin/psql" -h "$dir" -U postgres -qX -c "CREATE DATABASE p$n" postgres
    as_owner "$seed004_bin/psql" -h "$dir" -U postgres -qX -v partitions="$n" -f "$sql" "p$n" >/dev/null 2>&1
  done
}
