#!/usr/bin/env bash
# Where seed 004's query takes its memory from, on a real backend and in the alloc-churn model:
# minor faults per query, and glibc's main heap at the query's start and at ExecutorEnd.
#
#   scripts/pg-heap-at-query.sh [--earlier-statement] [--holes] [--setting NAME=VALUE ...] BINDIR [N ...]
#                                                                   (default N: 3 4 5 6 8)
#
# For each scan form (index-only, the planner's plan; index, plain Index Scans with
# enable_indexonlyscan and enable_bitmapscan off, set as pgbench's runs set them: PGOPTIONS)
# and partition count N (pgbench scale 1, sql/seed004-partitions.sql):
#   server  a backend driven by psql (simple protocol, as pgbench's is) whose first statement
#           is the seed's query, as a pgbench backend's is (its pid read from pg_stat_activity
#           by another connection); with --earlier-statement, the session first runs
#           `select pg_backend_pid()` (and the form's SETs), as an interactive psql user would,
#           which leaves the heap another shape (seed004-heap.md). 10 queries, then the minor
#           faults of the next 200 (/proc/PID/stat, no debugger);
#   pgbench the query as a pgbench script (1 client, simple protocol, the form in PGOPTIONS):
#           the backend's minor faults a transaction between two instants of a 5 s run;
#   heap    with gdb and glibc's debug symbols, a second such backend attached: glibc's
#           thresholds (mp_), the heap, the top chunk and the bytes free below it (mallinfo2)
#           where pg_parse_query starts and where standard_ExecutorEnd starts, the fourth query;
#   model   target/release/hotloops worker measuring alloc-churn/palloc-routine at N in that
#           form (its faults per query), and the same heap figures under gdb at the kernel's
#           entry and the query's first btendscan.
# "free below" is mallinfo2's free bytes less the top chunk, and mallinfo2 counts every arena:
# right for a backend (one thread), too high by the other arena's free top for the model's
# worker (a second thread's; malloc_info in gdb shows the main heap's alone).
# --holes adds, under each heap row, the main heap's free chunks of 1 KiB or more (offset from
# the heap's start and size; tcache and fastbin chunks are all smaller) at the query's start and
# at its end: which holes the query fills, side by side for the server and the model.
# --setting NAME=VALUE (repeatable) starts the server with that setting (postgres -c): every
# row's backend runs under it; the model's row does not change. With none, PostgreSQL's
# defaults, which is what pgbench against a fresh initdb sees. One setting at a time is how
# max_parallel_workers_per_gather = 0 was found to move the index-only cliff from 5 to 4
# partitions on 15.20 (analysis/kvm-amd-epyc-2core/pg/seed004-heap.md).
# "from top" is how far the top chunk moved up during the query (what the query took from
# the heap's top rather than from chunks freed below it); "grew" what the heap grew by; a
# heap that grows during a query and is back at the next start was trimmed.
#
# BINDIR holds initdb, pg_ctl, psql and postgres. As root, the server runs as the postgres OS
# user. Everything lives in one temporary directory, removed (server and clients stopped
# first) on every exit.
set -euo pipefail
earlier=0
holes=0
seed004_settings=""
while [ $# -gt 0 ]; do
  case $1 in
    --earlier-statement) earlier=1; shift ;;
    --holes) holes=1; shift ;;
    --setting)
      [[ ${2:-} =~ ^[a-z_][a-z0-9_.]*=[A-Za-z0-9_.+-]+$ ]] || { echo "pg-heap-at-query: --setting needs NAME=VALUE (letters, digits, _ . + -), got \`${2:-}'" >&2; exit 2; }
      seed004_settings+=" $2"; shift 2 ;;
    -*) echo "pg-heap-at-query: unknown option \`$1' (valid: --earlier-statement, --holes, --setting NAME=VALUE)" >&2; exit 2 ;;
    *) break ;;
  esac
done
bin=${1:?usage: scripts/pg-heap-at-query.sh [--earlier-statement] [--holes] [--setting NAME=VALUE ...] BINDIR [N ...]}
shift
grid=("$@")
[ ${#grid[@]} -gt 0 ] || grid=(3 4 5 6 8)
# shellcheck source=scripts/seed004-cluster.sh
. "$(dirname "$0")/seed004-cluster.sh"
seed004_check pg-heap-at-query "$bin" "${grid[@]}"
# Absolute: pgbench runs in the temporary directory, where it writes its transaction log.
bin=$(cd "$bin" && pwd)
for n in "${grid[@]}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "pg-heap-at-query: partition count \`$n' is not a positive integer" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
hotloops=$root/target/release/hotloops
[ -x "$hotloops" ] || { echo "pg-heap-at-query: $hotloops not found: cargo build --release" >&2; exit 2; }
# The heap columns need gdb and glibc's malloc state by name (Debian: libc6-dbg, or debuginfod).
heap=0
if command -v gdb >/dev/null && gdb -q -batch -nx -ex 'ptype struct malloc_par' "$(ldd "$bin/postgres" | awk '/libc.so/ {print $3}')" 2>/dev/null | grep -q trim_threshold; then
  heap=1
else
  echo "pg-heap-at-query: no gdb or no glibc debug symbols (apt-get install gdb libc6-dbg): faults only" >&2
fi

seed004_cluster "$bin" heapq "${grid[@]}"

# One gdb macro for both sides: glibc's thresholds and heap, the top chunk, free bytes below it.
cat > "$dir/heap.gdb" <<'EOF'
set pagination off
set confirm off
set language c
define heapstate
printf "%s trim_threshold=%lu top_pad=%lu mmap_threshold=%lu system_mem=%lu top_off=%lu top_size=%lu free=%lu\n", $arg0, mp_.trim_threshold, mp_.top_pad, mp_.mmap_threshold, main_arena.system_mem, (unsigned long)((char *) main_arena.top - (char *) mp_.sbrk_base), main_arena.top->mchunk_size & ~7, mallinfo2().fordblks
holes
end
python
import gdb
class Holes(gdb.Command):
    """Free chunks of 1 KiB or more in the main heap, below its top: offset:size."""
    def __init__(self):
        super().__init__("holes", gdb.COMMAND_USER)
    def invoke(self, arg, from_tty):
        if not HOLES:
            return
        inf = gdb.selected_inferior()
        word = lambda a: int.from_bytes(bytes(inf.read_memory(a, 8)), "little")
        base = int(gdb.parse_and_eval("(unsigned long) mp_.sbrk_base"))
        top = int(gdb.parse_and_eval("(unsigned long) main_arena.top"))
        # The first chunk starts at the first 16-byte boundary (glibc aligns sbrk_base's start).
        p, out = (base + 15) & ~15, []
        while p < top:
            size = word(p + 8) & ~7
            if size < 32:
                out.append(f"corrupt@{p - base}")
                break
            if size >= 1024 and not word(p + size + 8) & 1:
                out.append(f"{p - base}:{size}")
            p += size
        print("holes " + (" ".join(out) or "none"))
Holes()
end
EOF
echo "python HOLES = $([ $holes = 1 ] && echo True || echo False)" >> "$dir/heap.gdb"
cp "$dir/heap.gdb" "$dir/server.gdb"
cat >> "$dir/server.gdb" <<'EOF'
break standard_ExecutorEnd
commands 1
silent
heapstate "executor-end"
continue
end
break pg_parse_query
commands 2
silent
heapstate "query-start"
continue
end
continue
EOF
cp "$dir/heap.gdb" "$dir/model.gdb"
end_sym=$(nm "$hotloops" | awk '/amapi4scan9btendscan/ {s = $3} END {print s}')
alloc_sym=$(nm "$hotloops" | awk '/mcxt8AllocSet5alloc17h/ {s = $3} END {print s}')
# The model's query resets MessageContext inside the kernel, where the server's PostgresMain
# does it before pg_parse_query: its query starts at the kernel's first palloc, after that
# reset (a breakpoint that stops only when the kernel's entry armed it).
cat >> "$dir/model.gdb" <<EOF
break hotloops_alloc_churn_palloc_routine
commands 1
silent
python AfterReset.armed = True
continue
end
break *(&'$end_sym')
commands 2
silent
if \$first
heapstate "executor-end"
set \$first = 0
end
continue
end
python
class AfterReset(gdb.Breakpoint):
    armed = False
    def stop(self):
        stop, AfterReset.armed = AfterReset.armed, False
        return stop
AfterReset("*(&'$alloc_sym')")
end
commands 3
silent
heapstate "query-start"
set \$first = 1
continue
end
run
EOF
chmod 644 "$dir"/*.gdb

q='select count(*) from pgbench_accounts where bid = 0;'
# Open a psql session on database $1 in form $2 whose backend pid lands in $dir/pid. The
# session runs no statement of its own: the form comes in PGOPTIONS and the pid from
# pg_stat_activity (another backend's query), unless --earlier-statement asks for psql's way.
session() {
  rm -f "$dir/fifo" "$dir/psql.out"
  mkfifo "$dir/fifo"
  chmod 666 "$dir/fifo"
  local opts=""
  [ "$2" = index ] && [ $earlier = 0 ] && opts="-c enable_indexonlyscan=off -c enable_bitmapscan=off"
  as_owner env PGOPTIONS="$opts" "$bin/psql" -h "$dir" -U postgres -qXAt "$1" < "$dir/fifo" > "$dir/psql.out" 2>&1 &
  exec 3> "$dir/fifo"
  if [ $earlier = 1 ]; then
    [ "$2" = index ] && echo "set enable_indexonlyscan = off; set enable_bitmapscan = off;" >&3
    echo "select 'pid', pg_backend_pid();" >&3
    sync_on pid
    awk -F'|' '$1 == "pid" {print $2}' "$dir/psql.out" > "$dir/pid"
    return
  fi
  # psql connects before it reads its input: wait for the one client backend on $1.
  local pid=""
  for _ in $(seq 600); do
    pid=$(as_owner "$bin/psql" -h "$dir" -U postgres -qXAt -c "select pid from pg_stat_activity where datname = '$1' and backend_type = 'client backend'" postgres)
    [ -n "$pid" ] && break
    sleep 0.05
  done
  [[ $pid =~ ^[0-9]+$ ]] || { echo "pg-heap-at-query: no single backend of the psql session on $1 (got \`$pid')" >&2; exit 1; }
  echo "$pid" > "$dir/pid"
}
# Wait until the session has printed a line starting with $1 (psql's \echo, after the answers
# to every statement before it).
sync_on() {
  for _ in $(seq 600); do grep -q "^$1" "$dir/psql.out" && return 0; sleep 0.05; done
  echo "pg-heap-at-query: the psql session did not answer (see $dir/log)" >&2
  exit 1
}
close_session() {
  echo '\q' >&3
  exec 3>&-
  wait
}
minflt() { awk '{print $10}' "/proc/$1/stat"; }
# Minor faults a transaction of a pgbench backend (1 client, simple protocol, the seed query as
# its script, the form in PGOPTIONS): the backend's faults between two instants of a 5 s run,
# over the transactions pgbench's own log (-l) has ending between them.
pgbench_faults() {
  local opts=""
  [ "$2" = index ] && opts="-c enable_indexonlyscan=off -c enable_bitmapscan=off"
  echo "$q" > "$dir/q.sql"
  rm -f "$dir"/pgb.*
  chmod 777 "$dir"
  # The last run's backend may still be listed while it exits: take a pid not listed before.
  local before
  before=$(as_owner "$bin/psql" -h "$dir" -U postgres -qXAt -c "select coalesce(string_agg(pid::text, ','), '0') from pg_stat_activity where application_name = 'pgbench'" postgres)
  ( cd "$dir" && as_owner env PGOPTIONS="$opts" "$bin/pgbench" -h "$dir" -U postgres -n -c 1 -M simple -T 5 -l --log-prefix=pgb -f q.sql "$1" > "$dir/pgbench.out" 2>&1 ) &
  local pb=$! pid="" t0 t1 f0 f1
  for _ in $(seq 200); do
    pid=$(as_owner "$bin/psql" -h "$dir" -U postgres -qXAt -c "select pid from pg_stat_activity where datname = '$1' and application_name = 'pgbench' and pid not in ($before)" postgres)
    [ -n "$pid" ] && break
    sleep 0.05
  done
  sleep 1.5
  t0=$(date +%s.%N); f0=$(minflt "$pid" 2>/dev/null || true)
  sleep 2
  t1=$(date +%s.%N); f1=$(minflt "$pid" 2>/dev/null || true)
  if [ -z "$f0" ] || [ -z "$f1" ]; then
    wait $pb || true
    echo "pg-heap-at-query: the pgbench backend on $1 (pid $pid) exited before it was sampled:" >&2
    sed 's/^/  /' "$dir/pgbench.out" >&2
    echo "-"
    return
  fi
  if ! wait $pb; then
    echo "pg-heap-at-query: pgbench on $1 failed:" >&2
    sed 's/^/  /' "$dir/pgbench.out" >&2
    echo "-"
    return
  fi
  # Log lines: client transaction latency_us script epoch_s epoch_us (the transaction's end).
  cat "$dir"/pgb.* | python3 -c "
import sys
t0, t1, f0, f1 = map(float, sys.argv[1:])
n = sum(1 for l in sys.stdin if t0 <= int(l.split()[4]) + int(l.split()[5]) / 1e6 <= t1)
print(f'{(f1 - f0) / n:.2f}' if n else '-')" "$t0" "$t1" "$f0" "$f1"
}
# The steady-state cycle (the last query-start with its executor-end and the next start) of a
# heap trace in $1, as: heap_at_start top free_below from_top grew free_below_at_end.
cycle() {
  python3 - "$1" "$holes" <<'EOF'
import re, sys
rows, holes = [], []
for line in open(sys.argv[1]):
    m = re.match(r"(query-start|executor-end) trim_threshold=(\d+) top_pad=(\d+) mmap_threshold=(\d+) system_mem=(\d+) top_off=(\d+) top_size=(\d+) free=(\d+)", line)
    if m:
        rows.append((m.group(1), *map(int, m.groups()[4:]), "/".join(m.groups()[1:4])))
        holes.append("-")
    elif line.startswith("holes ") and holes:
        holes[-1] = line[6:].strip()
starts = [i for i, r in enumerate(rows) if r[0] == "query-start" and i + 2 < len(rows) and rows[i + 1][0] == "executor-end"]
if not starts:
    print("- - - - - - -")
    sys.exit()
i = starts[-1]
a, b = rows[i], rows[i + 1]
print(a[1], a[3], a[4] - a[3], b[2] - a[2], b[1] - a[1], b[4] - b[3], a[5])
if sys.argv[2] == "1":
    print(f"  holes at start: {holes[i]}")
    print(f"  holes at end:   {holes[i + 1]}")
EOF
}

version=$("$bin/postgres" --version)
drive="psql, the seed query first (as pgbench)"
[ $earlier = 1 ] && drive="psql, select pg_backend_pid() (and the form's SETs) first"
[ -n "$seed004_settings" ] && drive+="; server settings:$seed004_settings"
echo "# $version ($drive) and the alloc-churn model: minor faults a query and glibc's heap (bytes)"
echo "who form N faults/query heap_at_start top free_below from_top grew free_below_at_end trim/top_pad/mmap_thresholds"
for form in index-only index; do
  for n in "${grid[@]}"; do
    session "p$n" "$form"
    pid=$(cat "$dir/pid")
    for _ in $(seq 10); do echo "$q" >&3; done
    echo '\echo warm' >&3
    sync_on warm
    f0=$(minflt "$pid")
    for _ in $(seq 200); do echo "$q" >&3; done
    echo '\echo done' >&3
    sync_on done
    f1=$(minflt "$pid")
    close_session
    cols="- - - - - - -"
    if [ $heap = 1 ]; then
      session "p$n" "$form"
      : > "$dir/gdb.out"
      gdb -q -batch -nx -x "$dir/server.gdb" -p "$(cat "$dir/pid")" > "$dir/gdb.out" 2>&1 &
      for _ in $(seq 200); do grep -q "Breakpoint 2 at" "$dir/gdb.out" && break; sleep 0.05; done
      # The last command of the file, `continue`, follows the breakpoints.
      sleep 0.5
      for k in 1 2 3 4 5; do echo "$q" >&3; echo "\\echo q$k" >&3; sync_on "q$k"; done
      close_session
      cols=$(cycle "$dir/gdb.out")
    fi
    echo "server $form $n $(python3 -c "print(f'{($f1 - $f0) / 200:.2f}')") $cols"
    [ -x "$bin/pgbench" ] && echo "pgbench $form $n $(pgbench_faults "p$n" "$form") - - - - - - -"
    req="{\"request\":\"point\",\"variant\":\"alloc-churn/palloc-routine\",\"partitions\":$n,\"form\":\"$form\",\"accounts\":100000,\"key\":0"
    # A fresh worker process a point, as the sweep runs it (it exits if its stdin closes
    # before it has answered).
    faults=$(python3 - "$hotloops" "$req,\"target_ms\":20,\"min_queries\":50,\"max_queries\":5000}" <<'EOF'
import json, subprocess, sys
w = subprocess.Popen([sys.argv[1], "worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
w.stdin.write(sys.argv[2] + "\n")
w.stdin.flush()
reply = json.loads(w.stdout.readline())
w.stdin.close()
w.wait()
print(f"{reply['ok']['minor_faults']:.2f}")
EOF
)
    cols="- - - - - - -"
    if [ $heap = 1 ]; then
      # The worker exits when its stdin closes: keep it open while it runs.
      (echo "$req,\"target_ms\":1,\"min_queries\":3,\"max_queries\":3}"; sleep 5) | gdb -q -batch -nx -x "$dir/model.gdb" --args "$hotloops" worker > "$dir/gdb.out" 2>&1 || true
      cols=$(cycle "$dir/gdb.out")
    fi
    echo "model $form $n $faults $cols"
  done
done
