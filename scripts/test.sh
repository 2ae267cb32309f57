#!/usr/bin/env bash
# The README's test command: installs the pinned tools when absent, runs every test (asm
# snapshot diffs and structural checks included), the equivalence tests with the patched
# pipelines, and a smoke run of both bench harnesses.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
bench_log=$(mktemp)
trap 'rm -f "$log" "$bench_log"' EXIT
scripts/install-tools.sh
cargo test --release 2>&1 | tee -a "$log"
# Every feature on: the pipelines switch to the patched variants and must still agree (every
# study's pipeline test runs in one of these).
cargo test --release --all-features --test equivalence --test tid_batch --test alloc_churn --test read_stream 2>&1 | tee -a "$log"
# Bench smoke, as the crate's users type it: `cargo bench --features local-index` must run
# the wall-clock benches (each once at test size here) and nothing else: no library unit tests
# printed as ignored, and not the instruction bench, which needs gungraun-runner.
HOTLOOPS_BENCH_SIZE=test cargo bench --features local-index -- --test 2>&1 | tee "$bench_log"
if grep -qE "Running (unittests|benches/instructions)" "$bench_log"; then
  echo "test.sh: cargo bench --features local-index ran more than the wall-clock benches" >&2; exit 1
fi
grep -q "pipeline/local-index" "$bench_log" || { echo "test.sh: cargo bench --features local-index did not bench the patched pipeline" >&2; exit 1; }
# ...and only what the feature switches: local-index's pipeline and variants, no other study.
if grep -qE "^Testing (pipeline/)?(dir-by-value|tid-batch|read-stream|alloc-churn)/" "$bench_log"; then
  echo "test.sh: cargo bench --features local-index benched studies the feature does not switch" >&2; exit 1
fi
# The instruction bench by name (gungraun counts every kernel).
cargo bench --features local-index --bench instructions
# One closing line for the whole run.
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
