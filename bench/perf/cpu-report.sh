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
. "$root/bench/perf/lintlib.sh"
prepare_bins "$bindir"
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
corpus_files "$root"
echo "files=${#files[@]} bytes=$bytes"
export CUDAPERF_PLUGIN_PATH=
lint=("$bindir/bin/cudaperf" lint --arch sm_90 --fail-on never --format json)
for procs in 1 2 "$ncpu"; do
	for r in $(seq "$count"); do
		timed_lint "cores=$procs" "$bytes" env GOMAXPROCS="$procs" taskset -c "0-$((procs - 1))" "${lint[@]}" "${files[@]}"
	done
done

echo "== the same files four times over (copies in a temporary folder), all cores"
big=$(mktemp -d)
trap 'rm -rf "$big"' EXIT
make_big "$big"
echo "files=$(ls "$big" | wc -l) bytes=$bigbytes"
for r in $(seq "$count"); do
	timed_lint "cores=all" "$bigbytes" "${lint[@]}" "$big"
done

echo "== cold: cudaperf lint one.cu (examples/cmake/src/transpose.cu), median of 21 runs"
cold_median "$root" "$bindir/bin/cudaperf"
