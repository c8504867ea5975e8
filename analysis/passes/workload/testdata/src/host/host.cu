// Launches reached through host loops and a helper host function whose
// block size is c / 2 with c = min(m, CHUNK): at m = 4096 the helper is
// called with c = 1024, so each launch has 512 threads per block.
#define CHUNK 1024

__global__ void sort_chunks(float *a, int c) { // want kernel=sort_chunks launches_per_call:"1 exact" blocks:"4 exact" threads:"2048 exact"
    a[blockIdx.x * c + threadIdx.x] = 0.0f;
}

__global__ void merge_chunks(float *a, int c, int k) { // want kernel=merge_chunks launches_per_call:"6 exact" blocks:"24 exact" threads:"12288 exact"
    a[blockIdx.x * c + threadIdx.x] += 1.0f;
}

// Not launched from this file: nothing is known, never 0.
__global__ void unused(float *a) { // want kernel=unused blocks:"unknown" gbytes:"unknown"
    a[threadIdx.x] = 1.0f;
}

static void merge_all(float *a, int chunks, int c) {
    for (int k = 2; k <= 8; k *= 2)
        for (int j = 0; j < 2; j++)
            merge_chunks<<<chunks, c / 2>>>(a, c, k);
}

extern "C" void sort(float *a, int m) {
    int c = m < CHUNK ? m : CHUNK;
    int chunks = m / c;
    sort_chunks<<<chunks, c / 2>>>(a, c);
    merge_all(a, chunks, c);
}
