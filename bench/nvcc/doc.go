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
// Device compilations use -O3 -arch=sm_<cc> -Xptxas -v; the ptxas report
// (registers, shared memory, spills per kernel) is parsed with
// analysis/ptxas.
package nvcc
