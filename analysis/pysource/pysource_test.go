package pysource

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func load(t *testing.T) (*Source, []byte) {
	t.Helper()
	py, err := os.ReadFile("testdata/model_new.py")
	if err != nil {
		t.Fatal(err)
	}
	s := Extract(py)
	if s == nil {
		t.Fatal("no CUDA found in model_new.py")
	}
	return s, py
}

func TestExtractTakesCUDASourcesOnly(t *testing.T) {
	s, _ := load(t)
	if s.Strings != 2 {
		t.Errorf("took %d strings, want 2 (the named cuda_sources and the inline list element)", s.Strings)
	}
	cu := string(s.CUDA)
	for _, want := range []string{"__global__ void elementwise_add_kernel", "__global__ void scale_kernel", `printf("%f\n", s);`, "\n  x[threadIdx.x] *= s; printf"} {
		if !strings.Contains(cu, want) {
			t.Errorf("virtual CUDA lacks %q:\n%s", want, cu)
		}
	}
	for _, not := range []string{"import torch", "cpp_sources", "elementwise_add_cuda(torch::Tensor a, torch::Tensor b);", "not cuda"} {
		if strings.Contains(cu, not) {
			t.Errorf("virtual CUDA holds %q, which is not CUDA source", not)
		}
	}
}

// TestPositionsMapBack checks that every byte of the virtual file maps to
// the byte of the Python file it came from, through lines and columns.
func TestPositionsMapBack(t *testing.T) {
	s, py := load(t)
	pyLines := bytes.Split(py, []byte("\n"))
	cuLines := bytes.Split(s.CUDA, []byte("\n"))
	checked := 0
	for li, line := range cuLines {
		for ci := range line {
			pl, pc := s.Position(li+1, ci+1)
			got := pyLines[pl-1][pc-1]
			want := line[ci]
			if got == want {
				checked++
				continue
			}
			// An escape maps to its backslash.
			if got != '\\' {
				t.Fatalf("virtual %d:%d %q maps to python %d:%d %q", li+1, ci+1, want, pl, pc, got)
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d bytes checked", checked)
	}
	// The store out[idx * 2] is on line 13, column 9 of the Python file.
	for li, line := range cuLines {
		if c := bytes.Index(line, []byte("out[idx * 2]")); c >= 0 {
			if pl, pc := s.Position(li+1, c+1); pl != 13 || pc != 9 {
				t.Errorf("out[idx * 2] maps to %d:%d, want 13:9", pl, pc)
			}
		}
	}
}

func TestNoCUDAIsNil(t *testing.T) {
	if s := Extract([]byte("import torch\nx = 'a __device__ mention is not a kernel'\n")); s != nil {
		t.Errorf("found CUDA in a file without any: %q", s.CUDA)
	}
	// A __global__ string anywhere counts (RawKernel), raw strings keep escapes.
	s := Extract([]byte("import cupy\nk = cupy.RawKernel(r'''\n__global__ void f(float* x) { x[0] = '\\n'; }\n''', 'f')\n"))
	if s == nil || !strings.Contains(string(s.CUDA), `x[0] = '\n';`) {
		t.Fatalf("RawKernel source: %v", s)
	}
	if l, c := s.Position(2, 1); l != 3 || c != 1 {
		t.Errorf("line 2 of the raw string maps to %d:%d, want 3:1", l, c)
	}
}

// TestOneStringOfManyLiterals: adjacent literals and literals joined by +
// are one Python string, joined without the newline that ends a string
// (a CuPy kernel written as adjacent literals was cut at its first line:
// "'{' is never closed"); a string completed at run time by a name, and a
// docstring, are not taken.
func TestOneStringOfManyLiterals(t *testing.T) {
	py := "import cupy as cp\nscale = cp.RawKernel(\n    'extern \"C\" __global__ void scale(float* x, int s) {'\n    '    x[threadIdx.x * s] *= 2.0f;'\n    + '}', 'scale')\n"
	s := Extract([]byte(py))
	if s == nil || s.Strings != 3 || string(s.CUDA) != "extern \"C\" __global__ void scale(float* x, int s) {    x[threadIdx.x * s] *= 2.0f;}\n" {
		t.Fatalf("adjacent and added literals: %+v", s)
	}
	// The store is on line 4, column 10 of the Python file.
	if l, c := s.Position(1, bytes.Index(s.CUDA, []byte("x[threadIdx"))+1); l != 4 || c != 10 {
		t.Errorf("x[threadIdx.x * s] maps to %d:%d, want 4:10", l, c)
	}
	for _, py := range []string{
		"def template(body):\n    return \"__global__ void gen(float* x, int n) { \" + body + \" }\"\n",
		"def template(body):\n    return body + \"__global__ void gen(float* x) {}\"\n",
		"\"\"\"Every __global__ function we make is launched as k<<<grid, block {rounded up.\"\"\"\nimport torch\n",
	} {
		if s := Extract([]byte(py)); s != nil {
			t.Errorf("took %q from %q", s.CUDA, py)
		}
	}
}

func FuzzExtract(f *testing.F) {
	py, _ := os.ReadFile("testdata/model_new.py")
	f.Add(py)
	f.Add([]byte("x = '''__global__ \\"))
	f.Add([]byte("cuda_sources=[f'{{__global__}}\\x4"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s := Extract(src)
		if s == nil {
			return
		}
		lines := bytes.Count(s.CUDA, []byte("\n")) + 1
		for l := 1; l <= lines+1; l++ {
			pl, pc := s.Position(l, 1)
			if pl < 1 || pc < 1 {
				t.Fatalf("Position(%d, 1) = %d:%d", l, pl, pc)
			}
		}
	})
}
