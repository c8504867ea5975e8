#!/usr/bin/env bash
# run.sh: lint a tree of CUDA sources with the built-in analyzer only and
# write what it found, per check.
#
#   bench/realworld/run.sh [-o OUT] DIR...
#
# Needs `make build` (bin/cudaperf and bin/plugins/analyzer). Third-party
# and example plugins are left out: the binary and the analyzer plugin are
# copied into a fresh folder, where the CLI finds no other plugin.
#
# Writes to OUT (default: bench/realworld/out, not committed):
#   findings.jsonl  one finding per line, as `cudaperf lint --format json` prints it,
#                   with "project" (first folder under DIR) and "path" (inside it)
#   counts.tsv      check, severity, findings, files with one
#   summary.txt     files linted, files with a syntax error, files with a
#                   partial-parse note, findings by severity
# The corpus of bench/realworld/RESULTS.md is made by fetch-corpus.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/realworld/out
if [[ ${1:-} == -o ]]; then out=$2; shift 2; fi
if [[ $# -eq 0 ]]; then
	echo "usage: $0 [-o OUT] DIR..." >&2
	exit 2
fi
for b in "$root/bin/cudaperf" "$root/bin/plugins/analyzer/analyzer"; do
	[[ -x $b ]] || { echo "$0: $b is missing: run make build first" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/plugins" "$out"
cp "$root/bin/cudaperf" "$tmp/"
cp -r "$root/bin/plugins/analyzer" "$tmp/plugins/"

files=()
for d in "$@"; do
	while IFS= read -r f; do files+=("$f"); done < <(find "$d" -type f \( -name '*.cu' -o -name '*.cuh' \) | sort)
done
echo "linting ${#files[@]} files" >&2
# One lint over every file; the JSON is one array of findings.
start=$(date +%s.%N)
# A generous plugin timeout: since main at 50da630 the workload pass runs
# host code (analysis/hostexec) and takes ~40 s on fastWalshTransform.cu.
CUDAPERF_PLUGIN_PATH= "$tmp/cudaperf" --plugin-timeout 10m lint --format json --fail-on never --arch sm_90 "${files[@]}" >"$tmp/lint.json"
end=$(date +%s.%N)

python3 - "$tmp/lint.json" "$out" "${#files[@]}" "$start" "$end" "$@" <<'PY'
import collections, json, os, sys
findings, out, nfiles, start, end, dirs = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6:]
def split(path):
    for d in dirs:
        rel = os.path.relpath(path, d)
        if not rel.startswith('..'):
            project, _, inner = rel.partition(os.sep)
            return project, inner
    return '', path
with open(os.path.join(out, 'findings.jsonl'), 'w') as f:
    for x in findings:
        x['project'], x['path'] = split(x['file'])
        f.write(json.dumps(x, sort_keys=True) + '\n')
count, files = collections.Counter(), collections.defaultdict(set)
for x in findings:
    k = (x['check'], x['severity'])
    count[k] += 1
    files[k].add(x['file'])
with open(os.path.join(out, 'counts.tsv'), 'w') as f:
    f.write('check\tseverity\tfindings\tfiles\n')
    for k in sorted(count):
        f.write(f'{k[0]}\t{k[1]}\t{count[k]}\t{len(files[k])}\n')
sev = collections.Counter(x['severity'] for x in findings)
syntax_err = {x['file'] for x in findings if x['check'] == 'syntax' and x['severity'] == 'error'}
partial = {x['file'] for x in findings if x['check'] == 'syntax' and x['severity'] == 'note'}
with open(os.path.join(out, 'summary.txt'), 'w') as f:
    f.write(f'files\t{nfiles}\n')
    f.write(f'files with a syntax error\t{len(syntax_err)}\n')
    f.write(f'files with a partial-parse note\t{len(partial)}\n')
    for s in ('error', 'warning', 'note'):
        f.write(f'{s}s\t{sev[s]}\n')
    f.write(f'wall seconds\t{end - start:.1f}\n')
print(open(os.path.join(out, 'summary.txt')).read(), end='')
PY
