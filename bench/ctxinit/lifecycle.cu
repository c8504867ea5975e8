// lifecycle is a stand-in for one candidate process of the RL profile,
// without the sandbox, the evaluator or the gate: it makes its CUDA
// context, then for each configuration and two seeds reads its inputs from
// files, copies them to the GPU, poisons the output, runs a vector add a
// few times with an L2 flush before each, copies the output and the inputs
// back, writes the output to a file and frees everything, as the driver of
// bench/harness does. bench/ctxinit/lifecycle.py runs many of them at once
// to find how many candidate processes per minute one GPU sustains, and
// whether making the context before the candidate is known (a pre-started
// pool) changes that.
//
// Usage: lifecycle DIR N... (N: the element count of each configuration;
// DIR holds a_N.bin and b_N.bin, written by lifecycle.py). With
// LIFECYCLE_WAIT=1 it reads one byte from stdin after the context is made
// and before the work (the pre-started case). Prints one JSON line.
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

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    printf("{\"error\":\"%s: %s\"}\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

static void readf(const char *path, void *p, size_t bytes) {
  FILE *f = fopen(path, "rb");
  if (!f || fread(p, 1, bytes, f) != bytes) {
    printf("{\"error\":\"cannot read %s\"}\n", path);
    exit(1);
  }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s DIR N...\n", argv[0]);
    return 2;
  }
  double t0 = now_ms();
  check(cudaFree(0), "context");
  double t1 = now_ms();
  if (getenv("LIFECYCLE_WAIT")) {
    char go;
    if (read(0, &go, 1) != 1) return 3;
  }
  double t2 = now_ms();
  int l2 = 0;
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  size_t flush_bytes = 2 * (size_t)l2;
  void *flush = nullptr;
  check(cudaMalloc(&flush, flush_bytes), "flush buffer");
  char path[4096];
  for (int c = 2; c < argc; c++) {
    int n = atoi(argv[c]);
    size_t bytes = (size_t)n * sizeof(float);
    float *h[3], *after[2], *d[3];
    for (int i = 0; i < 3; i++) {
      h[i] = (float *)malloc(bytes);
      check(cudaMalloc(&d[i], bytes), "cudaMalloc");
    }
    for (int i = 0; i < 2; i++) after[i] = (float *)malloc(bytes);
    for (int seed = 0; seed < 2; seed++) {
      for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%c_%d.bin", argv[1], "ab"[i], n);
        readf(path, h[i], bytes);
        check(cudaMemcpy(d[i], h[i], bytes, cudaMemcpyHostToDevice), "copy in");
      }
      int reps = seed == 0 ? 6 : 1;
      for (int r = 0; r < reps; r++) {
        check(cudaMemset(d[2], 0xff, bytes), "poison");
        check(cudaMemsetAsync(flush, r, flush_bytes, 0), "flush");
        add<<<(n + 255) / 256, 256>>>(d[0], d[1], d[2], n);
        check(cudaDeviceSynchronize(), "kernel");
      }
      check(cudaMemcpy(h[2], d[2], bytes, cudaMemcpyDeviceToHost), "copy out");
      for (int i = 0; i < 2; i++) check(cudaMemcpy(after[i], d[i], bytes, cudaMemcpyDeviceToHost), "read back");
      snprintf(path, sizeof path, "%s/out_%d_%d.bin", argv[1], (int)getpid(), n);
      FILE *f = fopen(path, "wb");
      if (f) {
        fwrite(h[2], 1, bytes, f);
        fclose(f);
      }
      unlink(path);
    }
    for (int i = 0; i < 3; i++) {
      free(h[i]);
      check(cudaFree(d[i]), "cudaFree");
    }
    for (int i = 0; i < 2; i++) free(after[i]);
  }
  double t3 = now_ms();
  printf("{\"context_ms\":%.1f,\"work_ms\":%.1f,\"main_ms\":%.1f}\n", t1 - t0, t3 - t2, t3 - t0);
  fflush(stdout);
  return 0;
}
