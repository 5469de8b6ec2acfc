#!/bin/bash
# CPU (user+sys, /usr/bin/time) of two commands run alternately N times: the
# means and the ratio B/A. Usage: bench/startup/cpu-ab.sh N cmdA... -- cmdB...
# e.g. bench/startup/cpu-ab.sh 5 node /tmp/base/dist/cli/bin.js --version -- node dist/cli/bin.js --version
N=$1
shift
A=()
B=()
side=A
for x in "$@"; do
  if [ "$x" = "--" ]; then side=B; continue; fi
  if [ $side = A ]; then A+=("$x"); else B+=("$x"); fi
done
ra=""
rb=""
t=$(mktemp)
for _ in $(seq 1 "$N"); do
  /usr/bin/time -o "$t" -f "%U %S" "${A[@]}" >/dev/null 2>&1
  ra="$ra $(tail -1 "$t" | awk '{print $1+$2}')"
  /usr/bin/time -o "$t" -f "%U %S" "${B[@]}" >/dev/null 2>&1
  rb="$rb $(tail -1 "$t" | awk '{print $1+$2}')"
done
rm -f "$t"
echo "A (s):$ra"
echo "B (s):$rb"
echo "$ra | $rb" | awk -v n="$N" '{sa=0;sb=0;for(i=1;i<=n;i++)sa+=$i;for(i=n+2;i<=2*n+1;i++)sb+=$i; printf "mean A %.3f s, mean B %.3f s, B/A %.3f\n", sa/n, sb/n, sb/sa}'
