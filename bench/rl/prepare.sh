#!/usr/bin/env bash
# Prepares, on this machine, what the GPU run of issue 14 (bench/rl/gpu-rl.sh)
# needs on the device machine, into .rl/ (ignored by git through
# .git/info/exclude):
#   .rl/bin.tar.xz     the run's binaries (bench/device-pack.sh: stripped, xz)
#   .rl/whl/           wheels the device image lacks (gguf, pure Python)
#   .rl/model/         the default model's GGUF (98 MB) in parts, and its SHA256
# The device's torch, transformers, peft, grpcio and protobuf are used as they are.
#
# One device call carries at most 64 MiB: the repository's files (about 28 MB)
# plus what `carry` names. The model therefore travels in parts, one part per
# call after a first call with the binaries and wheels, in consecutive calls
# while the machine is warm (it goes back 30 s after a call);
# bench/rl/device.sh collects them outside the repository. The script ends by
# printing the calls to make, with their sizes.
#
# Usage: bench/rl/prepare.sh
#   PART_MB  size of a model part in MB (10^6 bytes; default: as large as a call allows:
#            CAP_MB less the repository's files, and for the first part
#            less the binaries and wheels too, so the model takes the fewest
#            calls: 3 with a 28 MB tree)
#   CAP_MB   what one call may carry in all, in MB of 10^6 bytes (default 63.
#            The device tool refused a call of 65.8 MB, repository and
#            shared/ included, and took one of 63.4 MB: its 64 MiB behaves
#            as 64 MB)
#   LEAVE    tracked files or folders the device does not need and that
#            stay behind during the calls (default grammar/src/parser.c,
#            20.7 MB: the device runs prebuilt binaries; and bench/h200,
#            4.9 MB of earlier leases' outputs, without which the model
#            takes 3 calls again instead of 4; and bench/ablation/state,
#            19 MB of adapters that travel packed in .rl/results.tar.gz
#            instead): delete them before the calls
#            (rm -r), restore them after (git checkout -- PATH); the plan
#            says so. The device tool copies the working tree, so a deleted
#            tracked file stays behind (confirmed in lease 2 of 2026-12-03:
#            three staging calls of 62 MB each were taken). With LEAVE= the
#            model takes 8 calls with a 48 MB tree.
#   PLUGINS  the plugins the run needs (default: benchmarker analyzer hf);
#            the others stay behind to leave room for the model
# The model travels xz-compressed (6 % smaller: Q4_1 weights compress
# little, but enough to save a call).
set -euo pipefail
cd "$(dirname "$0")/../.."
PART_MB=${PART_MB:-}
CAP_MB=${CAP_MB:-63}
PLUGINS=${PLUGINS:-benchmarker analyzer hf}
LEAVE=${LEAVE-grammar/src/parser.c bench/h200 bench/ablation/state}
rl=.rl
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.rl/' "$exclude" 2>/dev/null || echo '/.rl/' >>"$exclude"
rm -rf "$rl/whl" "$rl/model" "$rl/bin.tar.xz"
mkdir -p "$rl/whl" "$rl/model"

# Issue 15's ablation spans sessions, and nothing but the repository lasts
# from one to the next: its SFT start and an unfinished run's checkpoint
# are committed in bench/ablation/state, its runs' outputs in bench/h200.
# Packed here as the earlier results that stage restores on the device.
if [ -f bench/ablation/state/MANIFEST.json ] && [ ! -f "$rl/results.tar.gz" ]; then
  echo "prepare: the ablation's committed state into $rl/results.tar.gz" >&2
  python3 bench/ablation/state.py restore "$rl/results.tar.gz"
fi

echo "prepare: building stripped binaries" >&2
# shellcheck disable=SC2086 # PLUGINS is a list
bench/device-pack.sh "$rl/bin.tar.xz" $PLUGINS

echo "prepare: downloading wheels for the device (CPython 3.12, x86-64)" >&2
PY=.venv/bin/python
"$PY" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  -d "$rl/whl" gguf==0.19.0

gguf=$("$PY" -c 'import sys; sys.path.insert(0, "plugins/policy/hf"); import settings; print(settings.default_gguf())')
name=$(basename "$gguf")
repo=$(git ls-files -z | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
other=$(git ls-files -z --others --exclude-standard | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
# shellcheck disable=SC2086 # LEAVE is a list
left=$(git ls-files -z -- $LEAVE | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
left=${left:-0}
base=$((repo + ${other:-0} - left))
first_extra=$(du -cb "$rl/bin.tar.xz" "$rl/whl" | tail -1 | cut -f1)
if [ -n "$PART_MB" ]; then
  part=$((PART_MB * 1000000)) first=$((PART_MB * 1000000))
else
  part=$((CAP_MB * 1000000 - base - 400000))    # room for the SHA256, shared/ and slack
  first=$((part - first_extra))
fi
[ "$first" -gt 0 ] || { echo "prepare: the binaries and wheels leave no room for a model part in the first call" >&2; exit 1; }
echo "prepare: splitting the model: first part $((first >> 20)) MiB, then $((part >> 20)) MiB parts" >&2
xz -T0 -6 -c "$gguf" >"$rl/model.xz"
head -c "$first" "$rl/model.xz" >"$rl/model/$name.xz.part-00"
tail -c +"$((first + 1))" "$rl/model.xz" | split -b "$part" -d -a 2 --numeric-suffixes=1 - "$rl/model/$name.xz.part-"
rm "$rl/model.xz"
(cd "$(dirname "$gguf")" && sha256sum "$name") >"$rl/model/SHA256"

# The plan: the repository's files travel with every call.
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
size() { du -cb "$@" | tail -1 | cut -f1; }
echo
echo "Device calls (kind nvidia-h200), consecutive, while the machine is warm; the tree is $(mib "$base")."
[ -z "$LEAVE" ] || echo "  Before the first call: rm -r $LEAVE   (after the last: git checkout -- $LEAVE)"
i=0
plan() { # plan WHAT...: one call carrying WHAT
  i=$((i + 1))
  local total warn=""
  total=$((base + $(size "$@")))
  [ "$total" -gt 64000000 ] && warn="  TOO LARGE: lower PART_MB or CAP_MB"
  printf '  call %d: carry %s  (%s)%s\n' "$i" "$(printf '%s ' "$@" | sed 's/ $//; s/ /, /g')" "$(mib "$total")" "$warn"
  printf '          command: bash bench/rl/device.sh stage\n'
}
first=1
for p in "$rl"/model/"$name".xz.part-*; do
  if [ $first = 1 ]; then plan "$rl/bin.tar.xz" "$rl/whl" "$rl/model/SHA256" "$p"; first=0; else plan "$p"; fi
done
if [ -f "$rl/results.tar.gz" ]; then
  plan "$rl/results.tar.gz"
  echo "          (an earlier lease's results, joined from its rl-results.tar.gz.part-N, or the ablation's"
  echo "          committed state: stage restores them; then: bash bench/rl/device.sh ablate)"
fi
cat <<EOF
  then, in the same or later calls (each under 10 minutes; phases resume):
          command: BUDGET=7m bash bench/rl/device.sh run
  Each run call leaves \$OUT/rl-results.tar.gz.part-N (logs, metrics, evals, plots, the
  latest LoRA adapters; 15 MiB parts). On a fresh machine, join them:
  cat rl-results.tar.gz.part-* > .rl/results.tar.gz,
  carry it with the parts, and stage restores it: finished phases are skipped.
  After an ablation lease, before the session ends: bench/ablation/after-lease.sh
  bench/h200/LEASE PARTS... (the runs' outputs, the start and the open run's checkpoint
  into the repository: the next session's checkout has nothing else), then commit.
EOF
