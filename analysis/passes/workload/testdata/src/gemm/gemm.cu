// Issue 11: per-thread counts with a default weight of 16 per run-time
// loop made a register-tiled GEMM show thousands of times the FLOPs of a
// naive one. Per call at M = N = K = 512 all three do 2·M·N·K =
// 268435456 FLOPs.
#define TILE 16
#define R 4

__global__ void naive(const float *A, const float *B, float *C, int M, int N, int K) { // want kernel=naive threads:"262144 exact" flops_call:"268435456 exact" gbytes:"1074790400 exact"
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

// Shared-memory tiles: the same FLOPs, 16 times fewer global loads.
__global__ void tiled(const float *A, const float *B, float *C, int M, int N, int K) { // want kernel=tiled flops_call:"268435456 exact" gbytes:"68157440 exact"
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < K / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = A[row * K + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * N + col] = acc;
}

// A 4x4 register tile per thread: 16 times fewer threads, 16 times the
// work each.
__global__ void regtile(const float *A, const float *B, float *C, int M, int N, int K) { // want kernel=regtile threads:"16384 exact" flops_call:"268435456 exact"
    int row = (blockIdx.y * blockDim.y + threadIdx.y) * R;
    int col = (blockIdx.x * blockDim.x + threadIdx.x) * R;
    float acc[R][R] = {};
    for (int k = 0; k < K; k++)
        for (int i = 0; i < R; i++)
            for (int j = 0; j < R; j++) acc[i][j] += A[(row + i) * K + k] * B[k * N + col + j];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++) C[(row + i) * N + col + j] = acc[i][j];
}

extern "C" void gemm(const float *A, const float *B, float *C, int M, int N, int K) {
    dim3 block(TILE, TILE);
    naive<<<dim3(N / TILE, M / TILE), block>>>(A, B, C, M, N, K);
    tiled<<<dim3(N / TILE, M / TILE), block>>>(A, B, C, M, N, K);
    regtile<<<dim3(N / (TILE * R), M / (TILE * R)), block>>>(A, B, C, M, N, K);
}
