// strategy: vectorized loads + register blocking - each thread owns 4 adjacent columns (one float4 per row when rows are 16-byte aligned), rows split into chunks reduced with atomicAdd
#include <cuda_runtime.h>
#include <stdint.h>

#define THREADS 128
#define ROW_CHUNK 256

__global__ void __launch_bounds__(THREADS)
col_sum_vec4(const float *__restrict__ a, float *__restrict__ out, int rows, int cols, int use_vec, int chunked) {
  int c = 4 * (blockIdx.x * THREADS + threadIdx.x);
  if (c >= cols) return;
  int r0 = blockIdx.y * ROW_CHUNK;
  int r1 = min(rows, r0 + ROW_CHUNK);
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  if (use_vec) {
    // cols % 4 == 0 and a is 16-byte aligned, so a + r*cols + c is too.
    for (int r = r0; r < r1; r++) {
      float4 v = *(const float4 *)(a + (long long)r * cols + c);
      s0 += v.x;
      s1 += v.y;
      s2 += v.z;
      s3 += v.w;
    }
  } else {
    int w = min(4, cols - c);
    for (int r = r0; r < r1; r++) {
      const float *p = a + (long long)r * cols + c;
      s0 += p[0];
      if (w > 1) s1 += p[1];
      if (w > 2) s2 += p[2];
      if (w > 3) s3 += p[3];
    }
  }
  float s[4] = {s0, s1, s2, s3};
  for (int k = 0; k < 4 && c + k < cols; k++) {
    if (chunked)
      atomicAdd(&out[c + k], s[k]);
    else
      out[c + k] = s[k];
  }
}

extern "C" void col_sum(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int use_vec = (cols % 4 == 0) && ((uintptr_t)a % 16 == 0);
  int quads = (cols + 3) / 4;
  int chunks = (rows + ROW_CHUNK - 1) / ROW_CHUNK;
  int chunked = chunks > 1;
  if (chunked) cudaMemsetAsync(out, 0, (size_t)cols * sizeof(float), 0);
  dim3 grid((quads + THREADS - 1) / THREADS, chunks);
  col_sum_vec4<<<grid, THREADS>>>(a, out, rows, cols, use_vec, chunked);
}
