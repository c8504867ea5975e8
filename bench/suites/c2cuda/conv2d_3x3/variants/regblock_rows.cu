// strategy: register blocking, each thread computes 8 vertically adjacent outputs of one column, sliding a 3-row window of its 3 neighbouring columns through registers (each input loaded once per thread)
#include <cuda_runtime.h>

#define ROWS_PER_THREAD 8

__global__ void conv2d_rb_kernel(const float *__restrict__ in, const float *__restrict__ k, float *__restrict__ out, int h, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y0 = blockIdx.y * ROWS_PER_THREAD;
    if (x >= w) return;
    float kr[9];
#pragma unroll
    for (int i = 0; i < 9; i++) kr[i] = __ldg(k + i);
    bool hasL = x > 0, hasR = x + 1 < w;
    // Rows yy outside the image read as zero.
#define LOADROW(yy, l, c, r)                                              \
    do {                                                                  \
        int _yy = (yy);                                                   \
        if (_yy >= 0 && _yy < h) {                                        \
            const float *p = in + (size_t)_yy * w + x;                    \
            l = hasL ? __ldg(p - 1) : 0.0f;                               \
            c = __ldg(p);                                                 \
            r = hasR ? __ldg(p + 1) : 0.0f;                               \
        } else {                                                          \
            l = c = r = 0.0f;                                             \
        }                                                                 \
    } while (0)
    float a0, a1, a2, b0, b1, b2, c0, c1, c2;
    LOADROW(y0 - 1, a0, a1, a2);
    LOADROW(y0, b0, b1, b2);
#pragma unroll
    for (int r = 0; r < ROWS_PER_THREAD; r++) {
        int y = y0 + r;
        if (y >= h) break;
        LOADROW(y + 1, c0, c1, c2);
        float acc = kr[0] * a0 + kr[1] * a1 + kr[2] * a2
                  + kr[3] * b0 + kr[4] * b1 + kr[5] * b2
                  + kr[6] * c0 + kr[7] * c1 + kr[8] * c2;
        out[(size_t)y * w + x] = acc;
        a0 = b0; a1 = b1; a2 = b2;
        b0 = c0; b1 = c1; b2 = c2;
    }
#undef LOADROW
}

extern "C" void conv2d_3x3(const float *in, const float *k, float *out, int h, int w) {
    dim3 block(128, 1);
    dim3 grid((w + 127) / 128, (h + ROWS_PER_THREAD - 1) / ROWS_PER_THREAD);
    conv2d_rb_kernel<<<grid, block>>>(in, k, out, h, w);
}
