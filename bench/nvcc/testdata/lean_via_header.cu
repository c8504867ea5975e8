// Its own code names nothing of the standard library: the lean compile
// fails inside the header it includes, which the full headers answer.
#include <cuda_runtime.h>
#include "lean_via_header.h"

__global__ void fill(float *x) { x[threadIdx.x] = 0.0f; }

extern "C" void launch(float *x) {
    if (lean_via_header_big() > 0.0f) fill<<<1, 32>>>(x);
}
