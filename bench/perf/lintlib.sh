# lintlib.sh: what cpu-report.sh and ab-lint.sh share (sourced, not run):
# unpacking carried binaries, the corpus batch, its four-fold copy, one
# timed lint, and the cold-start median.

# prepare_bins DIR...: gunzip what was carried gzipped; make it executable.
prepare_bins() {
	local d
	for d in "$@"; do
		find "$d" -name '*.gz' -exec gunzip -f {} +
		chmod +x "$d/bin/cudaperf" "$d/bin/plugins/analyzer/analyzer"
	done
}

# corpus_files ROOT: sets files (every .cu of the grammar corpus and the
# benchmark suites) and bytes (their size).
corpus_files() {
	mapfile -t files < <(find "$1/grammar/testdata/corpus" "$1/bench/suites" -name '*.cu' | sort)
	bytes=$(cat "${files[@]}" | wc -c)
}

# make_big DIR: copies files into DIR four times over (distinct names);
# sets bigbytes.
make_big() {
	local rep i f
	for rep in 1 2 3 4; do
		i=0
		for f in "${files[@]}"; do
			i=$((i + 1))
			cp "$f" "$1/r${rep}_${i}_$(basename "$f")"
		done
	done
	bigbytes=$(cat "$1"/*.cu | wc -c)
}

# timed_lint LABEL BYTES COMMAND...: runs COMMAND (a lint, output
# discarded) and prints its wall-clock and CPU time (host and plugin: the
# subshell's `times` of its children) with the MB/s of BYTES.
timed_lint() {
	local label=$1 size=$2 s e out
	shift 2
	s=$(date +%s%N)
	out=$( ("$@" >/dev/null || true; times) | tail -1)
	e=$(date +%s%N)
	awk -v l="$label" -v b="$size" -v w=$(( (e - s) / 1000000 )) -v t="$out" 'BEGIN{
		split(t, a, " "); cpu = 0
		for (i = 1; i <= 2; i++) { m = a[i]; sub(/s$/, "", m); split(m, ms, "m"); cpu += ms[1] * 60 + ms[2] }
		printf "  %s wall=%d ms (%.2f MB/s) cpu=%.0f ms (%.2f MB/cpu-s)\n", l, w, b / 1000 / w, cpu * 1000, b / 1e6 / cpu }'
}

# cold_median ROOT CUDAPERF: median of 21 cold `cudaperf lint transpose.cu`
# (examples/cmake/src), with --arch sm_90 and without (NVML picks).
cold_median() {
	local arch i s
	for arch in "--arch sm_90" ""; do
		for i in $(seq 21); do
			s=$(date +%s%N)
			(cd "$1/examples/cmake/src" && "$2" lint $arch transpose.cu >/dev/null 2>&1) || true
			echo $(( ($(date +%s%N) - s) / 1000 ))
		done | sort -n | sed -n 11p | awk -v a="${arch:-no --arch (NVML picks the device)}" '{printf "  cold %s: median %.1f ms\n", a, $1 / 1000}'
	done
}
