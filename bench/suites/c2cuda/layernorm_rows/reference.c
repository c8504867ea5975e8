// C reference for layernorm_rows: two-pass mean and population variance in
// double, then the affine normalisation; epsilon is fixed at 1e-5.
#include <math.h>
#include <stddef.h>

void layernorm_rows(const float *x, const float *gamma, const float *beta, float *y, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        float *yr = y + (size_t)r * cols;
        double mean = 0.0;
        for (int c = 0; c < cols; c++) mean += xr[c];
        mean /= cols;
        double var = 0.0;
        for (int c = 0; c < cols; c++) {
            double d = xr[c] - mean;
            var += d * d;
        }
        var /= cols;
        double rstd = 1.0 / sqrt(var + 1e-5);
        for (int c = 0; c < cols; c++) yr[c] = (float)((xr[c] - mean) * rstd * gamma[c] + beta[c]);
    }
}
