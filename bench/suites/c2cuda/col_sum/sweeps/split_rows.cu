// strategy: shared-memory tiling - TX x TY thread tiles over TX columns, rows split across blocks until about WAVES blocks per SM (each split at least MINROWS rows), shared-memory reduction of the TY row groups, atomicAdd of the per-split partials
// sweep: TX = 32, 64, 128
// sweep: TY = 1, 2, 4, 8, 16
// sweep: WAVES = 2, 8, 32
// sweep: MINROWS = 16, 64, 256
// sweep-require: TX * TY <= 1024
// sweep-require: TX * TY >= 64
#include <cuda_runtime.h>

__global__ void __launch_bounds__(TX * TY)
col_sum_split(const float *__restrict__ a, float *__restrict__ out, int rows, int cols, int rows_per_split, int splits) {
  __shared__ float s[TY][TX + 1];
  int c = blockIdx.x * TX + threadIdx.x;
  int r0 = blockIdx.y * rows_per_split;
  int r1 = min(rows, r0 + rows_per_split);
  float acc = 0.0f;
  if (c < cols)
    for (int r = r0 + threadIdx.y; r < r1; r += TY) acc += a[(long long)r * cols + c];
  s[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && c < cols) {
    float t = 0.0f;
#pragma unroll
    for (int k = 0; k < TY; k++) t += s[k][threadIdx.x];
    if (splits == 1)
      out[c] = t;
    else
      atomicAdd(&out[c], t);
  }
}

extern "C" void col_sum(const float *a, float *out, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0) sms = 132;
  int col_blocks = (cols + TX - 1) / TX;
  int want = (sms * WAVES + col_blocks - 1) / col_blocks;
  int max_splits = (rows + MINROWS - 1) / MINROWS;
  int splits = want < max_splits ? want : max_splits;
  if (splits < 1) splits = 1;
  int rows_per_split = (rows + splits - 1) / splits;
  splits = (rows + rows_per_split - 1) / rows_per_split;
  if (splits > 1) cudaMemsetAsync(out, 0, (size_t)cols * sizeof(float), 0);
  dim3 grid(col_blocks, splits);
  col_sum_split<<<grid, dim3(TX, TY)>>>(a, out, rows, cols, rows_per_split, splits);
}
