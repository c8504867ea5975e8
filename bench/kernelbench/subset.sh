#!/usr/bin/env bash
# Copies the KernelBench level-1 problems named in subset.txt, unchanged,
# from a KernelBench checkout (or its bare git directory, as the fetch tool
# leaves it) into DEST/KernelBench/level1/ (default .kb at the repository
# root, which .git/info/exclude ignores: KernelBench's files are not
# committed here). `cudaperf bench --kernelbench DEST --level 1` then runs
# them.
#
#   bench/kernelbench/subset.sh SRC [DEST]
#   SRC: a checkout (SRC/KernelBench/level1/*.py) or a git directory
#        (read at HEAD, or at $KERNELBENCH_REV).
set -euo pipefail
cd "$(dirname "$0")/../.."
src=${1:?usage: $0 KERNELBENCH_CHECKOUT_OR_GIT_DIR [DEST]}
dest=${2:-.kb}
rev=${KERNELBENCH_REV:-HEAD}
lv="$dest/KernelBench/level1"
mkdir -p "$lv"
exclude=$(git rev-parse --git-path info/exclude)
if [ "$dest" = .kb ] && ! grep -qx '/.kb/' "$exclude" 2>/dev/null; then
  echo '/.kb/' >> "$exclude"
fi
n=0
while read -r f; do
  case "$f" in ''|'#'*) continue ;; esac
  if [ -d "$src/KernelBench/level1" ]; then
    cp "$src/KernelBench/level1/$f" "$lv/$f"
  elif git --git-dir "$src" rev-parse --verify -q "$rev" >/dev/null; then
    git --git-dir "$src" show "$rev:KernelBench/level1/$f" > "$lv/$f"
  else
    echo "subset.sh: $src is neither a KernelBench checkout (no KernelBench/level1) nor a git directory" >&2
    exit 2
  fi
  n=$((n + 1))
done < bench/kernelbench/subset.txt
if [ -d "$src/KernelBench/level1" ]; then
  echo "$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)" > "$dest/REVISION"
else
  git --git-dir "$src" rev-parse "$rev" > "$dest/REVISION"
fi
echo "subset.sh: $n problems in $lv (KernelBench $(cat "$dest/REVISION")), $(du -sh "$dest" | cut -f1)"
