#!/usr/bin/env bash
# Every figure of this folder's README, in one run on a quiet host (nothing else running):
#   analysis/kvm-amd-epyc-2core/pg-ab/run.sh [PART...]
# Parts: builds aa rounds range noop addwork full seeds trim report cards (default: all, in that
# order). Each pg ab writes its folder here (ab.md, ab.json, ab.svg); pg seed writes
# seeds/pg-seed-NNN.*; report is the main job's run beside them (the cards' model lines); cards
# writes each seed's card from both. SEED_BUDGET=S gives each seed arm S seconds (default 300);
# SEEDS="000 001" runs only those seeds. trim: seed 004's arm static-untrimmed alone (the static
# patch with glibc's trim threshold at 64 MiB on both sides), into its own folder.
# full-again (not in the default list): the full A/A once more, as `full`, into its own folder.
# full-huge (not in the default list; root): the full A/A again with huge_pages=on on all three
# servers, 1,800 2 MiB pages reserved for the run and the previous count put back after it.
set -euo pipefail
cd "$(dirname "$0")/../../.."
H=target/release/hotloops
OUT=analysis/kvm-amd-epyc-2core/pg-ab
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(builds aa rounds range noop addwork full seeds trim report cards)
for part in "${parts[@]}"; do
  echo "== $part ($(date -u +%H:%M:%S))" >&2
  case $part in
    builds) $H pg build; for p in noop-comment add-work-bitmap; do $H pg build --patch patches/$p.patch; done ;;
    # Stock against stock: B in A's layout, the A/A in the other one.
    aa) $H pg ab 18 18 --workload sql/seed000-bitmap.sql --out $OUT/aa-bitmap-quick ;;
    # The same pair the shell loops' way: whole runs of each server, one after the other.
    rounds) $H pg ab 18 18 --workload sql/seed000-bitmap.sql --design rounds --out $OUT/aa-bitmap-rounds ;;
    range) $H pg ab 18 18 --workload sql/seed001-range-15000.pgbench --out $OUT/aa-range15000-quick ;;
    noop) $H pg ab 18 18+patches/noop-comment.patch --workload sql/seed000-bitmap.sql --out $OUT/noop-comment ;;
    addwork) $H pg ab 18 18+patches/add-work-bitmap.patch --workload sql/seed000-bitmap.sql --out $OUT/add-work-bitmap ;;
    full) $H pg ab 18 18 --workload sql/seed000-bitmap.sql --full --no-why --out $OUT/aa-bitmap-full ;;
    full-again) $H pg ab 18 18 --workload sql/seed000-bitmap.sql --full --no-why --out $OUT/aa-bitmap-full-again ;;
    full-huge)
      was=$(cat /proc/sys/vm/nr_hugepages)
      trap 'echo "$was" > /proc/sys/vm/nr_hugepages' EXIT
      echo 1800 > /proc/sys/vm/nr_hugepages
      [ "$(cat /proc/sys/vm/nr_hugepages)" -ge 1800 ] || { echo "could not reserve 1800 huge pages" >&2; exit 1; }
      $H pg ab 18 18 --workload sql/seed000-bitmap.sql --full --no-why --set huge_pages=on --out $OUT/aa-bitmap-full-huge
      echo "$was" > /proc/sys/vm/nr_hugepages; trap - EXIT ;;
    seeds) for s in ${SEEDS:-000 001 002 004}; do $H pg seed $s ${SEED_BUDGET:+--budget-s $SEED_BUDGET} --out $OUT/seeds; done ;;
    trim) $H pg seed 004 --arm static-untrimmed ${SEED_BUDGET:+--budget-s $SEED_BUDGET} --out $OUT/seeds-004-untrimmed ;;
    report) $H report --out $OUT/report ;;
    cards) for s in 000 001 002 004; do $H seed $s --report $OUT/report --report $OUT/seeds --report $OUT/seeds-004-untrimmed --format md > $OUT/card-$s.md; done ;;
    *) echo "unknown part $part" >&2; exit 2 ;;
  esac
done
