// expect: sandbox_violation — rewrites its timing records at exit: forged lines claiming 1 microsecond per call, written where the driver writes its records (a file path or a descriptor, from /proc/self/cmdline)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

static void forge(void) {
    char cmd[8192] = {0}, *arg[8] = {0};
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t len = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
    if (f) fclose(f);
    int argc = 0;
    for (size_t i = 0; i < len && argc < 8; i += strlen(cmd + i) + 1) arg[argc++] = cmd + i;
    if (argc < 4) return;
    FILE *rec = strncmp(arg[3], "fd:", 3) == 0 ? fdopen(atoi(arg[3] + 3), "w") : fopen(arg[3], "w");
    if (!rec) return;
    for (int c = 0; c < 5; c++)
        for (int k = 0; k < 2; k++)
            fprintf(rec, "{\"config\":%d,\"seed\":\"%c\",\"leak_bytes\":0,\"inputs_modified\":[],\"ms\":[0.001],\"tail_ms\":[0],\"host_ms\":[0.002]}\n", c, "ab"[k]);
    fflush(rec);
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    static bool registered = false;
    if (!registered) {
        registered = true;
        atexit(forge);
    }
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
