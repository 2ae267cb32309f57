#!/usr/bin/env bash
# Re-bless asm-snapshots/ after reviewing a codegen change: regenerates every kernel's
# normalised asm with the pinned cargo-show-asm (Rust) and each built C configuration's -S
# output (the arm64 ones too, where gcc-aarch64-linux-gnu is installed), then runs the
# structural tests on it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
HOTLOOPS_BLESS=1 cargo test --release --test asm_snapshots snapshots_match_fresh_codegen -- --exact
HOTLOOPS_BLESS=1 cargo test --release --test ckernels_asm c_snapshots_match_fresh_codegen -- --exact
cargo test --release --test asm_snapshots
cargo test --release --test ckernels_asm
git status --short asm-snapshots
