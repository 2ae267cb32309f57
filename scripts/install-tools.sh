#!/usr/bin/env bash
# Installs the pinned tools hotloops needs beyond rustup's toolchain, gcc, python3 and
# valgrind: cargo-show-asm (asm snapshots), gungraun-runner (instruction benches) and llvm-mca-19
# (Debian's llvm-19; static per-core models, `hotloops model`) and chromium (report.html's test);
# optionally clang-19, and gcc-aarch64-linux-gnu and qemu-user for the arm64 C kernels.
# Versions are pinned: snapshots and counts reproduce only with the same tools.
set -euo pipefail
. "$(dirname "$0")/apt.sh"
CARGO_SHOW_ASM=0.2.64
GUNGRAUN_RUNNER=0.20.0   # must equal the gungraun dev-dependency in Cargo.toml


if ! (cargo asm --version 2>/dev/null | grep -q "$CARGO_SHOW_ASM"); then
  echo "installing cargo-show-asm $CARGO_SHOW_ASM" >&2
  cargo install cargo-show-asm --version "$CARGO_SHOW_ASM" --locked
fi
if ! (gungraun-runner --version 2>/dev/null | grep -q "$GUNGRAUN_RUNNER"); then
  echo "installing gungraun-runner $GUNGRAUN_RUNNER" >&2
  cargo install gungraun-runner --version "$GUNGRAUN_RUNNER" --locked
fi
# llvm-mca 19 (LLVM 19's scheduling models: znver4, sapphirerapids...); the unversioned llvm-mca
# may be LLVM 14, which lacks znver4. Best effort: `hotloops model` says what to install without it.
if ! command -v llvm-mca-19 >/dev/null; then
  echo "installing llvm-19 (llvm-mca-19) from the distribution" >&2
  if ! apt_install llvm-19; then
    echo "warning: could not install llvm-19; static core models are skipped (apt-get install llvm-19)" >&2
  fi
fi
# PostgreSQL 15 server and PGXS headers for `hotloops pg` and tests/pg_server.rs.
"$(dirname "$0")/install-pg.sh"
# clang-19 builds the optional clang19-pg configuration of the C kernels (build.rs); without it
# that configuration is skipped with a warning, so a failed install does not fail this script.
if ! command -v clang-19 >/dev/null; then
  echo "installing clang-19 (optional: the clang19-pg C kernel configuration)" >&2
  if ! apt_install clang-19; then
    echo "clang-19 could not be installed: clang19-pg will be skipped (apt-get install clang-19)" >&2
  fi
fi
# The arm64 configuration of the C kernels (gcc12-pg-arm64, build.rs): the cross compiler and
# the static aarch64 libc its emulated test program links, and qemu-aarch64 to run that
# program (tests/ckernels_emu.rs). Best effort, like clang-19: without them the arm64 snapshot
# diffs and emulated runs are skipped with a message naming the package; build.rs notices
# them at the next build (it watches PATH's directories).
if ! command -v aarch64-linux-gnu-gcc >/dev/null || [ ! -e /usr/aarch64-linux-gnu/lib/libc.a ]; then
  echo "installing gcc-aarch64-linux-gnu and libc6-dev-arm64-cross (optional: the gcc12-pg-arm64 C kernel configuration)" >&2
  if ! apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross; then
    echo "gcc-aarch64-linux-gnu could not be installed: gcc12-pg-arm64 will be skipped (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)" >&2
  fi
fi
if ! command -v qemu-aarch64 >/dev/null && ! command -v qemu-aarch64-static >/dev/null; then
  echo "installing qemu-user (optional: runs the arm64 kernels' emulated test program)" >&2
  if ! apt_install qemu-user; then
    echo "qemu-user could not be installed: the arm64 emulated runs will be skipped (apt-get install qemu-user)" >&2
  fi
fi
# Debian's Chromium: tests/report_output.rs loads report.html in it headless.
if ! command -v chromium >/dev/null; then
  echo "installing chromium (tests load report.html in it, headless)" >&2
  apt_install chromium
fi
if ! command -v valgrind >/dev/null; then
  echo "valgrind is missing: instruction counts need it (apt-get install valgrind)" >&2
  exit 1
fi
