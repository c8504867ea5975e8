#!/usr/bin/env bash
# After an ablation lease (issue 15), on this machine: the device's packed
# results into the repository, so that the next session (a new checkout,
# nothing else kept) can continue.
#
# Usage: bench/ablation/after-lease.sh LEASE PART...
#   LEASE  the lease folder, bench/h200/<date>-leaseN (made if missing)
#   PART   the last call's rl-results.tar.gz.part-N files, in order
#
# Unpacks them into /tmp/rl/out (the device's own path, which the runs'
# config.yaml files name), copies what the lease made into LEASE/ablation/
# and records the start and the open run's checkpoint
# (bench/ablation/state.py save --copy), then remakes the results page
# (bench/ablation/RESULTS.md, curves.png, and their copies in LEASE/ablation)
# with bin/cudaperf, with bench/ablation/READING.md (the reading by hand)
# if there is one. Write LEASE/README.md and commit after it.
set -euo pipefail
cd "$(dirname "$0")/../.."
lease=${1:?usage: bench/ablation/after-lease.sh LEASE PART...}
shift
[ $# -gt 0 ] || { echo "after-lease: name the rl-results.tar.gz.part-N files of the lease's last call" >&2; exit 2; }
[ -x bin/cudaperf ] || { echo "after-lease: no bin/cudaperf: run make build" >&2; exit 2; }
out=/tmp/rl/out
rm -rf "$out" && mkdir -p "$out"
cat "$@" | tar -C "$out" -xzf -
mkdir -p "$lease/ablation"
python3 bench/ablation/state.py save "$out" --lease "$lease" --copy
for f in hf-stats.jsonl ablation/ablate.log; do
  [ -s "$out/$f" ] && cp "$out/$f" "$lease/ablation/"
done
init=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["init"]["as"])' bench/ablation/state/MANIFEST.json)
sed -e "s#^root:.*#root: $out/ablation#" -e "s#^init:.*#init: $out/$init#" bench/ablation/ablation.yaml >/tmp/rl/ablation.yaml
# The reading by hand (READING.md), once the runs are done, is printed
# under the generated conclusion; the report marks it if the results
# have changed since it was written.
reading=()
[ -f bench/ablation/READING.md ] && reading=(--reading bench/ablation/READING.md)
bin/cudaperf ablate report --config /tmp/rl/ablation.yaml --out "$out/ablation/RESULTS.md" "${reading[@]}"
for d in bench/ablation "$lease/ablation"; do cp "$out/ablation/RESULTS.md" "$out/ablation/curves.png" "$d/"; done
cat <<EOF
after-lease: done. The replay tables of bench/ablation/RESCORE.md, if wanted:
  bin/cudaperf ablate rescore -c /tmp/rl/ablation.yaml --str-bound 0.085
  bin/cudaperf ablate rescore -c /tmp/rl/ablation.yaml
Then: LEASE/README.md, git add $lease bench/ablation, commit.
EOF
