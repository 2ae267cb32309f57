#!/usr/bin/env bash
# The README's test command: installs the pinned tools when absent, runs every test (asm
# snapshot diffs and structural checks included), the equivalence tests with the patched
# pipelines, and a smoke run of both bench harnesses.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
scripts/install-tools.sh
cargo test --release 2>&1 | tee -a "$log"
# Every feature on: the pipelines switch to the patched variants and must still agree (every
# study's pipeline test runs in one of these).
cargo test --release --all-features --test equivalence --test tid_batch --test alloc_churn --test read_stream 2>&1 | tee -a "$log"
# Bench smoke: criterion runs each bench once at test size; gungraun counts every kernel.
HOTLOOPS_BENCH_SIZE=test cargo bench --bench wallclock -- --test
cargo bench --bench instructions
# One closing line for the whole run.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
