#include <cuda_runtime.h>
#include <cfloat>
#include <cmath>

// Single-head scaled dot-product attention, one block per query row:
// scores into shared memory, softmax, then the weighted sum of V.
// Dynamic shared memory holds seq_len scores.
__global__ void attention_row(const float *Q, const float *K, const float *V, float *O, int seq_len, int d,
                              float scale, bool causal) {
  extern __shared__ float scores[];
  __shared__ float row_max, row_sum;
  const int q = blockIdx.x;
  const float *qv = Q + (size_t)q * d;

  for (int k = threadIdx.x; k < seq_len; k += blockDim.x) {
    float s = 0.f;
    for (int j = 0; j < d; ++j) s += qv[j] * K[(size_t)k * d + j];
    scores[k] = (causal && k > q) ? -FLT_MAX : s * scale;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = -FLT_MAX;
    for (int k = 0; k < seq_len; ++k) m = fmaxf(m, scores[k]);
    float sum = 0.f;
    for (int k = 0; k < seq_len; ++k) sum += (scores[k] = expf(scores[k] - m));
    row_max = m;
    row_sum = sum;
  }
  __syncthreads();
  for (int j = threadIdx.x; j < d; j += blockDim.x) {
    float acc = 0.f;
    for (int k = 0; k < seq_len; ++k) acc += scores[k] * V[(size_t)k * d + j];
    O[(size_t)q * d + j] = acc / row_sum;
  }
  (void)row_max;
}

void attention(const float *Q, const float *K, const float *V, float *O, int seq_len, int d, bool causal) {
  size_t shmem = seq_len * sizeof(float);
  attention_row<<<seq_len, 128, shmem>>>(Q, K, V, O, seq_len, d, 1.0f / sqrtf((float)d), causal);
}
