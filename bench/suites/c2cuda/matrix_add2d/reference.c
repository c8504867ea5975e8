// C reference for matrix_add2d: element-wise float addition.
#include <stddef.h>

void matrix_add2d(const float *A, const float *B, float *C, int rows, int cols) {
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            size_t i = (size_t)r * cols + c;
            C[i] = A[i] + B[i];
        }
}
