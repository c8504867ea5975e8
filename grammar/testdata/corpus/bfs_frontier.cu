#include <cuda_runtime.h>
#include <vector>

// Level-synchronous BFS with an explicit frontier queue.
__global__ void bfs_expand(const int *__restrict__ row_ptr, const int *__restrict__ col_idx,
                           const int *__restrict__ frontier, int frontier_size, int *__restrict__ dist,
                           int *__restrict__ next_frontier, int *__restrict__ next_size, int level) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= frontier_size) return;
  int u = frontier[t];
  for (int e = row_ptr[u]; e < row_ptr[u + 1]; ++e) {
    int v = col_idx[e];
    if (atomicCAS(&dist[v], -1, level + 1) == -1) {
      int pos = atomicAdd(next_size, 1);
      next_frontier[pos] = v;
    }
  }
}

std::vector<int> bfs(const int *d_row_ptr, const int *d_col_idx, int n, int source) {
  int *d_dist, *d_front[2], *d_size;
  cudaMalloc(&d_dist, n * sizeof(int));
  cudaMalloc(&d_front[0], n * sizeof(int));
  cudaMalloc(&d_front[1], n * sizeof(int));
  cudaMalloc(&d_size, sizeof(int));
  cudaMemset(d_dist, 0xff, n * sizeof(int));
  int zero = 0;
  cudaMemcpy(d_dist + source, &zero, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_front[0], &source, sizeof(int), cudaMemcpyHostToDevice);

  int size = 1, level = 0, cur = 0;
  while (size > 0) {
    cudaMemset(d_size, 0, sizeof(int));
    bfs_expand<<<(size + 255) / 256, 256>>>(d_row_ptr, d_col_idx, d_front[cur], size, d_dist, d_front[cur ^ 1],
                                            d_size, level);
    cudaMemcpy(&size, d_size, sizeof(int), cudaMemcpyDeviceToHost);
    cur ^= 1;
    ++level;
  }
  std::vector<int> dist(n);
  cudaMemcpy(dist.data(), d_dist, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_dist);
  cudaFree(d_front[0]);
  cudaFree(d_front[1]);
  cudaFree(d_size);
  return dist;
}
