// C reference for softmax_rows: max, sum of exponentials and the division in
// double, one row at a time.
#include <math.h>
#include <stddef.h>

void softmax_rows(const float *x, float *y, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        float *yr = y + (size_t)r * cols;
        double m = -INFINITY;
        for (int c = 0; c < cols; c++)
            if (xr[c] > m) m = xr[c];
        double s = 0.0;
        for (int c = 0; c < cols; c++) s += exp((double)xr[c] - m);
        for (int c = 0; c < cols; c++) yr[c] = (float)(exp((double)xr[c] - m) / s);
    }
}
