int main() { foo(1 2; }
__global__ void k( {
