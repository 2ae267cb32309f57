#!/usr/bin/env bash
# Re-runs issue 44's probes against this checkout's release build and prints each command with
# what it printed (the tail) and its exit code: what analysis/exit-paths-44.md quotes.
# Needs PostgreSQL (Debian's 15, the wheels 17 and 18: HOTLOOPS_SERVERS_DIR), valgrind and
# llvm-mca-19. Everything goes under one temporary directory, removed at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
H=$PWD/target/release/hotloops
A=$PWD/analysis
V=$(mktemp -d /tmp/v44-XXXXXX)
trap 'chattr -i "$V"/* 2>/dev/null; rm -rf "$V"' EXIT
export HOTLOOPS_LOCK_DIR=$V/locks HOTLOOPS_DATA_DIR=${HOTLOOPS_DATA_DIR:-$PWD/target/hotloops-data}
mkdir -p "$HOTLOOPS_LOCK_DIR"
# A shell started from a script ignores SIGINT in its background jobs: reset it.
trap - INT

# probe TITLE CMD...: the command, the last lines it printed, its exit code.
probe() {
  local title=$1; shift
  echo "### $title"
  local cmd="$*"; cmd=${cmd//$V/\$V}; cmd=${cmd//$PWD\//}
  echo '$ '"$cmd"
  local out rc
  out=$("$@" 2>&1); rc=$?
  printf '%s\n' "$out" | tail -n "${TAIL:-4}" | sed "s|$V|\$V|g; s|$PWD/||g" | cut -c1-220
  echo "-> exit $rc"
  echo
}

# ls of a directory, dot files included, as one line.
lsd() { (cd "$1" 2>/dev/null && ls -A | tr '\n' ' '); echo; }

echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) CPUs; $(uname -sr); hotloops $(git rev-parse --short HEAD)"
echo

echo "## 1. A run removes only its own earlier files; never its inputs"
R=$V/r
probe "a report's files in R" "$H" render "$A/kvm-amd-epyc-2core/quick-ca658cf/report.json" --out "$R"
sums() { (cd "$R" && md5sum report.json report.md report.html local-index.svg tid-batch.svg dir-by-value.svg read-stream.svg alloc-churn.svg); }
before=$(sums)
probe "compare reading R/report.json, into R" "$H" compare "$R/report.json" "$A/kvm-amd-epyc-2core/report.json" --out "$R"
probe "compare --baseline with R/report.json as the new side, into R" "$H" compare --baseline "$A/kvm-amd-epyc-2core/quick-d5e1a56/report.json" "$R/report.json" --out "$R"
probe "layout into R" "$H" layout local-index --size test --budget-ms 10 --layouts natural --processes 1 --out "$R"
echo "the report's files byte for byte: $([ "$before" = "$(sums)" ] && echo unchanged || echo CHANGED)"
echo "R: $(lsd "$R")"
echo
cp "$A/kvm-amd-epyc-2core/quick-ca658cf/report.json" "$R/compare.md"
probe "compare whose output is its own input" "$H" compare "$R/compare.md" "$A/kvm-amd-epyc-2core/report.json" --out "$R"
probe "render of another report into R" "$H" render "$A/kvm-amd-epyc-2core/report.json" --out "$R"
TAIL=1 probe "the same with --force" "$H" render "$A/kvm-amd-epyc-2core/report.json" --out "$R" --force
P=$V/pg
probe "pg --study read-stream into P" "$H" pg --study read-stream --server 18 --rows 20000 --rounds 2 --cache warm --io-method sync --out "$P"
probe "pg --seed 004 into P" "$H" pg --seed 004 --server 17 --server 18 --grid 1 --seconds 1 --rounds 2 --arm plain --protocol simple --clients 1 --bid-index on --no-who-allocates --out "$P"
echo "P: $(lsd "$P")"
echo

echo "## 2. Every numeric flag bounded"
TAIL=3 probe "rounds past memory" "$H" pg --rounds 1000000000000 --out "$V/n"
TAIL=3 probe "rounds past usize" "$H" pg --rounds 18446744073709551615 --out "$V/n"
TAIL=3 probe "rows" "$H" pg --rows 18446744073709551615 --out "$V/n"
TAIL=3 probe "grid and seconds" "$H" pg --sweep-partitions --grid 100000 --seconds 99999999999 --out "$V/n"
TAIL=3 probe "report's rows" "$H" report --pg --pg-rows 18446744073709551615 --out "$V/n"
TAIL=3 probe "counters past u64" "$H" counters local-index/local --runs 99999999999999999999999
start=$(date +%s)
probe "a 10 s block on a 10 ms budget" "$H" paired local-index/store-each local-index/local --case table3 --size test --budget-ms 10 --block-us 10000000
echo "(took $(( $(date +%s) - start )) s; no --out was created: $([ -e "$V/n" ] && echo NO || echo yes)"
echo

echo "## 3. A server never outlives its run"
T=$V/tmp; mkdir -p "$T"; chmod 755 "$V" "$T"
# long_pg: a pg run with its own TMPDIR, killed with SIGKILL once its rounds run.
long_pg() {
  rm -f "$V/k.err"
  TMPDIR=$T "$H" pg --server 15 --rows 10000 --rounds 1000000 --case btree-few --cache warm --out "$V/k" >/dev/null 2>"$V/k.err" &
  PGPID=$!
  until grep -q 'cache state warm' "$V/k.err" 2>/dev/null; do sleep 0.2; done
}
# running PID: alive and not a zombie (this VM's PID 1 reaps re-parented children late).
running() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^Z'; }
long_pg
root=$(ls -d "$T"/hotloops-pg-*); pm=$(head -1 "$root/data/postmaster.pid")
echo "run $PGPID, cluster ${root//$V/\$V}, postmaster $pm; kill -9 $PGPID"
kill -9 $PGPID; wait $PGPID 2>/dev/null
for i in $(seq 100); do { [ -e "$root" ] || running "$pm"; } || break; sleep 0.1; done
echo "after: cluster directory $([ -e "$root" ] && echo LEFT || echo removed), postmaster $(running "$pm" && echo RUNNING || echo gone)"
echo
long_pg
root=$(ls -d "$T"/hotloops-pg-*); pm=$(head -1 "$root/data/postmaster.pid")
sup=$(pgrep -f "hotloops-cluster-supervisor $root")
echo "run $PGPID, cluster ${root//$V/\$V}, postmaster $pm, supervisor $sup; kill -9 of both"
kill -9 "$sup" $PGPID; wait $PGPID 2>/dev/null; sleep 1
echo "then: cluster directory $([ -e "$root" ] && echo left || echo removed), postmaster $(running "$pm" && echo running || echo gone)"
TMPDIR=$T probe "a later pg run (refused: no server 16)" "$H" pg --server 16 --out "$V/k2"
echo "after: cluster directory $([ -e "$root" ] && echo LEFT || echo removed), postmaster $(running "$pm" && echo RUNNING || echo gone)"
echo
for spec in "instructions tid-batch/per-tid:valgrind:hotloops-callgrind-" "model local-index --cpu skylake:harness:hotloops-model-"; do
  IFS=: read -r cmd child prefix <<<"$spec"
  # shellcheck disable=SC2086
  TMPDIR=$T "$H" $cmd >/dev/null 2>&1 &
  p=$!
  until pgrep -P $p -f "$child" >/dev/null || pgrep -f "$child.*$T|$T.*$child" >/dev/null; do sleep 0.05; kill -0 $p 2>/dev/null || break; done
  kids=$(pgrep -P $p | tr '\n' ' ')
  kill -9 $p; wait $p 2>/dev/null; sleep 1
  alive=""; for k in $kids; do running "$k" && alive="$alive $k"; done
  echo "\`$cmd\` killed with SIGKILL while $child ran: children [$kids] alive after 1 s: [${alive# }]; left in TMPDIR: $(cd "$T" && ls -d ${prefix}* 2>/dev/null | tr '\n' ' ')"
  # shellcheck disable=SC2086
  TAIL=2 TMPDIR=$T probe "the next \`$cmd\`" bash -c "'$H' $cmd 2>&1 >/dev/null | grep -E 'killed|error' ; exit \${PIPESTATUS[0]}"
  echo "left in TMPDIR: $(cd "$T" && ls -d ${prefix}* 2>/dev/null | tr '\n' ' ')"
  echo
done

echo "## 4. The --out lock under races (three sweeps at once into a new folder, a fourth a second later; 8 tries)"
for try in 1 2 3 4 5 6 7 8; do
  D=$V/race$try; pids=()
  for i in 1 2 3; do "$H" sweep alloc-churn --quick --out "$D" >/dev/null 2>"$V/race$try.$i" & pids+=($!); done
  sleep 1
  "$H" sweep alloc-churn --quick --out "$D" >/dev/null 2>"$V/race$try.4" & pids+=($!)
  codes=""; for p in "${pids[@]}"; do wait "$p"; codes="$codes $?"; done
  echo "try $try: exits${codes}; $(grep -l 'in use by' "$V"/race$try.? | wc -l) refused as in use"
done
echo

echo "## 5. A closed stderr or stdout"
TAIL=1 probe "pg with stderr closed" bash -c "'$H' pg --server 15 --rows 10000 --rounds 2 --case btree-few --cache warm --out '$V/c' 2>&-; rc=\$?; ls '$V/c'; exit \$rc"
TAIL=3 probe "pg into | head -3 (the pipeline's first status)" bash -c "'$H' pg --server 15 --rows 10000 --rounds 2 --case btree-few --cache warm --out '$V/c2' 2>&1 | head -3; rc=\${PIPESTATUS[0]}; ls '$V/c2'; exit \$rc"
echo

echo "## 6. Seed cards from one host"
INTEL=$A/kvm-intel-xeon-a7-2core/report-pg-quick-bc82631/report.json
TAIL=12 probe "an AMD report and an Intel report" bash -c "'$H' seed 000 --report '$A/kvm-amd-epyc-2core/report.json' --report '$INTEL' | sed -n '3,5p;/^Conclusion/,/^Rule/p' | grep -v '^Rule'"
TAIL=3 probe "the same, --mixed-hosts" bash -c "'$H' seed 000 --report '$A/kvm-amd-epyc-2core/report.json' --report '$INTEL' --mixed-hosts | sed -n '/^Conclusion/,/^Rule/p' | grep -v '^Rule'"
M=$V/mixed; mkdir -p "$M/pg"; cp "$A/kvm-amd-epyc-2core/pg/pg-1m.json" "$M/pg/"; echo '{"schema": "hotloops-report", "schema_version": 3}' > "$M/report.json"
TAIL=6 probe "a folder with a malformed report.json" bash -c "'$H' seed 000 --report '$M' | grep -A1 -E 'not read|^ server'"
echo

echo "## 7. The others"
TAIL=2 probe "pg --study dir-by-value with a TMPDIR the server's user cannot write" bash -c "d=\$(mktemp -d /tmp/v44t-XXXX); chmod 700 \$d; TMPDIR=\$d '$H' pg --study dir-by-value --server 18 --scale 1 --seconds 1 --rounds 2 --out '$V/dv'; rc=\$?; rm -rf \$d; exit \$rc"
DD=$V/data; mkdir -p "$DD"; cp -a "$HOTLOOPS_DATA_DIR"/pgext-15.* "$DD/"
TAIL=3 probe "pg with a data directory that cannot take the cache (chattr +i)" bash -c "chattr +i '$DD' && HOTLOOPS_DATA_DIR='$DD' '$H' pg --server 15 --rows 3000 --rounds 2 --case btree-few --cache warm --out '$V/cf' 2>&1 >/dev/null | grep -E 'warning|wrote'; rc=\${PIPESTATUS[0]}; chattr -i '$DD'; exit \$rc"
TAIL=2 probe "two sweeps at once, different --out" bash -c "'$H' sweep alloc-churn --quick --out '$V/s1' >/dev/null 2>'$V/s1.err' & sleep 0.5; '$H' sweep alloc-churn --quick --out '$V/s2' 2>&1 >/dev/null | grep -E 'waiting|wrote:'; wait; exit \$?"
TAIL=3 probe "seed 004 grid past its bound" "$H" pg --seed 004 --grid 2000 --out "$V/n"
TAIL=1 probe "clients twice" "$H" pg --seed 004 --clients 1,1 --out "$V/n"
TAIL=2 probe "interrupted pg: what the handler says" bash -c "'$H' pg --server 15 --rows 10000 --rounds 1000000 --case btree-few --cache warm --out '$V/i' 2>'$V/i.err' & p=\$!; until grep -q 'cache state warm' '$V/i.err'; do sleep 0.1; done; kill -INT \$p; wait \$p; rc=\$?; grep interrupted '$V/i.err'; exit \$rc"
TAIL=1 probe "--cpu twice" "$H" model local-index --cpu skylake,skylake --no-measure
ln -s "$V/nowhere" "$V/dangling"
TAIL=1 probe "a dangling --out link" "$H" compare "$A/kvm-amd-epyc-2core/report.json" "$A/kvm-amd-epyc-2core/quick-ca658cf/report.json" --out "$V/dangling"
TAIL=1 probe "a missing TMPDIR" env TMPDIR="$V/no-such" "$H" instructions local-index/local
TAIL=2 probe "progress on a non-terminal stderr (carriage returns counted)" bash -c "'$H' pg --server 15 --rows 10000 --rounds 3 --case btree-few --cache warm --out '$V/p' 2>'$V/p.err' >/dev/null; rc=\$?; echo \"\\r in stderr: \$(tr -cd '\\r' < '$V/p.err' | wc -c)\"; grep round '$V/p.err'; exit \$rc"
TAIL=2 probe "an interrupted sweep: its new --out" bash -c "'$H' sweep alloc-churn --out '$V/int' 2>/dev/null & p=\$!; sleep 3; kill -INT \$p; wait \$p; rc=\$?; ls -A '$V/int' 2>&1; exit \$rc"
TAIL=2 probe "list and the card" bash -c "'$H' list | grep -o 'review of TID batching v.'; '$H' seed 000 --report '$A/kvm-amd-epyc-2core/report.json' | grep -o 'review of TID batching v.'"
python3 - "$A/kvm-intel-xeon-emr-2core/pg/pg-seed004-quick.json" "$V/inf.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
rec = {"partitions": 100, "index_on_bid": True, "protocol": "simple", "clients": 1, "arm": "plain", "arm_env": [], "servers": [],
       "pair": ["17.11", "18.6"], "ratio": 0.5, "ci_low": 0.0, "ci_high": 0.9, "verdict": "slower", "aa_ratio": 1.0, "aa_floor": 0.05}
v["records"] = [rec]
json.dump(v, open(sys.argv[2], "w"))
PY
TAIL=1 probe "a seed 004 record whose TPS interval reaches 0" bash -c "'$H' seed 004 --report '$V/inf.json' | grep '^ server 17.11'"
echo "processes left: $(pgrep -f "$V" | wc -l); TMPDIR left: $(ls -A "$T" | wc -l)"
