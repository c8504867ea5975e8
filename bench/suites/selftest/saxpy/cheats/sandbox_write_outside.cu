// expect: sandbox_violation — writes outside its output folder: a file in the session folder and over an input file that later candidates read
#include <cstdio>
#include <cstring>

__global__ void saxpy_kernel(const float *x, const float *y, float *z, float alpha, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = alpha * x[i] + y[i];
}

// argv[1] of the driver is the input folder; /proc/self/cmdline has it.
static void input_dir(char *buf, size_t n) {
    char cmd[8192] = {0};
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t len = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
    if (f) fclose(f);
    size_t first = strnlen(cmd, len);
    snprintf(buf, n, "%s", first + 1 < len ? cmd + first + 1 : ".");
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    static bool done = false;
    if (!done) {
        done = true;
        char dir[4096], path[4200];
        input_dir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/../planted.txt", dir);
        if (FILE *f = fopen(path, "w")) { fputs("was here\n", f); fclose(f); }
        snprintf(path, sizeof path, "%s/in_c4_a_p0.bin", dir);
        if (FILE *f = fopen(path, "r+b")) { float zero = 0; fwrite(&zero, sizeof zero, 1, f); fclose(f); }
    }
    saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
