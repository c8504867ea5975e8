// strategy: test
// sweep: VEC = float2, float4
// sweep-require: VEC <= 4
__global__ void k(VEC *y) { y[threadIdx.x] = VEC{}; }
