// ctxinit measures what a candidate process pays before its first kernel:
// CUDA context creation (cudaFree(0)) and a first launch, so the evaluator's
// per-candidate cost can be split into process start, context and work.
// Built and run by bench/gpu-evaluator.sh; prints one JSON line.
//
// CTXINIT_MB=N allocates and clears N MiB of device memory (as a candidate
// process's inputs, outputs and L2 flush buffer do), so that the parent's
// wall time also shows what freeing it at exit costs; CTXINIT_EXIT=fast
// ends with _exit, leaving the teardown of the context to the kernel
// driver instead of the CUDA runtime's exit handlers.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <cuda_runtime.h>

static double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  double t0 = now_ms();
  cudaError_t e = cudaFree(0);
  double t1 = now_ms();
  int *d = nullptr;
  if (e == cudaSuccess) e = cudaMalloc(&d, 1024);
  if (e == cudaSuccess) {
    touch<<<1, 256>>>(d);
    e = cudaDeviceSynchronize();
  }
  double t2 = now_ms();
  const char *mb = getenv("CTXINIT_MB");
  size_t bytes = mb ? (size_t)atol(mb) << 20 : 0;
  void *big = nullptr;
  if (e == cudaSuccess && bytes) e = cudaMalloc(&big, bytes);
  if (e == cudaSuccess && bytes) e = cudaMemset(big, 0, bytes);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  double t3 = now_ms();
  printf("{\"context_ms\":%.2f,\"first_kernel_ms\":%.2f,\"alloc_ms\":%.2f,\"error\":\"%s\"}\n", t1 - t0, t2 - t1,
         t3 - t2, e == cudaSuccess ? "" : cudaGetErrorString(e));
  int rc = e == cudaSuccess ? 0 : 1;
  const char *how = getenv("CTXINIT_EXIT");
  if (how && strcmp(how, "fast") == 0) {
    fflush(stdout);
    _exit(rc);
  }
  return rc;
}
