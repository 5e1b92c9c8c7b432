#!/usr/bin/env bash
# scripts/bench/suite --table on a hand-written CSV: per setting and thread count, the median of the last
# commit's runs, with the CPU and, where the rows record it, the OpenBLAS kernel (rows written before the
# blas_core column have none).
set -euo pipefail
root=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/bench.csv" <<'CSV'
setting,threads,round,images_per_s,mflop_per_image,commit,cpu,utc,blas_core
mnist28,2,1,100,6.92,aaaaaaaaaaaa,"Old CPU",2026-01-01T00:00:00Z
mnist28,2,1,300,6.92,bbbbbbbbbbbb,"AMD EPYC",2026-01-02T00:00:00Z,Haswell
mnist28,2,2,200,6.92,bbbbbbbbbbbb,"AMD EPYC",2026-01-02T00:00:01Z,Haswell
mnist28,2,3,1000,6.92,bbbbbbbbbbbb,"AMD EPYC",2026-01-02T00:00:02Z,Haswell
cnn100,2,1,691,137.13,cccccccccccc,"Intel(R) Xeon(R) Processor",2026-01-03T00:00:00Z
CSV
out=$("$root/scripts/bench/suite" --table "$tmp/bench.csv")
echo "$out"
fail() { echo "FAIL: $1" >&2; exit 1; }
grep -qF "| RAM on mnist28: 6 glimpses of 8x8, RNN 256, batch 128 | 6.9 | 2 | 300 | 3 | bbbbbbbbbbbb | AMD EPYC, Haswell |" <<< "$out" ||
  fail "mnist28: the median of commit bbbbbbbbbbbb's three runs (300), its CPU and kernel"
grep -qF "| 137.1 | 2 | 691 | 1 | cccccccccccc | Intel(R) Xeon(R) Processor |" <<< "$out" ||
  fail "cnn100: a row without a kernel names its CPU alone"
[ "$(grep -c '^|' <<< "$out")" = 4 ] || fail "a header, a rule and one line per measured setting"
echo "bench table: ok"
