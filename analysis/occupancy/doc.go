// Package occupancy computes theoretical occupancy: how many blocks of a
// kernel can be resident on one multiprocessor at once, and which resource
// limits it. It follows NVIDIA's calculator (cudaOccMaxActiveBlocksPerMultiprocessor
// in CUDA 13.0's cuda_occupancy.h) step by step, and reproduces its 800
// reference results in testdata/occupancy_golden.txt exactly.
//
// For a block of T threads, W = ceil(T / warpSize) warps:
//
//   - registers: a warp is allocated regs×32 registers rounded up to 256;
//     the register file is split between 4 sub-partitions, each holding
//     floor((regsPerSM/4) / regsPerWarp) warps, so
//     R = floor(4 × that / W). A block needing more than regsPerBlock
//     (with W rounded up to a multiple of 4, as the hardware check does), or
//     more than the per-thread maximum, gets R = 0.
//   - shared memory: static + dynamic + the 1 KB per-block reserve (sm_80
//     and later), rounded up to 128 B (256 B before sm_80); a block above the
//     per-block limit (48 KB + reserve, or the opt-in limit) gets S = 0,
//     otherwise S = floor(carveout / allocated), where the carveout is the
//     preferred shared-memory size per SM (the maximum by default) or, when
//     a block does not fit in it, the smallest carveout that holds one block.
//   - warps: W_lim = floor(maxWarpsPerSM / W); 0 when T > maxThreadsPerBlock.
//   - blocks: the architectural cap on resident blocks per SM.
//   - barriers (sm_90 and later, when the kernel uses barriers):
//     floor(cap × slots / barriers), slots = 2 or 1 per architecture.
//   - virtual resources (sm_100 and later, when the kernel uses them).
//
// The result is the minimum, with a bit set in Limiting for every limit
// equal to it. Occupancy is activeBlocks × W / maxWarpsPerSM, in [0, 1].
package occupancy
