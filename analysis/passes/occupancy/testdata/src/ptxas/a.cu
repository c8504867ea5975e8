// Registers, shared memory and barriers from a real ptxas report
// (ptxas.txt, produced by ../../gen.sh with nvcc for sm_80).

// An 8x8 register tile per thread (a GEMM micro-kernel): ptxas keeps the
// 64 accumulators and 16 operands in registers. The features are those of
// the worst launch (1024 threads: none fits).
__global__ void microkernel(float *c, const float *a, const float *b, int k) {  // want kernel=microkernel occ:"0" occ_blocks:"0"
    float acc[8][8] = {};
    for (int p = 0; p < k; p++) {
        float ra[8], rb[8];
#pragma unroll
        for (int i = 0; i < 8; i++) {
            ra[i] = a[p * 1024 + threadIdx.x * 8 + i];
            rb[i] = b[p * 1024 + threadIdx.x * 8 + i];
        }
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int j = 0; j < 8; j++) acc[i][j] += ra[i] * rb[j];
    }
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) c[(threadIdx.x * 8 + i) * 8 + j] = acc[i][j];
}

// A tiled transpose: 32x33 floats of static shared memory and one barrier.
__global__ void transpose(float *out, const float *in, int n) {  // want kernel=transpose occ:"1 exact" occ_blocks:"8 exact"
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void run(float *o, const float *i, int n) {
    microkernel<<<n / 256, 256>>>(o, i, i, n);  // want `theoretical occupancy of microkernel is 25% .*limited by registers`
    microkernel<<<n / 1024, 1024>>>(o, i, i, n);  // want `kernel microkernel cannot launch with 1024 threads per block on sm_80: .* registers per thread \(from ptxas\)`
    transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(o, i, n);
}
