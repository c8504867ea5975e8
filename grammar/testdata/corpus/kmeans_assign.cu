#include <cuda_runtime.h>
#include <cfloat>

// k-means: assign points to the nearest centroid (centroids cached in shared
// memory), then accumulate new centroid sums with atomics.
__global__ void assign_clusters(const float *__restrict__ points, const float *__restrict__ centroids,
                                int *__restrict__ labels, int n, int k, int dim) {
  extern __shared__ float s_centroids[];
  for (int i = threadIdx.x; i < k * dim; i += blockDim.x) s_centroids[i] = centroids[i];
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float best = FLT_MAX;
  int best_c = 0;
  for (int c = 0; c < k; ++c) {
    float d = 0.f;
    for (int j = 0; j < dim; ++j) {
      float diff = points[p * dim + j] - s_centroids[c * dim + j];
      d += diff * diff;
    }
    if (d < best) {
      best = d;
      best_c = c;
    }
  }
  labels[p] = best_c;
}

__global__ void accumulate(const float *points, const int *labels, float *sums, int *counts, int n, int dim) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int c = labels[p];
  for (int j = 0; j < dim; ++j) atomicAdd(&sums[c * dim + j], points[p * dim + j]);
  atomicAdd(&counts[c], 1);
}

__global__ void finalize(float *centroids, const float *sums, const int *counts, int k, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= k * dim) return;
  int c = i / dim;
  if (counts[c] > 0) centroids[i] = sums[i] / counts[c];
}

void kmeans_step(const float *points, float *centroids, int *labels, float *sums, int *counts, int n, int k, int dim) {
  int t = 256;
  assign_clusters<<<(n + t - 1) / t, t, k * dim * sizeof(float)>>>(points, centroids, labels, n, k, dim);
  cudaMemset(sums, 0, k * dim * sizeof(float));
  cudaMemset(counts, 0, k * sizeof(int));
  accumulate<<<(n + t - 1) / t, t>>>(points, labels, sums, counts, n, dim);
  finalize<<<(k * dim + t - 1) / t, t>>>(centroids, sums, counts, k, dim);
}
