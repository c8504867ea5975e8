__global__ void k2(float *x) {}  // want sms:"108" kernel=k2 regs:"24"
