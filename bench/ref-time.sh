#!/usr/bin/env bash
# Times the reference programs of the RL batch's tasks (bench/rlbatch) as
# the RL profile builds them, with their inputs drawn by one thread and by
# the default (up to 8 threads, one per CPU: bench/harness cp_fill_par),
# interleaved, ROUNDS rounds. The reference runs before any candidate of
# its task can start (it writes the inputs), so its wall time is on the
# cold batch's critical path. CPU only: no GPU, no candidate code.
#
# Usage: bench/ref-time.sh [ROUNDS]   (default 3; prints one line a run and
#        the median wall time per task and setting)
# Needs: go, cc.
set -euo pipefail
rounds=${1:-3}
tasks=$(grep -v '^#' bench/rlbatch/manifest.jsonl | sed 's/.*"task":"\([^"]*\)".*/\1/' | sort -u)
tmp=$(mktemp -d)
# The data goes where the evaluator puts it (bench: /dev/shm when it is
# large enough): on a disk the writes' cost drowns the draw's.
data=$tmp/data
if [ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')" -gt $((8 << 20)) ] 2>/dev/null; then
  data=$(mktemp -d /dev/shm/ref-time.XXXXXX)
fi
trap 'rm -rf "$tmp" "$data"' EXIT
dirs=()
for t in $tasks; do dirs+=("bench/suites/c2cuda/$t"); done
go run ./bench/harness/gen -profile rl -out "$tmp/progs" "${dirs[@]}"
for t in $tasks; do
  (cd "$tmp/progs/$t" && cc -O2 -I . -c ref_main.c && cc -O2 -I . -c reference.c && cc -o ref ref_main.o reference.o -lm -pthread)
done
echo "cpus $(nproc); rounds $rounds; data in $data"
for r in $(seq 1 "$rounds"); do
  for t in $tasks; do
    for threads in 1 default; do
      rm -rf "$data" && mkdir -p "$data"
      env=()
      [ "$threads" = 1 ] && env=(CUDAPERF_REF_THREADS=1)
      /usr/bin/time -f "%e %U %S" -o "$tmp/t" env "${env[@]}" "$tmp/progs/$t/ref" "$data" "$tmp/rec.jsonl" 12345 67890
      read -r wall user sys <"$tmp/t"
      echo "round $r $t threads=$threads wall $wall s user $user s sys $sys s"
    done
  done
done | tee "$tmp/runs.txt"
echo "median wall time (s): task, one thread, default threads"
for t in $tasks; do
  m1=$(awk -v t="$t" '$3 == t && $4 == "threads=1" {print $6}' "$tmp/runs.txt" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  md=$(awk -v t="$t" '$3 == t && $4 == "threads=default" {print $6}' "$tmp/runs.txt" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$t $m1 $md"
done
