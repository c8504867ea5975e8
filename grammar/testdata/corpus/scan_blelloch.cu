#include <cuda_runtime.h>

#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// Work-efficient exclusive scan of one block of 2*blockDim.x elements
// (GPU Gems 3, chapter 39), with bank-conflict avoidance.
__global__ void prescan(float *g_odata, const float *g_idata, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int offset = 1;
  int ai = thid;
  int bi = thid + (n / 2);
  int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
  int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bankOffsetA] = g_idata[ai];
  temp[bi + bankOffsetB] = g_idata[bi];

  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai2 = offset * (2 * thid + 1) - 1;
      int bi2 = offset * (2 * thid + 2) - 1;
      ai2 += CONFLICT_FREE_OFFSET(ai2);
      bi2 += CONFLICT_FREE_OFFSET(bi2);
      temp[bi2] += temp[ai2];
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;

  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai2 = offset * (2 * thid + 1) - 1;
      int bi2 = offset * (2 * thid + 2) - 1;
      ai2 += CONFLICT_FREE_OFFSET(ai2);
      bi2 += CONFLICT_FREE_OFFSET(bi2);
      float t = temp[ai2];
      temp[ai2] = temp[bi2];
      temp[bi2] += t;
    }
  }
  __syncthreads();
  g_odata[ai] = temp[ai + bankOffsetA];
  g_odata[bi] = temp[bi + bankOffsetB];
}

void scan_block(float *out, const float *in, int n) {
  size_t shmem = (n + CONFLICT_FREE_OFFSET(n)) * sizeof(float);
  prescan<<<1, n / 2, shmem>>>(out, in, n);
}
