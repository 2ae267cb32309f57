# Sourced by the seed 004 scripts (pg-context-stats.sh, pg-heap-at-query.sh, pg-first-query.sh): a throwaway
# cluster in one temporary directory, with a database pN of pgbench scale 1 over N partitions
# and the index on bid (sql/seed004-partitions.sql) for each N of the grid. The directory,
# and any server or client of the calling script, are gone on every exit.
#
#   seed004_check SCRIPT BINDIR N...    exit 2, naming SCRIPT, unless BINDIR holds a server's
#                                       binaries and every N is a positive integer
#   seed004_cluster BINDIR NAME N...    sets $dir; the server is left running, started with
#                                       `-c NAME=VALUE` for each word of $seed004_settings
#                                       (empty: PostgreSQL's defaults)
#   seed004_backend_gdb GDBFILE DB GUCS QUERIES OUT
#                                       a normal backend under gdb: a psql session on DB whose
#                                       first statements are QUERIES runs of seed 004's query
#                                       (as a pgbench backend's are), GUCS in PGOPTIONS; gdb
#                                       runs GDBFILE attached during post_auth_delay (2 s, the
#                                       one difference from a pgbench backend), so it sees the
#                                       backend's first MessageContext reset; OUT gets gdb's
#                                       output, then what the backend wrote to the server log
#                                       meanwhile (MemoryContextStats goes there)
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
  local opts="-k $dir -c listen_addresses=''" kv
  for kv in ${seed004_settings:-}; do opts+=" -c $kv"; done
  as_owner "$seed004_bin/pg_ctl" -D "$dir/data" -o "$opts" -l "$dir/log" -w start >/dev/null
  for n in "$@"; do
    as_owner "$seed004_bin/psql" -h "$dir" -U postgres -qX -c "CREATE DATABASE p$n" postgres
    as_owner "$seed004_bin/psql" -h "$dir" -U postgres -qX -v partitions="$n" -f "$sql" "p$n" >/dev/null 2>&1
  done
}

seed004_backend_gdb() {
  local gdbfile=$1 db=$2 gucs=$3 queries=$4 out=$5 post old new pid="" mark g k
  local q='select count(*) from pgbench_accounts where bid = 0;'
  post=$(head -1 "$dir/data/postmaster.pid")
  old=$(pgrep -P "$post" | sort)
  rm -f "$dir/fifo" "$dir/psql.out"
  mkfifo "$dir/fifo"
  chmod 666 "$dir/fifo"
  as_owner env PGOPTIONS="$gucs -c post_auth_delay=2" "$seed004_bin/psql" -h "$dir" -U postgres -qXAt "$db" < "$dir/fifo" > "$dir/psql.out" 2>&1 &
  exec 3> "$dir/fifo"
  for _ in $(seq 100); do
    new=$(comm -13 <(echo "$old") <(pgrep -P "$post" | sort))
    [ -n "$new" ] && { pid=$new; break; }
    sleep 0.02
  done
  [[ $pid =~ ^[0-9]+$ ]] || { echo "seed004: no new backend for the psql session on $db (got \`$pid')" >&2; exit 1; }
  mark=$(wc -c < "$dir/log")
  gdb -q -batch -nx -x "$gdbfile" -ex continue -p "$pid" > "$out" 2>&1 &
  g=$!
  for k in $(seq "$queries"); do echo "$q" >&3; done
  echo '\echo done' >&3
  for _ in $(seq 1200); do grep -q "^done" "$dir/psql.out" && break; sleep 0.05; done
  echo '\q' >&3
  exec 3>&-
  wait "$g" || true
  wait || true
  tail -c +"$((mark + 1))" "$dir/log" >> "$out"
}
