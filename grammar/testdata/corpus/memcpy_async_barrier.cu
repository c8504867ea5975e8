#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/std/atomic>

namespace cg = cooperative_groups;

// Stage global data into shared memory with cuda::memcpy_async and a
// block-scoped cuda::barrier (libcu++), then compute on it.
__global__ void stage_and_sum(const float *__restrict__ in, float *__restrict__ out, int tile_elems, int tiles) {
  extern __shared__ float smem[];
  auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();

  float acc = 0.f;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    cuda::memcpy_async(block, smem, in + (size_t)t * tile_elems, sizeof(float) * tile_elems, bar);
    bar.arrive_and_wait();
    for (int i = block.thread_rank(); i < tile_elems; i += block.size()) acc += smem[i];
    bar.arrive_and_wait();
  }
  cuda::atomic_ref<float, cuda::thread_scope_device> total(*out);
  total.fetch_add(acc, cuda::std::memory_order_relaxed);
}

void run(const float *in, float *out, int tile_elems, int tiles) {
  stage_and_sum<<<108, 256, tile_elems * sizeof(float)>>>(in, out, tile_elems, tiles);
}
