// Struct layouts for TestStructLayout.
#define N 3
struct P { char c; float x; double d; short s; };
typedef struct __align__(16) { float e[N]; } V;
struct U { float a; Unknown u; };
struct F3 { float3 p; float w; };
