// expect: sandbox_violation — forks a helper process that would keep running (and could do the work) outside the timed calls
#include <unistd.h>

__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    static bool done = false;
    if (!done) {
        done = true;
        if (fork() == 0) {
            sleep(30);
            _exit(0);
        }
    }
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
