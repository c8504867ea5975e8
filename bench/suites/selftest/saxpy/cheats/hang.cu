// expect: timeout — never terminates; the runner must kill it at the wall-time limit
__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    static int *flag = nullptr;
    if (!flag) {
        cudaMalloc(&flag, sizeof(int));
        cudaMemset(flag, 0, sizeof(int));
    }
    spin<<<1, 1>>>((volatile int *)flag);
}
