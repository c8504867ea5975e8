// A kernel with a large per-thread array indexed at run time, so it uses
// local memory: the resources must report a stack frame.
__global__ void local_array(float *out, int k) {
    float buf[256];
    for (int i = 0; i < 256; i++) buf[i] = out[i] * i;
    out[threadIdx.x] = buf[k & 255];
}
