#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ int reduce_sum(cg::thread_group g, int *temp, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    temp[lane] = val;
    g.sync();
    if (lane < i) val += temp[lane + i];
    g.sync();
  }
  return val;
}

__device__ int thread_sum(const int *input, int n) {
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n / 4; i += blockDim.x * gridDim.x) {
    int4 in = reinterpret_cast<const int4 *>(input)[i];
    sum += in.x + in.y + in.z + in.w;
  }
  return sum;
}

__global__ void sum_kernel_block(int *sum, const int *input, int n) {
  int my_sum = thread_sum(input, n);
  extern __shared__ int temp[];
  auto g = cg::this_thread_block();
  int block_sum = reduce_sum(g, temp, my_sum);
  if (g.thread_rank() == 0) atomicAdd(sum, block_sum);
}

__global__ void sum_kernel_tiles(int *sum, const int *input, int n) {
  int my_sum = thread_sum(input, n);
  auto block = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  int tile_sum = cg::reduce(tile32, my_sum, cg::plus<int>());
  if (tile32.thread_rank() == 0) atomicAdd(sum, tile_sum);
}

void launch(int *sum, const int *input, int n) {
  int blockSize = 256;
  int nBlocks = (n + blockSize - 1) / blockSize;
  int sharedBytes = blockSize * sizeof(int);
  sum_kernel_block<<<nBlocks, blockSize, sharedBytes>>>(sum, input, n);
  sum_kernel_tiles<<<nBlocks, blockSize>>>(sum, input, n);
}
