#!/bin/bash
# Side by side (the machine is shared: compare, do not time alone): runs
# `validate` on one of run.mjs's cases with another build (BASE, e.g. main
# built in /tmp/base) and this one, alternating, N pairs; prints each run's
# wall, user and system CPU, peak RSS, main-thread CPU (main-thread-cpu.cjs)
# and the load, then the means and ratios (this build / BASE).
#   npm run build && node bench/validate/run.mjs   # inputs, once
#   BASE=/tmp/base bench/validate/side-by-side.sh 3 per-row
set -e
N=${1:-3}; CASE=${2:-per-row}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASE:?BASE=<folder of the other build>}
F=$HERE/bench/.tmp/validate/10000/$CASE
T=$(mktemp -d)
for i in $(seq 1 "$N"); do
  for who in base branch; do
    if [ $who = base ]; then B=$BASE/dist/cli/bin.js; else B=$HERE/dist/cli/bin.js; fi
    L=$(cut -d' ' -f1 /proc/loadavg)
    SV_THREADS=$T/threads /usr/bin/time -f "$who %e %U %S %M" -o $T/time node --import "$HERE/bench/validate/main-thread-cpu.mjs" "$B" validate "$F" >/dev/null || echo "FAIL $who"
    echo "$(cat $T/time) $(tail -1 $T/threads) load $L"
  done
done | awk '{print; cpu=$3+$4; if($1=="base"){bc+=cpu;bw+=$2;br+=$5;bm+=$7;nb++} else {ac+=cpu;aw+=$2;ar+=$5;am+=$7;na++}} END {printf "mean base cpu %.2f main %.2f wall %.2f rss %.0fMiB | branch cpu %.2f main %.2f wall %.2f rss %.0fMiB | ratios cpu %.3f main %.3f wall %.3f rss %.3f\n", bc/nb,bm/nb,bw/nb,br/nb/1024, ac/na,am/na,aw/na,ar/na/1024, (ac/na)/(bc/nb),(am/na)/(bm/nb),(aw/na)/(bw/nb),(ar/na)/(br/nb)}'
rm -rf "$T"
