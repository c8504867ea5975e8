#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// Two-phase reduction in a single kernel: grid.sync() between the phases
// requires a cooperative launch with all blocks co-resident.
__global__ void reduce_grid_sync(const float *in, float *partial, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ float sdata[];

  float sum = 0.f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
  sdata[block.thread_rank()] = sum;
  block.sync();
  for (int s = block.size() / 2; s > 0; s >>= 1) {
    if (block.thread_rank() < s) sdata[block.thread_rank()] += sdata[block.thread_rank() + s];
    block.sync();
  }
  if (block.thread_rank() == 0) partial[blockIdx.x] = sdata[0];
  grid.sync();
  if (grid.thread_rank() == 0) {
    float total = 0.f;
    for (int b = 0; b < gridDim.x; ++b) total += partial[b];
    *out = total;
  }
}

cudaError_t launch(const float *in, float *partial, float *out, int n) {
  int dev = 0, numSms = 0, blocksPerSm = 0;
  const int threads = 256;
  cudaDeviceGetAttribute(&numSms, cudaDevAttrMultiProcessorCount, dev);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, reduce_grid_sync, threads, threads * sizeof(float));
  dim3 grid(numSms * blocksPerSm), block(threads);
  void *args[] = {(void *)&in, (void *)&partial, (void *)&out, (void *)&n};
  return cudaLaunchCooperativeKernel((void *)reduce_grid_sync, grid, block, args, threads * sizeof(float), 0);
}
