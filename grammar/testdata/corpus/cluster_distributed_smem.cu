#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Thread block clusters (sm_90): blocks of a cluster read each other's shared
// memory. A cluster of 2 blocks builds one histogram split across both.
__global__ void __cluster_dims__(2, 1, 1) cluster_hist(int *bins, int nbins, const int *input, size_t n) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int bins_per_block = nbins / cluster.dim_blocks().x;
  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;
  cluster.sync();

  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = input[i];
    int bin = v < 0 ? 0 : (v >= nbins ? nbins - 1 : v);
    unsigned dst_block = bin / bins_per_block;
    int *dst = cluster.map_shared_rank(smem, dst_block);
    atomicAdd(dst + bin % bins_per_block, 1);
  }
  cluster.sync();
  int *lbins = bins + rank * bins_per_block;
  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}

cudaError_t launch_cluster_hist(int *bins, int nbins, const int *input, size_t n, cudaStream_t s) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(132 * 2);
  config.blockDim = dim3(256);
  config.dynamicSmemBytes = nbins / 2 * sizeof(int);
  config.stream = s;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = 2;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, cluster_hist, bins, nbins, input, n);
}
