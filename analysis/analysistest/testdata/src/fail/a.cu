// Every want comment below is wrong in one way; the self-test lists the
// failures it expects.
__device__ void bad() {}

__global__ void one(float *x) {  // want kernel=one params:"3" missing:"1" calls:"none"
    bad();  // want "call to good"
}

__global__ void two(float *x) {
    bad();
}

// want "nothing here"
// want kernel=one params:"x"
// want `unterminated
