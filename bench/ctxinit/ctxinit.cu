// ctxinit measures what a candidate process pays before its first kernel:
// CUDA context creation (cudaFree(0)) and a first launch, so the evaluator's
// per-candidate cost can be split into process start, context and work.
// Built and run by bench/gpu-evaluator.sh; prints one JSON line.
#include <cstdio>
#include <ctime>
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
  printf("{\"context_ms\":%.2f,\"first_kernel_ms\":%.2f,\"error\":\"%s\"}\n", t1 - t0, t2 - t1,
         e == cudaSuccess ? "" : cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
