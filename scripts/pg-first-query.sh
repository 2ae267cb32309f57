#!/usr/bin/env bash
# What a backend's first run of seed 004's query does that later runs do not: during planning
# (pg_parse_query to standard_ExecutorStart), the pallocs in MessageContext over AllocSet's
# 8 KiB chunk limit (each a malloc of its own: a catalog index scan's BTScanOpaque, 27,352
# bytes on 18) and the bytes of the others, and the contexts created; then MessageContext at
# standard_ExecutorEnd. Queries 1 to 3 of
# a single-user backend under gdb, pgbench scale 1 over N partitions with the index on bid.
#
#   scripts/pg-first-query.sh [--events [--backend]] [--form index-only|index] BINDIR [N ...]
#                                                                   (default N: 1 5)
#
# --form index plans plain Index Scans (enable_indexonlyscan and enable_bitmapscan off, as
# the servers' sweep does for that form); the default is the planner's index-only scans.
# --events prints, for each N, query 1's planning event by event, as the model replays it
# (src/study/alloc_churn/first-query-18.6-FORM.txt is this output; pg-first-query-events.gdb
# says what is traced), then as comments the bytes used in the contexts it created.
# --backend records it in a normal backend instead of a single-user one: a psql session whose
# first statement is the query (as a pgbench backend's is), the form in PGOPTIONS, gdb attached
# during post_auth_delay (2 s, set in PGOPTIONS too: the one difference from a pgbench backend),
# so it sees the backend's first MessageContext reset. A normal backend's first query plans with
# more in MessageContext than a single-user one's (a fifth, 64 KiB block at 4 partitions on 18.6).
#
# Needs gdb. As root, the server runs as the postgres OS user; everything lives in one
# temporary directory, removed on every exit (scripts/seed004-cluster.sh).
set -euo pipefail
events=0
form=index-only
backend=0
if [ "${1:-}" = --events ]; then events=1; shift; fi
if [ $events = 1 ] && [ "${1:-}" = --backend ]; then backend=1; shift; fi
if [ "${1:-}" = --form ]; then form=${2:-}; shift 2 || true; fi
case $form in
  index-only) gucs="" ;;
  index) gucs="-c enable_indexonlyscan=off -c enable_bitmapscan=off" ;;
  *) echo "pg-first-query: unknown scan form \`$form': valid forms are index-only, index" >&2; exit 2 ;;
esac
bin=${1:?usage: scripts/pg-first-query.sh [--events [--backend]] [--form index-only|index] BINDIR [N ...]}
shift
grid=("$@")
[ ${#grid[@]} -gt 0 ] || grid=(1 5)
# shellcheck source=scripts/seed004-cluster.sh
. "$(dirname "$0")/seed004-cluster.sh"
seed004_check pg-first-query "$bin" "${grid[@]}"
command -v gdb >/dev/null || { echo "pg-first-query: gdb not found: apt-get install gdb" >&2; exit 2; }
seed004_cluster "$bin" firstq "${grid[@]}"
[ $backend = 1 ] || as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null

q='select count(*) from pgbench_accounts where bid = 0;'
printf '%s\n%s\n%s\n' "$q" "$q" "$q" > "$dir/q.sql"
# palloc's and MemoryContextAlloc's size is their first or second argument (x86-64: rdi, rsi).
cat > "$dir/trace.gdb" <<'EOF'
set pagination off
set confirm off
set $q = 0
set $on = 0
break pg_parse_query
commands
silent
set $q = $q + 1
set $on = 1
continue
end
break standard_ExecutorStart
commands
silent
set $on = 0
continue
end
break standard_ExecutorEnd
commands
silent
printf "END %d ", $q
call (void) MemoryContextStats(*(void **) &MessageContext)
continue
end
break AllocSetContextCreateInternal if $on
commands
silent
printf "C %d %s\n", $q, (char *) $rsi
continue
end
break palloc if $on && *(void **) &CurrentMemoryContext == *(void **) &MessageContext
commands
silent
printf "A %d %lu\n", $q, $rdi
continue
end
break palloc0 if $on && *(void **) &CurrentMemoryContext == *(void **) &MessageContext
commands
silent
printf "A %d %lu\n", $q, $rdi
continue
end
break MemoryContextAlloc if $on && $rdi == *(long *) &MessageContext
commands
silent
printf "A %d %lu\n", $q, $rsi
continue
end
break MemoryContextAllocZero if $on && $rdi == *(long *) &MessageContext
commands
silent
printf "A %d %lu\n", $q, $rsi
continue
end
EOF
chmod 644 "$dir/q.sql" "$dir/trace.gdb"
here=$(cd "$(dirname "$0")" && pwd)
if [ $events = 1 ]; then
  cp "$here/pg-first-query-events.gdb" "$dir/events.gdb"
  chmod 644 "$dir/events.gdb"
  kind="single-user backend"
  [ $backend = 1 ] && kind="normal backend, psql, the query its first statement"
  echo "# $("$bin/postgres" --version): seed 004's query, $form scans, query 1's planning in MessageContext ($kind)"
  for n in "${grid[@]}"; do
    if [ $backend = 0 ]; then
      as_owner gdb -q -batch -nx -x "$dir/events.gdb" -ex "run --single $gucs -D $dir/data p$n < $dir/q.sql" --args "$bin/postgres" > "$dir/out" 2>&1 || true
    else
      seed004_backend_gdb "$dir/events.gdb" "p$n" "$gucs" 1 "$dir/out"
    fi
    python3 "$here/pg-first-query-events.py" "$dir/out" "$n"
  done
  exit 0
fi
echo "# $("$bin/postgres" --version): seed 004's query, $form scans, planning of queries 1-3 (single-user backend)"
echo "partitions query large_pallocs large_bytes other_palloc_bytes contexts_created message_context_at_executor_end"
for n in "${grid[@]}"; do
  as_owner gdb -q -batch -nx -x "$dir/trace.gdb" -ex "run --single $gucs -D $dir/data p$n < $dir/q.sql" --args "$bin/postgres" > "$dir/out" 2>&1 || true
  python3 - "$dir/out" "$n" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
large, large_bytes, other, ctx, end = {}, {}, {}, {}, {}
for line in text.splitlines():
    p = line.split(" ", 2)
    if p[0] == "A" and len(p) == 3:
        q, size = int(p[1]), int(p[2])
        if size > 8192:
            large[q] = large.get(q, 0) + 1
            large_bytes[q] = large_bytes.get(q, 0) + size
        else:
            other[q] = other.get(q, 0) + size
    elif p[0] == "C" and len(p) == 3:
        ctx[int(p[1])] = ctx.get(int(p[1]), 0) + 1
for m in re.finditer(r"END (\d+) .*?MessageContext: (\d+) total in (\d+) blocks; \d+ free \(\d+ chunks\); (\d+) used", text, re.S):
    end[int(m.group(1))] = f"{m.group(2)}/{m.group(3)}/{m.group(4)}"
if len(end) != 3:
    sys.exit(f"pg-first-query: expected 3 queries' ExecutorEnd, found {len(end)} (is gdb allowed to ptrace? see {sys.argv[1]})")
for q in (1, 2, 3):
    print(sys.argv[2], q, large.get(q, 0), large_bytes.get(q, 0), other.get(q, 0), ctx.get(q, 0), end[q])
EOF
done
echo "(message_context_at_executor_end: total bytes in blocks / blocks / used)"
