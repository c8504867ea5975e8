// strategy: register blocking - each thread marches down 16 rows of one column keeping up/centre/down in registers, so each row is loaded once per thread; 128-thread blocks
#include <cuda_runtime.h>

#define THREADS 128
#define ROWS_PER_THREAD 16

__global__ void __launch_bounds__(THREADS) jacobi_march(const float *__restrict__ in, float *__restrict__ out,
                                                        int rows, int cols) {
  int c = blockIdx.x * THREADS + threadIdx.x;
  int r0 = blockIdx.y * ROWS_PER_THREAD;
  if (c >= cols) return;
  int r1 = min(rows, r0 + ROWS_PER_THREAD);
  bool edge_col = (c == 0 || c == cols - 1);
  float up = (r0 > 0) ? in[(long long)(r0 - 1) * cols + c] : 0.0f;
  float mid = in[(long long)r0 * cols + c];
  for (int r = r0; r < r1; r++) {
    long long i = (long long)r * cols + c;
    float down = (r + 1 < rows) ? in[i + cols] : 0.0f;
    if (r == 0 || r == rows - 1 || edge_col)
      out[i] = mid;
    else
      out[i] = 0.25f * ((up + down) + (in[i - 1] + in[i + 1]));
    up = mid;
    mid = down;
  }
}

extern "C" void stencil_2d_jacobi5(const float *in, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  dim3 grid((cols + THREADS - 1) / THREADS, (rows + ROWS_PER_THREAD - 1) / ROWS_PER_THREAD);
  jacobi_march<<<grid, THREADS>>>(in, out, rows, cols);
}
