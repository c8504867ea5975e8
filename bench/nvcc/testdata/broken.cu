// A candidate with a type error: the compile must fail with a log.
extern "C" void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    undefined_function(x);
}
