// A hang: spins on a flag nothing sets; the runner must kill it at the
// time limit.
__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    int *flag;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
}
