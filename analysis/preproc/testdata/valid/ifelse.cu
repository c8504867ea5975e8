// #if between if/else headers (issue 17): the first branch is kept.
__global__ void k(float *x, int a, int b) {
  if (a) {
    x[0] = 1;
#if FAST
  } else if (b) {
#else
  } else {
#endif
    x[1] = 2;
  }
}
