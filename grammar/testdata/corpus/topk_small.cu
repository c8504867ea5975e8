#include <cuda_runtime.h>
#include <cfloat>

// Per-row top-k (k <= 16) with a warp: each lane keeps a sorted local list,
// then the warp merges by repeatedly extracting the maximum.
template <int K>
__global__ void row_topk(const float *__restrict__ x, int cols, float *__restrict__ vals, int *__restrict__ idxs) {
  const float *row = x + (size_t)blockIdx.x * cols;
  const int lane = threadIdx.x;
  float v[K];
  int id[K];
#pragma unroll
  for (int i = 0; i < K; ++i) {
    v[i] = -FLT_MAX;
    id[i] = -1;
  }
  for (int c = lane; c < cols; c += 32) {
    float e = row[c];
    if (e > v[K - 1]) {
      int p = K - 1;
      while (p > 0 && v[p - 1] < e) {
        v[p] = v[p - 1];
        id[p] = id[p - 1];
        --p;
      }
      v[p] = e;
      id[p] = c;
    }
  }
  int head = 0;
  for (int out = 0; out < K; ++out) {
    float mine = head < K ? v[head] : -FLT_MAX;
    float best = mine;
    int owner = lane;
    for (int o = 16; o > 0; o >>= 1) {
      float ob = __shfl_xor_sync(0xffffffff, best, o);
      int oo = __shfl_xor_sync(0xffffffff, owner, o);
      if (ob > best || (ob == best && oo < owner)) {
        best = ob;
        owner = oo;
      }
    }
    if (lane == owner) {
      vals[blockIdx.x * K + out] = best;
      idxs[blockIdx.x * K + out] = id[head];
      ++head;
    }
  }
}

void topk8(const float *x, int rows, int cols, float *vals, int *idxs) { row_topk<8><<<rows, 32>>>(x, cols, vals, idxs); }
