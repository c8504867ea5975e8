#!/bin/bash
# ab-lint.sh: A/B of two builds of `cudaperf lint` on batch throughput and
# cold start, runs alternating between the builds so that a machine's drift
# hits both alike. Made for the GPU machine (no Go there), works anywhere.
#
#   bench/perf/ab-lint.sh DIR_A DIR_B [ROUNDS]
#
# Each DIR holds bin/cudaperf and bin/plugins/analyzer/ (binary and
# plugin.yaml), files possibly gzipped. Run from the repository root.
# Per round and build: the corpus batch four times over ("big", copies in a
# temporary folder), once ("small"), and "big" again with GOGC=1600; then the
# median of 21 cold `cudaperf lint transpose.cu` with and without --arch.
set -u
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd) rounds=${3:-5}
find "$a" "$b" -name '*.gz' -exec gunzip -f {} +
chmod +x "$a/bin/cudaperf" "$b/bin/cudaperf" "$a/bin/plugins/analyzer/analyzer" "$b/bin/plugins/analyzer/analyzer"
export CUDAPERF_PLUGIN_PATH=
mapfile -t files < <(find grammar/testdata/corpus bench/suites -name '*.cu' | sort)
big=$(mktemp -d)
trap 'rm -rf "$big"' EXIT
for rep in 1 2 3 4; do i=0; for f in "${files[@]}"; do i=$((i + 1)); cp "$f" "$big/r${rep}_${i}_$(basename "$f")"; done; done
bytes=$(cat "$big"/*.cu | wc -c)
small=$(cat "${files[@]}" | wc -c)
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
echo "big=$bytes bytes small=$small bytes"
for r in $(seq "$rounds"); do
	for v in "$a" "$b"; do
		s=$(date +%s%N); "$v/bin/cudaperf" lint --arch sm_90 --fail-on never --format json "$big" >/dev/null; w=$(ms "$s")
		s=$(date +%s%N); "$v/bin/cudaperf" lint --arch sm_90 --fail-on never --format json "${files[@]}" >/dev/null; w2=$(ms "$s")
		s=$(date +%s%N); GOGC=1600 "$v/bin/cudaperf" lint --arch sm_90 --fail-on never --format json "$big" >/dev/null; w3=$(ms "$s")
		awk -v v="$v" -v b="$bytes" -v sm="$small" -v w="$w" -v w2="$w2" -v w3="$w3" 'BEGIN{
			printf "%s big %d ms %.2f MB/s | small %d ms %.2f MB/s | big GOGC=1600 %d ms %.2f MB/s\n", v, w, b/1000/w, w2, sm/1000/w2, w3, b/1000/w3 }'
	done
done
for v in "$a" "$b"; do
	for arch in "--arch sm_90" ""; do
		for i in $(seq 21); do
			s=$(date +%s%N)
			(cd examples/cmake/src && "$v/bin/cudaperf" lint $arch transpose.cu >/dev/null 2>&1)
			echo $(( ($(date +%s%N) - s) / 1000 ))
		done | sort -n | sed -n 11p | awk -v v="$v" -v a="${arch:-no --arch}" '{printf "%s cold %s median %.1f ms\n", v, a, $1 / 1000}'
	done
done
