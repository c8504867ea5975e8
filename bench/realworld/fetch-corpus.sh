#!/usr/bin/env bash
# fetch-corpus.sh DEST: extract the .cu/.cuh files of the five public
# projects measured in RESULTS.md, at the commits it names, into DEST (keep
# it outside the repository: these files are not ours to commit).
#
# Each project is read from a git clone (bare or not) whose path is given
# by an environment variable, e.g. CCCL_GIT=/src/cccl/.git; clone the
# projects first (git clone https://github.com/NVIDIA/cccl ...).
set -euo pipefail
dest=${1:?usage: $0 DEST}
mkdir -p "$dest"
# name  env-var  commit  paths
while read -r name var commit paths; do
	git_dir=${!var:?set $var to a git clone of $name}
	mkdir -p "$dest/$name"
	# shellcheck disable=SC2086
	git --git-dir="$git_dir" ls-tree -r --name-only "$commit" -- $paths |
		grep -E '\.(cu|cuh)$' | grep -v /instantiations/ |
		xargs git --git-dir="$git_dir" archive "$commit" | tar -x -C "$dest/$name"
	echo "$name $(find "$dest/$name" -type f | wc -l) files" >&2
done <<'LIST'
cuda-samples CUDA_SAMPLES_GIT c94ff366aed18c797b8a85dfaac7817b0228b420 Samples
flash-attention FLASH_ATTENTION_GIT 0251105a2fb19d2957484b7f023cd8c115286ced csrc hopper
cccl CCCL_GIT 571f2fc3bc53cd710e306ad43d58995c1fe4219f cub/cub
cutlass CUTLASS_GIT 7107b05535f8977f5ecb9d01ee203205b1fd9bc4 examples
tiny-cuda-nn TINY_CUDA_NN_GIT 6ee3546bda615f51abe684ce9edefeb414689135 src include
LIST
