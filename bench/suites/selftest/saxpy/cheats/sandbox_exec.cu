// expect: sandbox_violation — replaces its process with a shell (exec) at exit, after the records are written
#include <cstdlib>
#include <unistd.h>

__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

static void shell(void) { execl("/bin/sh", "sh", "-c", "id > whoami.txt", (char *)0); }

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    static bool registered = false;
    if (!registered) {
        registered = true;
        atexit(shell);
    }
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
