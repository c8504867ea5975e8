#include <cuda_runtime.h>

// Pull-based PageRank iteration over the transposed graph (CSC of in-edges).
__global__ void pagerank_pull(int n, const int *in_ptr, const int *in_idx, const int *out_degree,
                              const float *rank, float *next, float damping) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float sum = 0.f;
  for (int e = in_ptr[v]; e < in_ptr[v + 1]; ++e) {
    int u = in_idx[e];
    sum += rank[u] / out_degree[u];
  }
  next[v] = (1.f - damping) / n + damping * sum;
}

__global__ void l1_diff(int n, const float *a, const float *b, float *out) {
  float d = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) d += fabsf(a[i] - b[i]);
  for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(0xffffffff, d, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, d);
}

int pagerank(int n, const int *in_ptr, const int *in_idx, const int *deg, float *r0, float *r1, float *d_err) {
  const int tpb = 256, blocks = (n + tpb - 1) / tpb;
  for (int it = 0; it < 100; ++it) {
    pagerank_pull<<<blocks, tpb>>>(n, in_ptr, in_idx, deg, r0, r1, 0.85f);
    cudaMemset(d_err, 0, sizeof(float));
    l1_diff<<<blocks < 1024 ? blocks : 1024, tpb>>>(n, r0, r1, d_err);
    float err;
    cudaMemcpy(&err, d_err, sizeof(float), cudaMemcpyDeviceToHost);
    float *t = r0; r0 = r1; r1 = t;
    if (err < 1e-6f) return it + 1;
  }
  return 100;
}
