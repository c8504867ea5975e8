#include <curand_kernel.h>
#include <cstdio>

__global__ void setup_states(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_hits(curandState *states, int samples_per_thread, unsigned long long *hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int count = 0;
  for (int i = 0; i < samples_per_thread; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++count;
  }
  states[id] = local;
  atomicAdd(hits, (unsigned long long)count);
}

int main() {
  const int blocks = 256, threads = 256, per_thread = 4096;
  curandState *states;
  unsigned long long *d_hits, hits = 0;
  cudaMalloc(&states, blocks * threads * sizeof(curandState));
  cudaMalloc(&d_hits, sizeof(unsigned long long));
  cudaMemset(d_hits, 0, sizeof(unsigned long long));
  setup_states<<<blocks, threads>>>(states, 1234ULL);
  count_hits<<<blocks, threads>>>(states, per_thread, d_hits);
  cudaMemcpy(&hits, d_hits, sizeof hits, cudaMemcpyDeviceToHost);
  double total = (double)blocks * threads * per_thread;
  printf("pi ~= %.6f\n", 4.0 * hits / total);
  cudaFree(states);
  cudaFree(d_hits);
  return 0;
}
