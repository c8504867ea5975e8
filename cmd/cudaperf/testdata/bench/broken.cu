// A candidate that does not compile: it calls a kernel that is never
// declared.
extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    saxpy_kernell<<<(n + 255) / 256, 256>>>(x, y, z, alpha, n);
}
