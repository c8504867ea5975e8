__global__ void k(float *x) { x[0] = 1; }  // want kernel=k params:"2" "no such finding"
