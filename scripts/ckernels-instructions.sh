#!/bin/sh
# Run from the repository root after `cargo build --release`; figures: analysis/*/ckernels.md.
# Instructions per item (callgrind, test size) of every row of the three studies with C
# kernels, on each case the row runs on.
set -e
H=target/release/hotloops
for pair in "local-index table3 table3-bitmap" "dir-by-value range-15000/0-keys range-15000/1-key" "tid-batch btree-many btree-few btree-lossy"; do
  set -- $pair; study=$1; shift
  ids=$($H list | awk -v s="$study/" 'index($1, s) == 1 && NF == 1 || (index($1, s) == 1 && $2 ~ /^\(/) {print $1}')
  for c in "$@"; do
    for id in $ids; do
      $H instructions "$id" --case "$c"
    done
  done
done
