// C reference for transpose: 32x32 cache blocks, so that neither the reads
// nor the strided writes thrash the cache on large matrices.
#include <stddef.h>

#define BLK 32

void transpose(const float *in, float *out, int rows, int cols) {
    for (int r0 = 0; r0 < rows; r0 += BLK)
        for (int c0 = 0; c0 < cols; c0 += BLK) {
            int r1 = r0 + BLK < rows ? r0 + BLK : rows;
            int c1 = c0 + BLK < cols ? c0 + BLK : cols;
            for (int r = r0; r < r1; r++)
                for (int c = c0; c < c1; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
        }
}
