// A call of CUDA's own max that is ambiguous (float and int arguments), as
// an RL policy wrote it: it fails with the full headers too, and never
// names the standard library's namespace, so the lean compile's answer
// stands (no second compile).
#include <cuda_runtime.h>

__global__ void clampk(float *x, int rows, int r) {
    x[0] = max(0.0f, max(r, rows - 1));
}
