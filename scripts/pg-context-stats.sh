#!/usr/bin/env bash
# What seed 004's query holds in memory on a real server: MemoryContextStats of MessageContext
# (the planner's memory) and ExecutorState (the executor's) at standard_ExecutorEnd, before any
# scan ends, for pgbench scale 1 over N partitions with the index on bid (sql/seed004-partitions.sql),
# in the index-only plan and with enable_indexonlyscan off (plain index scans). A single-user
# backend runs the query three times under gdb; the third query's figures are printed, one
# line a point, as `MemoryContextStats` prints them (total bytes in blocks, blocks, used).
#
#   scripts/pg-context-stats.sh [--backend] BINDIR [N ...]   (default N: 1 2 3 4 5 6 8 16 100)
#
# --backend measures a normal backend instead, as pgbench's are: a psql session whose first
# statements are the three queries, the form's settings in PGOPTIONS, gdb attached during
# post_auth_delay. Its planner does more than a single-user backend's (parallel query is
# possible under a postmaster: per partition, the planner considers partial paths), so
# MessageContext holds more.
#
# BINDIR holds initdb, pg_ctl, psql and postgres (Debian's /usr/lib/postgresql/15/bin, or a
# wheel's under target/hotloops-data/servers/). Needs gdb (apt-get install gdb). As root, the
# server runs as the postgres OS user. Everything it makes lives in one temporary directory,
# removed (server stopped first) on every exit. The alloc-churn model's node bytes and the
# test that holds the model to these figures (tests/alloc_churn.rs) come from its output.
set -euo pipefail
backend=0
if [ "${1:-}" = --backend ]; then backend=1; shift; fi
bin=${1:?usage: scripts/pg-context-stats.sh [--backend] BINDIR [N ...]}
shift
grid=("$@")
[ ${#grid[@]} -gt 0 ] || grid=(1 2 3 4 5 6 8 16 100)
# shellcheck source=scripts/seed004-cluster.sh
. "$(dirname "$0")/seed004-cluster.sh"
seed004_check pg-context-stats "$bin" "${grid[@]}"
command -v gdb >/dev/null || { echo "pg-context-stats: gdb not found: apt-get install gdb" >&2; exit 2; }
seed004_cluster "$bin" ctxstats "${grid[@]}"
[ $backend = 1 ] || as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null

q='select count(*) from pgbench_accounts where bid = 0;'
printf '%s\n%s\n%s\n' "$q" "$q" "$q" > "$dir/index-only.sql"
printf 'set enable_indexonlyscan = off;\n%s\n%s\n%s\n' "$q" "$q" "$q" > "$dir/plain.sql"
cat > "$dir/stats.gdb" <<'EOF'
set pagination off
set confirm off
break standard_ExecutorEnd
commands 1
silent
call (void) MemoryContextStats(*(void **) &TopMemoryContext)
continue
end
EOF
chmod 644 "$dir"/*.sql "$dir/stats.gdb"
version=$("$bin/postgres" --version)
kind="a single-user backend"
[ $backend = 1 ] && kind="a normal backend (psql, the queries its first statements, as pgbench)"
echo "# $version, $kind: MemoryContextStats at the third query's standard_ExecutorEnd (total bytes in blocks, blocks, used)"
echo "partitions form message_total message_blocks message_used executor_total executor_blocks executor_used expr_contexts"
for form in index-only plain; do
  for n in "${grid[@]}"; do
    if [ $backend = 1 ]; then
      gucs=""
      [ $form = plain ] && gucs="-c enable_indexonlyscan=off -c enable_bitmapscan=off"
      seed004_backend_gdb "$dir/stats.gdb" "p$n" "$gucs" 3 "$dir/out"
    else
      as_owner gdb -q -batch -nx -x "$dir/stats.gdb" -ex "run --single -D $dir/data p$n < $dir/$form.sql" --args "$bin/postgres" > "$dir/out" 2>&1 || true
    fi
    python3 - "$dir/out" "$n" "$form" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
dumps = text.split("TopMemoryContext:")[1:]
if len(dumps) != 3:
    sys.exit(f"pg-context-stats: expected 3 ExecutorEnd dumps, found {len(dumps)} (is gdb allowed to ptrace? see {sys.argv[1]})")
d = dumps[-1]
def ctx(name):
    m = re.search(r"\n\s*" + name + r": (\d+) total in (\d+) blocks; \d+ free \(\d+ chunks\); (\d+) used", d)
    if not m:
        sys.exit(f"pg-context-stats: no {name} in the third dump")
    return m.group(1), m.group(2), m.group(3)
print(sys.argv[2], sys.argv[3], *ctx("MessageContext"), *ctx("ExecutorState"), len(re.findall(r"\n\s*ExprContext:", d)))
EOF
  done
done
