// Tile barriers (cg::sync(tile), __syncwarp) wait only for their tile:
// a condition that is the same in every thread of a tile is fine.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tiles(float *x) { // want kernel=tiles sync_divergent:"1"
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(cta, 16);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  __shared__ float s[64];
  const int idx = threadIdx.x;
  int warp_id = threadIdx.x / 32;
  // the first 16 threads are exactly the first tile of 16
  if (idx < 16) {
    s[idx] = x[idx];
    cg::sync(tile);
    x[idx] = s[15 - idx];
  }
  // one whole warp takes this branch
  if (warp_id == 0) {
    for (int row = 1; row < 4; ++row) {
      s[threadIdx.x] += 1.0f;
      cg::sync(tile32);
    }
  }
  // lanes of one tile disagree: a real divergent tile barrier
  if (idx < 8) {
    cg::sync(tile); // want `cg::sync\(tile\) is reached only by the threads for which \(idx < 8\) holds`
  }
}
