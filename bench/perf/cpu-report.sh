#!/bin/bash
# cpu-report.sh: the parse and lint throughput benchmarks, from prebuilt
# binaries, on a machine without Go (the GPU machine) or with it.
#
#   bench/perf/cpu-report.sh BINDIR
#
# BINDIR holds grammar.test (`go test -c ./grammar`), perf.test
# (`go test -c ./bench/perf`) and bin/ with `cudaperf` and
# bin/plugins/analyzer/ (the analyzer plugin and its plugin.yaml); files may
# be gzipped. Run from the repository root. Prints the machine, the grammar's
# single-core parse benchmarks, the driver benchmarks at 1, 2 and all cores,
# and `cudaperf lint` over every CUDA file of the repository's corpora at
# 1, 2 and all cores (wall-clock and CPU time from bash's `times`).
set -eu
bindir=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
find "$bindir" -name '*.gz' -exec gunzip -f {} +
chmod +x "$bindir"/bin/cudaperf "$bindir"/bin/plugins/analyzer/analyzer
# A missing test binary skips its section (the device call carries at most
# 64 MiB, so a run may leave one out).
have() { [ -f "$bindir/$1" ] && chmod +x "$bindir/$1"; }
count=${COUNT:-3}
ncpu=$(nproc)

echo "== machine"
lscpu | grep -E '^(Model name|CPU\(s\)|Thread|CPU max MHz|L2 cache|L3 cache)' || true
cut -d' ' -f1-3 /proc/loadavg

echo "== grammar: single-core parse (go test ./grammar -bench . -cpu 1)"
if have grammar.test; then
	(cd "$root/grammar" && "$bindir/grammar.test" -test.run '^$' -test.bench . -test.cpu 1 -test.count "$count")
else
	echo "skipped: no grammar.test"
fi

echo "== driver: parse + passes (go test ./bench/perf -bench .)"
if have perf.test; then
	(cd "$root/bench/perf" && "$bindir/perf.test" -test.run '^$' -test.bench . -test.benchtime 3x -test.cpu "1,2,$ncpu" -test.count "$count")
else
	echo "skipped: no perf.test"
fi

echo "== cudaperf lint --arch sm_90 --format json over every corpus .cu file"
mapfile -t files < <(find "$root/grammar/testdata/corpus" "$root/bench/suites" -name '*.cu' | sort)
bytes=$(cat "${files[@]}" | wc -c)
echo "files=${#files[@]} bytes=$bytes"
export CUDAPERF_PLUGIN_PATH=
for procs in 1 2 "$ncpu"; do
	for r in $(seq "$count"); do
		s=$(date +%s%N)
		# Each command runs in its own subshell so `times` gives the
		# children's CPU time (host + plugin) of this one command.
		out=$( (GOMAXPROCS=$procs taskset -c 0-$((procs - 1)) "$bindir/bin/cudaperf" lint --arch sm_90 --fail-on never --format json "${files[@]}" >/dev/null; times) | tail -1)
		e=$(date +%s%N)
		awk -v p="$procs" -v b="$bytes" -v w=$(( (e - s) / 1000000 )) -v t="$out" 'BEGIN{
			split(t, a, " "); cpu = 0
			for (i = 1; i <= 2; i++) { m = a[i]; sub(/s$/, "", m); split(m, ms, "m"); cpu += ms[1] * 60 + ms[2] }
			printf "  cores=%s wall=%d ms (%.2f MB/s) cpu=%.0f ms (%.2f MB/cpu-s)\n", p, w, b / 1000 / w, cpu * 1000, b / 1e6 / cpu }'
	done
done

echo "== the same files four times over (copies in a temporary folder), all cores"
big=$(mktemp -d)
trap 'rm -rf "$big"' EXIT
for rep in 1 2 3 4; do
	i=0
	for f in "${files[@]}"; do
		i=$((i + 1))
		cp "$f" "$big/r${rep}_${i}_$(basename "$f")"
	done
done
bigbytes=$(cat "$big"/*.cu | wc -c)
echo "files=$(ls "$big" | wc -l) bytes=$bigbytes"
for r in $(seq "$count"); do
	s=$(date +%s%N)
	out=$( ("$bindir/bin/cudaperf" lint --arch sm_90 --fail-on never --format json "$big" >/dev/null; times) | tail -1)
	e=$(date +%s%N)
	awk -v b="$bigbytes" -v w=$(( (e - s) / 1000000 )) -v t="$out" 'BEGIN{
		split(t, a, " "); cpu = 0
		for (i = 1; i <= 2; i++) { m = a[i]; sub(/s$/, "", m); split(m, ms, "m"); cpu += ms[1] * 60 + ms[2] }
		printf "  cores=all wall=%d ms (%.2f MB/s) cpu=%.0f ms (%.2f MB/cpu-s)\n", w, b / 1000 / w, cpu * 1000, b / 1e6 / cpu }'
done

echo "== cold: cudaperf lint one.cu (examples/cmake/src/transpose.cu), median of 21 runs"
for arch in "--arch sm_90" ""; do
	for i in $(seq 21); do
		s=$(date +%s%N)
		(cd "$root/examples/cmake/src" && "$bindir/bin/cudaperf" lint $arch transpose.cu >/dev/null 2>&1) || true
		echo $(( ($(date +%s%N) - s) / 1000 ))
	done | sort -n | sed -n 11p | awk -v a="${arch:-(no --arch: NVML picks the device)}" '{printf "  %s median=%.1f ms\n", a, $1 / 1000}'
done
