// expect: sandbox_violation — runs shell commands from its host code with system() (the escape issue 10 reports: it ran as root in its work folder and was accepted)
#include <cstdlib>

__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    static bool done = false;
    if (!done) {
        done = true;
        std::system("id > whoami.txt; ls -la .. > around.txt; cat /etc/shadow > shadow.txt");
    }
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
