// strategy: grid-stride sum - BLOCK threads, VEC-float loads into ACC accumulators of type ACCT
// The features the c2cuda templates use: an identifier-valued parameter
// (a type), a divisibility constraint with %, a constraint on a product of
// three parameters, and parameters used in types, array sizes and loops.
// sweep: BLOCK = 32, 64, 128
// sweep: VEC = 1, 2, 4
// sweep: ACC = 1, 3, 4
// sweep: ACCT = float, double
// sweep-require: BLOCK % (VEC * ACC) == 0
// sweep-require: BLOCK * VEC * ACC <= 256
typedef struct __align__(4 * VEC) { float e[VEC]; } vec_t;
__global__ void __launch_bounds__(BLOCK) sum_k(const vec_t *x, float *out, long long nv) {
    ACCT acc[ACC] = {};
    for (long long i = blockIdx.x * BLOCK + threadIdx.x; i < nv; i += ACC * gridDim.x * BLOCK)
#pragma unroll
        for (int q = 0; q < ACC; q++)
            if (i + q * gridDim.x * BLOCK < nv)
#pragma unroll
                for (int e = 0; e < VEC; e++) acc[q] += (ACCT)x[i + q * gridDim.x * BLOCK].e[e];
    ACCT s = 0;
    for (int q = 0; q < ACC; q++) s += acc[q];
    atomicAdd(out, (float)s);
}
