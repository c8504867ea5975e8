// All expectations are met: the self-test expects no failures here.
__device__ void bad() {}

__global__ void one(float *x) {  // want kernel=one params:"1" calls:"1"
    bad();  // want "call to bad"
}

__global__ void two(float *x, int n) {  // want kernel:"two" params:"2.0004" calls:"2±0.5" depth:"none"
    if (n) { bad(); bad(); }  // want "call to bad" `call to b.d`
}

// File-level feature (no kernel= before it).
// want nkernels:"2"
