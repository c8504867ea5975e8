// Testdata of the synccount-py example (cudaperf_plugin.testing.run).

// __launch_bounds__ before the name on its own line: the kernel is "reduce".
__global__ void __launch_bounds__(256)
reduce(float *out, const float *in)  // want kernel=reduce syncthreads:"3"
{
    __shared__ float s[256];
    int tid = threadIdx.x;
    s[tid] = in[tid];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (tid < k) {
            s[tid] += s[tid + k];
            __syncthreads();  // want "inside an if/else block in kernel reduce"
        }
    }
    /* __syncthreads(); in a comment is not a call */
    if (tid == 0) out[blockIdx.x] = s[0];
    else __syncthreads();  // want "inside an if/else block"
}

__global__ void modes(int m)  // want kernel=modes syncthreads:"1"
{
    switch (m) {
    case 0:
        __syncthreads();  // want "inside a switch case"
        break;
    }
}

const char *note = "__syncthreads() in a string";  // want kernel=note syncthreads:"none"
