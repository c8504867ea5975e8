#include <cub/cub.cuh>
#include <cuda_runtime.h>

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
__global__ void block_sum_kernel(const int *d_in, int *d_out) {
  using BlockLoadT = cub::BlockLoad<int, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using BlockReduceT = cub::BlockReduce<int, BLOCK_THREADS>;

  __shared__ union TempStorage {
    typename BlockLoadT::TempStorage load;
    typename BlockReduceT::TempStorage reduce;
  } temp_storage;

  int data[ITEMS_PER_THREAD];
  int block_offset = blockIdx.x * (BLOCK_THREADS * ITEMS_PER_THREAD);
  BlockLoadT(temp_storage.load).Load(d_in + block_offset, data);
  __syncthreads();

  int aggregate = BlockReduceT(temp_storage.reduce).Sum(data);
  if (threadIdx.x == 0) d_out[blockIdx.x] = aggregate;
}

cudaError_t device_sum(const int *d_in, int *d_out, int num_items, cudaStream_t stream) {
  void *d_temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, num_items, stream);
  cudaError_t err = cudaMallocAsync(&d_temp, temp_bytes, stream);
  if (err != cudaSuccess) return err;
  cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, num_items, stream);
  return cudaFreeAsync(d_temp, stream);
}

void run_block_sum(const int *d_in, int *d_out, int tiles, cudaStream_t stream) {
  block_sum_kernel<128, 4><<<tiles, 128, 0, stream>>>(d_in, d_out);
}
