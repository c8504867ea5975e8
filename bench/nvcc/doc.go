// Package nvcc finds nvcc and compiles CUDA and C sources for the benchmark,
// in parallel, through a content-addressed cache.
//
// Find looks for nvcc in $CUDAPERF_NVCC, on PATH, in /usr/local/cuda/bin,
// and in a project virtual environment (.venv/lib/python3*/site-packages/
// nvidia/cu13/bin/nvcc, installed by .ci/setup from PyPI), in that order.
//
// Every compilation is keyed by the SHA-256 of the tool's identity (its
// path and version text), the command's arguments and the content of every
// input file, so a cached object is reused only when nothing that could
// change it has changed. Failed compilations are cached too, with their log,
// so a broken candidate is not recompiled. The cache lives in
// $XDG_CACHE_HOME/cudaperf (or the user cache directory), else in
// .cudaperf-cache; entries are written to a temporary folder and renamed
// into place, so concurrent processes never see half an entry.
//
// Device compilations use -O3 -arch=sm_<cc> -Xptxas -v, LeanFlags and
// LeanInclude. LeanFlags keep libstdc++'s C++17 special math functions
// (and the <limits> and algorithm headers they pull in) out of the headers
// nvcc includes in every compile: a third of a small kernel's compile
// time. LeanInclude (lean.h) keeps <utility> and <type_traits> out of
// cuda_runtime.h, declaring the one name of them it uses: 13 % of what
// was left. A source that needed what they leave out fails naming it and
// is compiled again with the full headers, so every verdict is the full
// headers' (bench/lean-parity.sh checks that the objects are the same). The ptxas report (registers, shared memory,
// spills per kernel) is parsed with analysis/ptxas.
//
// At most Toolchain's job count of tools run at once. Links, and compiles
// under a context from Urgent (a task's driver and reference program),
// go before the ordinary compiles that wait: a batch sends all its
// candidates at once, and a run waits for its link, not for the other
// candidates' compiles. Toolchain.Nice runs the ordinary ones at a lower
// priority, and Toolchain.Background lets them run as the machine's idle
// work (Linux's SCHED_IDLE) instead; one stopped by the compile limit as
// idle work is compiled again as ordinary work before it is a verdict.
package nvcc
