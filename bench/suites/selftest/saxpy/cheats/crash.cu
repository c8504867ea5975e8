// expect: runtime_error — writes through an invalid pointer; the error must be reported and the next candidate unaffected
__global__ void bad_write(float *p) {
    p[threadIdx.x] = 1.0f;
}

extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    bad_write<<<1, 32>>>((float *)0x10);
}
