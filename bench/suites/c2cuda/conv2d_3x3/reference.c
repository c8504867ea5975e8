// C reference for conv2d_3x3: direct 3x3 correlation, neighbours outside the
// image are zero, accumulated in double in a fixed tap order.
#include <stddef.h>

void conv2d_3x3(const float *in, const float *k, float *out, int h, int w) {
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double acc = 0.0;
            for (int dy = -1; dy <= 1; dy++) {
                int yy = y + dy;
                if (yy < 0 || yy >= h) continue;
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx;
                    if (xx < 0 || xx >= w) continue;
                    acc += (double)k[(dy + 1) * 3 + dx + 1] * in[(size_t)yy * w + xx];
                }
            }
            out[(size_t)y * w + x] = (float)acc;
        }
}
