#!/usr/bin/env bash
# One short, prepared run on a borrowed host (the project's device machine, or any machine that
# may expose a PMU): what the host is, whether perf_event_open reaches hardware counters, then
# `hotloops counters` on each study's pipeline pair and a quick report without callgrind or
# llvm-mca. Everything goes under OUTDIR as at most 8 plain files (the device tool's limit).
#
#   scripts/device-counters.sh BINARY OUTDIR [REPORT_SECONDS [REPORT_ARG...]]
#
# The binary is a release build made elsewhere; nothing is built here, since the borrowed host may
# have no Rust toolchain and no network. To travel small, strip all but the kernels' symbols
# (`strip -w -K 'hotloops_*' -K 'hl_*'`), which the code layouts need: put hotloops-layout-at-N
# beside it, stripped the same way, for a report pooled over layouts.
set -u -o pipefail

bin=${1:?usage: scripts/device-counters.sh BINARY OUTDIR [REPORT_SECONDS [REPORT_ARG...]]}
out=${2:?usage: scripts/device-counters.sh BINARY OUTDIR [REPORT_SECONDS [REPORT_ARG...]]}
report_s=${3:-240}
shift $(( $# < 3 ? $# : 3 ))
bin=$(realpath -e "$bin" 2>/dev/null) || { echo "device-counters: ${1} not found" >&2; exit 2; }
[ -x "$bin" ] || { echo "device-counters: $bin is not an executable hotloops binary" >&2; exit 2; }
mkdir -p "$out" || exit 2
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

{
  echo "## date"; date -u
  echo "## uname"; uname -a
  echo "## cpu"; grep -m1 'model name' /proc/cpuinfo; grep -m1 vendor_id /proc/cpuinfo
  grep -m1 'cpu family' /proc/cpuinfo; grep -m1 '^model' /proc/cpuinfo; grep -m1 stepping /proc/cpuinfo
  echo "cpus: $(nproc)"
  echo "## hypervisor flag"; grep -m1 -o -w hypervisor /proc/cpuinfo || echo none
  echo "## perf flags in cpuinfo"; grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E 'perfctr|arch_perf|pdcm|pmu' | tr '\n' ' '; echo
  echo "## perf_event_paranoid"; cat /proc/sys/kernel/perf_event_paranoid 2>&1
  echo "## /sys/bus/event_source/devices"; ls /sys/bus/event_source/devices 2>&1
  for d in /sys/bus/event_source/devices/*; do
    [ -r "$d/type" ] && echo "$(basename "$d") type=$(cat "$d/type")"
  done
  echo "## /sys/devices/cpu/caps"; ls /sys/devices/cpu/caps 2>&1
  echo "## glibc"; ldd --version 2>&1 | head -1
  echo "## hotloops"; "$bin" --version
} >"$out/host.txt" 2>&1

# Each study's pipeline pair, baseline first: the rows a PR reviewer reads.
ids="local-index/store-each local-index/local dir-by-value/opaque dir-by-value/by-value
     tid-batch/per-tid tid-batch/batched read-stream/sync-per-page read-stream/stream-worker
     alloc-churn/palloc-routine alloc-churn/static-routine"
: >"$out/counters.txt"
for id in $ids; do
  echo "### hotloops counters $id --runs 20" >>"$out/counters.txt"
  (cd "$work" && timeout 60 "$bin" counters "$id" --runs 20) >>"$out/counters.txt" 2>&1
  echo "exit: $?" >>"$out/counters.txt"
done

# The quick report, wall clock and counters only (no valgrind or llvm-mca there): a figure from
# another host kind for analysis/.
(cd "$work" && timeout "$report_s" "$bin" report --quick --no-instructions --no-model \
  --out "$work/report" "$@") >"$out/report.log" 2>&1
echo "exit: $?" >>"$out/report.log"
[ -d "$work/report" ] && tar -C "$work" -czf "$out/report.tar.gz" report
exit 0
