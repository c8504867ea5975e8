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
		// Whitespace between operator characters separates tokens:
		// i < n - -1 is not i < n--1 (which does not compile).
		"#include <cstdio>\n#define B 256\n__global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x;\n  if (i < n - -1) x[i] = 2.0f * x[i];\n}\n",
		// ... and so does a preprocessor line's: B (x) is an object-like
		// macro whose text starts with (x), not a function-like one.
		"#include <cstdio>\n#define B (256)\n__global__ void k(float *x, int n) {\n  int i = blockIdx.x * B + threadIdx.x;\n  if (i < n) x[i] = 2.0f * x[i];\n}\n",
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

// TestSourceHashKeepsTokensApart: programs that differ only in where
// whitespace separates tokens hash differently (each pair hashed alike,
// so the recorded benchmarker answered one with the other's measurement).
func TestSourceHashKeepsTokensApart(t *testing.T) {
	for _, pair := range [][2]string{
		{"int f(int a, int b) { return a++ + b; }", "int f(int a, int b) { return a + ++b; }"},
		{"#define F (x) x\nint g(int x) { return F(x); }", "#define F(x) x\nint g(int x) { return F(x); }"},
		{"int h(int a, int b) { return a - -b; }", "int h(int a, int b) { return a--b; }"},
		{"int q(int *p, int b) { return b / *p; }", "int q(int *p, int b) { return b /*p; }"},
	} {
		if SourceHash([]byte(pair[0])) == SourceHash([]byte(pair[1])) {
			t.Errorf("%q and %q hash alike (normalized %q)", pair[0], pair[1], NormalizeSource(pair[0]))
		}
	}
	// Whitespace between operator characters that do not join is layout.
	for _, pair := range [][2]string{{"int x = -a;", "int x=-a;"}, {"*o = *i;", "*o=*i;"}, {"return a && !b;", "return a&&!b;"}} {
		if SourceHash([]byte(pair[0])) != SourceHash([]byte(pair[1])) {
			t.Errorf("%q and %q hash differently (normalized %q, %q)", pair[0], pair[1], NormalizeSource(pair[0]), NormalizeSource(pair[1]))
		}
	}
	// Layout inside a directive that does not separate tokens still counts:
	// a directive is kept as written, its blank runs collapsed.
	if a, b := NormalizeSource("#define  N   4\nint n = N;"), NormalizeSource("#define N 4\nint n = N;"); a != b {
		t.Errorf("collapsed blanks in a directive differ: %q, %q", a, b)
	}
}
