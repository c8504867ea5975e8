void saxpy(const float *x, const float *y, float *z, float alpha, int n) {
    for (int i = 0; i < n; i++)
        z[i] = alpha * x[i] + y[i];
}
