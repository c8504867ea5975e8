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
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/perf/lintlib.sh"
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd) rounds=${3:-5}
prepare_bins "$a" "$b"
export CUDAPERF_PLUGIN_PATH=
corpus_files "$root"
big=$(mktemp -d)
trap 'rm -rf "$big"' EXIT
make_big "$big"
echo "big=$bigbytes bytes small=$bytes bytes"
for r in $(seq "$rounds"); do
	for v in "$a" "$b"; do
		lint=("$v/bin/cudaperf" lint --arch sm_90 --fail-on never --format json)
		timed_lint "$v big" "$bigbytes" "${lint[@]}" "$big"
		timed_lint "$v small" "$bytes" "${lint[@]}" "${files[@]}"
		timed_lint "$v big GOGC=1600" "$bigbytes" env GOGC=1600 "${lint[@]}" "$big"
	done
done
for v in "$a" "$b"; do
	echo "$v"
	cold_median "$root" "$v/bin/cudaperf"
done
