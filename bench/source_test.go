package bench

import "testing"

func TestSourceHash(t *testing.T) {
	base := "#include <cstdio>\n#define B 256\n__global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x; // index\n  if (i < n) x[i] = 2.0f * x[i];\n}\n"
	same := []string{
		"/* header */\n#include <cstdio>\n#define B 256\n__global__ void k(float*x,int n){int i=blockIdx.x*B+threadIdx.x;\n\n  if(i<n) x[i]=2.0f*x[i]; }",
		"#include <cstdio>\r\n#define B 256\r\n__global__   void  k ( float * x , int n )\r\n{\r\n\tint i = blockIdx.x * B + threadIdx.x;\r\n\tif (i < n) /* guard */ x[i] = 2.0f * x[i];\r\n}\r\n",
	}
	different := []string{
		"#include <cstdio>\n#define B 128\n__global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x;\n  if (i < n) x[i] = 2.0f * x[i];\n}\n",
		"#include <cstdio>\n#define B 256\n__global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x;\n  if (i <= n) x[i] = 2.0f * x[i];\n}\n",
		// The define now spans the kernel: a line end that matters.
		"#include <cstdio>\n#define B 256 __global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x;\n  if (i < n) x[i] = 2.0f * x[i];\n}\n",
		// Tokens that whitespace separates stay separate.
		"#include <cstdio>\n#define B 256\n__global__ voidk(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x;\n  if (i < n) x[i] = 2.0f * x[i];\n}\n",
		// Comment markers inside a string are text.
		"#include <cstdio>\n#define B 256\n__global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x; printf(\"// %d\", i);\n  if (i < n) x[i] = 2.0f * x[i];\n}\n",
	}
	want := SourceHash([]byte(base))
	for _, s := range same {
		if got := SourceHash([]byte(s)); got != want {
			t.Errorf("reformatted source hashes differently:\n%q\n%q", NormalizeSource(base), NormalizeSource(s))
		}
	}
	for _, s := range different {
		if SourceHash([]byte(s)) == want {
			t.Errorf("changed source hashes the same:\n%q", NormalizeSource(s))
		}
	}
}
