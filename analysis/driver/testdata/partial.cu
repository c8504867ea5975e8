__global__ void ok(float *x) { x[threadIdx.x] = 1.0f; }

__global__ void broken(float *x) {
    x[threadIdx.x] = 1.0f + ;
}

__global__ void after(float *x) { x[0] = 2.0f; }
