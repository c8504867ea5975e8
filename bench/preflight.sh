# Sourced by the GPU scripts (bench/gpu-dataset.sh, bench/rl/device.sh);
# needs $bin, the cudaperf to check.
#
# preflight LOG RUNS (a few seconds): two honest selftest variants must be
# accepted. If CUDAPERF_SANDBOX_SKIP is unset and they are not, it retries
# with CUDAPERF_SANDBOX_SKIP=landlock (exported, for what follows) and says
# so in LOG; it fails if they are still not accepted.
preflight() {
  local log=$1 runs=$2 ok
  pre() { "$bin" bench --suite selftest --task saxpy --format json --runs-dir "$runs" 2>>"$log" | grep -c '"accepted":true'; }
  ok=$(pre)
  if [ "$ok" != 2 ] && [ -z "${CUDAPERF_SANDBOX_SKIP+x}" ]; then
    export CUDAPERF_SANDBOX_SKIP=landlock
    echo "# preflight failed under the full sandbox; retrying with CUDAPERF_SANDBOX_SKIP=landlock (results say sandboxed: false)" | tee -a "$log" >&2
    ok=$(pre)
  fi
  if [ "$ok" != 2 ]; then
    echo "# preflight failed: the selftest saxpy variants are not accepted (see above); nothing measured" | tee -a "$log" >&2
    return 3
  fi
}

