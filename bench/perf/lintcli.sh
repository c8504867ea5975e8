#!/bin/bash
# lintcli.sh: cold-start and batch measurements of the real `cudaperf lint`
# binaries, in CPU time as well as wall-clock (bench/perf/lint.md).
#
#   sh bench/perf/lintcli.sh [DIR...]
#
# Each DIR holds a `cudaperf` binary and `plugins/analyzer/` (the analyzer
# plugin and its plugin.yaml), e.g. two builds to compare; the runs
# alternate between them. Without a DIR it builds the working tree into a
# temporary one. Needs `perf` (perf stat) for the CPU time of the host and
# plugin processes together.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=$root/grammar/testdata/corpus
cold_dir=$root/examples/cmake/src
runs=${RUNS:-21}
reps=${REPS:-3}
command -v perf >/dev/null || { echo "lintcli.sh: perf not found; install linux-perf" >&2; exit 2; }
if [ $# -eq 0 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/plugins/analyzer"
	(cd "$root" && go build -o "$tmp/cudaperf" ./cmd/cudaperf && go build -o "$tmp/plugins/analyzer/analyzer" ./plugins/analyzer)
	cp "$root/plugins/analyzer/plugin.yaml" "$tmp/plugins/analyzer/"
	set -- "$tmp"
fi
export CUDAPERF_PLUGIN_PATH=
bytes=$(cat "$corpus"/*.cu | wc -c)
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s%N; }
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }

echo "cold: cudaperf lint --arch sm_90 transpose.cu, median of $runs runs (wall ms)"
for d in "$@"; do
	for i in $(seq "$runs"); do
		s=$(now)
		(cd "$cold_dir" && "$d/cudaperf" lint --arch sm_90 transpose.cu >/dev/null 2>&1) || true
		echo $(( ($(now) - s) / 1000 ))
	done | median | awk -v d="$d" -v l="$(load)" '{printf "  %s load=%s median=%.1f ms\n", d, l, $1/1000}'
done

echo "batch: cudaperf lint --format json over $corpus ($bytes bytes of .cu)"
ps=$(mktemp)
for r in $(seq "$reps"); do
	for d in "$@"; do
		perf stat -x, -e task-clock -o "$ps" "$d/cudaperf" lint --arch sm_90 --format json "$corpus" >/dev/null 2>&1 || true
		cpu=$(awk -F, '/task-clock/{printf "%.0f", $1}' "$ps")
		s=$(now)
		"$d/cudaperf" lint --arch sm_90 --format json "$corpus" >/dev/null 2>&1 || true
		wall=$(( ($(now) - s) / 1000000 ))
		awk -v d="$d" -v l="$(load)" -v b="$bytes" -v c="$cpu" -v w="$wall" \
			'BEGIN{printf "  %s load=%s cpu=%d ms (%.2f MB/cpu-s) wall=%d ms (%.2f MB/s)\n", d, l, c, b/1000/c, w, b/1000/w}'
	done
done
rm -f "$ps"
