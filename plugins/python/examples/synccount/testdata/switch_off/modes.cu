// With SC001.include-switch false, a barrier in a switch case is not flagged.
__global__ void modes(int m)  // want kernel=modes syncthreads:"1"
{
    switch (m) {
    case 0:
        __syncthreads();
        break;
    }
}
