// expect: poison_survived — returns without writing z; the poison must survive and be reported
extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    (void)x; (void)y; (void)z; (void)alpha; (void)n;
}
