// Occupancy on the default target (H200, sm_90) with registers estimated
// from the source (no ptxas report in this case).
#define TILE_FLOATS 12288  // 48 KB

// 16 + 2 per pointer (4) + i (1) = 21 -> 24 registers; 8 blocks of 8 warps.
__global__ void add(float *a, const float *b, int n) {  // want kernel=add occ:"1 estimated" occ_blocks:"8 estimated"
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += b[i];
}

// One warp per block: the 32-blocks-per-SM cap gives 32 of 64 warps.
__global__ void tiny(float *a) {  // want kernel=tiny occ:"0.5" occ_blocks:"32"
    a[threadIdx.x] = 0.0f;
}

// 48 KB + 1 KB reserve per block: 4 blocks of 4 warps per SM.
__global__ void smem_heavy(float *a) {  // want kernel=smem_heavy occ:"0.25" occ_blocks:"4"
    __shared__ float tile[TILE_FLOATS];
    tile[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = tile[TILE_FLOATS - 1 - threadIdx.x];
}

__global__ void too_big(float *a) {  // want kernel=too_big occ:"0" occ_blocks:"0"
    a[threadIdx.x] = 1.0f;
}

// No launch in this file: the block size comes from __launch_bounds__.
__global__ void __launch_bounds__(512) bounded(float *a) {  // want kernel=bounded occ:"1" occ_blocks:"4"
    int i = threadIdx.x;
    a[i] = 2.0f;
}

// Neither a constant block size nor launch bounds: nothing to report.
__global__ void unlaunched(float *a) {  // want kernel=unlaunched occ:"none"
    a[threadIdx.x] = 3.0f;
}

__global__ void symbolic(float *a) {  // want kernel=symbolic occ:"none" occ_blocks:"none"
    a[threadIdx.x] = 4.0f;
}

// Issue 11: a block of c / 2 threads, c = min(n, 512), had no occupancy;
// its bound (256 threads) gives one, as an estimate, and no finding.
__global__ void halves(float *a) {  // want kernel=halves occ:"1 estimated" occ_blocks:"8 estimated"
    a[threadIdx.x] = 5.0f;
}

void run(float *a, float *b, int n, int bs) {
    int c = n < 512 ? n : 512;
    halves<<<n / c, c / 2>>>(a);
    add<<<(n + 255) / 256, 256>>>(a, b, n);
    tiny<<<n / 32, 32>>>(a);
    smem_heavy<<<n / 128, 128>>>(a);  // want `theoretical occupancy of smem_heavy is 25% \(16 of 64 warps per SM, 4 blocks of 128 threads\), limited by shared memory`
    dim3 block(32, 64);
    too_big<<<1, block>>>(a);  // want `kernel too_big cannot launch with 2048 threads per block on sm_90: a block has at most 1024 threads`
    symbolic<<<n / bs, bs>>>(a);
}

// 64 KB of static shared memory: ptxas refuses it, however it is launched.
__global__ void static64(float *a) { // want `static64 declares 65536 B of static __shared__ memory, over the 49152 B a kernel may declare statically`
    __shared__ float s[16 * 1024];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[1023 - threadIdx.x];
}

// One branch of the #if is compiled: 48 KB either way, no finding.
__global__ void archdep(float *a) {
#if __CUDA_ARCH__ >= 800
    __shared__ float s[12 * 1024];
#else
    __shared__ float s[8 * 1024];
#endif
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = s[0];
}

// An include guard around the kernel, and a small debug array under #if
// beside an unconditional 64 KB one, leave the finding in place.
#ifndef GUARD_H
#define GUARD_H
__global__ void guarded64(float *a) { // want `guarded64 declares 65536 B of static __shared__ memory`
    __shared__ float s[16 * 1024];
#ifdef DEBUG
    __shared__ float dbg[4];
#endif
    s[threadIdx.x] = a[threadIdx.x];
    a[threadIdx.x] = s[0];
}
#endif
