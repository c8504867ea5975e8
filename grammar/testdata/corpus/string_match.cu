#include <cuda_runtime.h>

// Brute-force substring search: each thread tests one starting offset; the
// pattern lives in constant memory.
#define MAX_PATTERN 128
__constant__ char d_pattern[MAX_PATTERN];
__constant__ int d_pattern_len;

__global__ void find_matches(const char *__restrict__ text, int text_len, int *__restrict__ positions,
                             int *__restrict__ count) {
  int start = blockIdx.x * blockDim.x + threadIdx.x;
  if (start + d_pattern_len > text_len) return;
  for (int j = 0; j < d_pattern_len; ++j) {
    if (text[start + j] != d_pattern[j]) return;
  }
  int slot = atomicAdd(count, 1);
  positions[slot] = start;
}

int search(const char *d_text, int n, const char *pattern, int m, int *d_pos, int *d_count) {
  if (m <= 0 || m > MAX_PATTERN) return -1;
  cudaMemcpyToSymbol(d_pattern, pattern, m);
  cudaMemcpyToSymbol(d_pattern_len, &m, sizeof(int));
  cudaMemset(d_count, 0, sizeof(int));
  find_matches<<<(n + 255) / 256, 256>>>(d_text, n, d_pos, d_count);
  int count = 0;
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  return count;
}
