package preproc_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/analysis"
	"github.com/cudaperf/cudaperf/analysis/preproc"
	"github.com/cudaperf/cudaperf/grammar"
)

// sameShape fails unless out keeps every byte offset and line of src.
func sameShape(t *testing.T, src, out []byte) {
	t.Helper()
	if len(out) != len(src) {
		t.Fatalf("length %d, want %d", len(out), len(src))
	}
	for i := range src {
		if (src[i] == '\n') != (out[i] == '\n') {
			t.Fatalf("newline moved at byte %d", i)
		}
	}
}

func errorsOf(t *testing.T, src []byte) []grammar.SyntaxError {
	t.Helper()
	f, err := analysis.ParseFile(context.Background(), "t.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Tree.Close()
	return grammar.SyntaxErrors(f.Root(), src)
}

// recoverAll is the driver's loop: rewrite around the errors while that
// leaves fewer.
func recoverAll(t *testing.T, src []byte) ([]byte, []grammar.SyntaxError) {
	errs := errorsOf(t, src)
	for round := 0; round < 3 && len(errs) > 0; round++ {
		var sp []preproc.Span
		for _, e := range errs {
			sp = append(sp, preproc.Span{Start: int(e.StartByte), End: int(e.EndByte)})
		}
		fixed := preproc.Recover(src, sp)
		sameShape(t, src, fixed)
		e2 := errorsOf(t, fixed)
		if len(e2) >= len(errs) {
			break
		}
		src, errs = fixed, e2
	}
	return src, errs
}

// Every file of testdata/valid is valid CUDA that fails to parse as is
// and parses without an error after recovery.
func TestRecoverEveryValidFile(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.cu")
	if len(files) < 2 {
		t.Fatalf("testdata/valid has %d files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(errorsOf(t, src)) == 0 {
			t.Errorf("%s parses without recovery: it no longer tests it", f)
		}
		if _, errs := recoverAll(t, src); len(errs) > 0 {
			t.Errorf("%s: %d errors left, first %d:%d %s", f, len(errs), errs[0].Line, errs[0].Column, errs[0].Message())
		}
	}
}

func TestRecoverValidCUDA(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/macros.cu")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(errorsOf(t, src)); n == 0 {
		t.Fatal("macros.cu parses without recovery: the test no longer tests it")
	}
	fixed, errs := recoverAll(t, src)
	for _, e := range errs {
		t.Errorf("left: %d:%d %s", e.Line, e.Column, e.Message())
	}
	// Comments and code the rules do not touch stay as written; the
	// kernel and its launch are still there.
	for _, keep := range []string{"// Valid CUDA", "__global__ void kern(T *x, int n)", "kern<<<1, 32>>>(x, n);", "x[1] = 2;", "cudaStream_t stream"} {
		if !bytes.Contains(fixed, []byte(keep)) {
			t.Errorf("%q was lost", keep)
		}
	}
	for _, gone := range []string{"CUB_NAMESPACE_BEGIN", "_CCCL_PRAGMA_UNROLL_FULL", "int device", "NV_IS_HOST"} {
		if bytes.Contains(fixed, []byte(gone)) {
			t.Errorf("%q is still there", gone)
		}
	}
}

func TestRecoverLeavesGoodCodeAlone(t *testing.T) {
	src := []byte("#define N 4\n__global__ void k(float *x) {\n  FOO_BAR\n  x[0] = N;\n}\n")
	if out := preproc.Recover(src, nil); &out[0] != &src[0] {
		t.Error("Recover without errors made a copy")
	}
	// A template parameter list is not an expression: `, typename T` stays.
	src = []byte("template <int A, typename Fn, typename Out>\nvoid f(Fn fn);\n")
	out := preproc.Recover(src, []preproc.Span{{Start: 0, End: len(src)}})
	if !bytes.Contains(out, []byte("typename Fn, typename Out")) {
		t.Errorf("template parameters rewritten: %q", out)
	}
}

func TestResolve(t *testing.T) {
	src := []byte(strings.Join([]string{
		"#ifndef GUARD_H",
		"#define GUARD_H",
		"#define USE_FAST 1",
		"#if USE_FAST",
		"int fast;",
		"#else",
		"int slow;",
		"#endif",
		"#ifdef FROM_BUILD",
		"int built;",
		"#endif",
		"#if FROM_HEADER > 2",
		"int maybe;",
		"#endif",
		"#if 0",
		"int never;",
		"#elif defined(__CUDACC__)",
		"int nvcc;",
		"#endif",
		"#endif",
		""}, "\n"))
	out := preproc.Resolve(src, map[string]string{"FROM_BUILD": "1"})
	sameShape(t, src, out)
	for _, keep := range []string{"#ifndef GUARD_H", "int fast;", "int built;", "#if FROM_HEADER > 2", "int maybe;", "int nvcc;"} {
		if !bytes.Contains(out, []byte(keep)) {
			t.Errorf("%q was removed:\n%s", keep, out)
		}
	}
	for _, gone := range []string{"int slow;", "#ifdef FROM_BUILD", "int never;", "#if USE_FAST"} {
		if bytes.Contains(out, []byte(gone)) {
			t.Errorf("%q is still there:\n%s", gone, out)
		}
	}
	// Without the -D, FROM_BUILD may come from a header: unknown, kept.
	out = preproc.Resolve(src, nil)
	if !bytes.Contains(out, []byte("#ifdef FROM_BUILD")) {
		t.Errorf("an unknown #ifdef was decided:\n%s", out)
	}
	// A file without directives comes back as is.
	plain := []byte("int x;\n")
	if out := preproc.Resolve(plain, nil); &out[0] != &plain[0] {
		t.Error("Resolve copied a file without directives")
	}
}

func TestUnbalanced(t *testing.T) {
	for _, c := range []struct {
		src    string
		ok     bool
		at     int
		ch, by byte
	}{
		{src: "void f() { g(\"}\"); /* { */ char c = '{'; }\n"},
		{src: "void f() {\n#if A\n  if (x) {\n#else\n  if (y) {\n#endif\n  }\n}\n"},
		{src: "#define OPEN {\nvoid f() { }\n"},
		{src: "void f() { g(1; }\n", ok: true, at: 12, ch: '(', by: '}'},
		{src: "void f() {\n  x = 1;\n", ok: true, at: 9, ch: '{'},
		{src: "void f() { }\n}\n", ok: true, at: 13, ch: '}'},
	} {
		b, ok := preproc.Unbalanced([]byte(c.src))
		if ok != c.ok || ok && (b.Offset != c.at || b.Char != c.ch || b.ClosedBy != c.by) {
			t.Errorf("Unbalanced(%q) = %+v, %v; want offset %d %q closed by %q, %v", c.src, b, ok, c.at, c.ch, c.by, c.ok)
		}
	}
}

func TestFlags(t *testing.T) {
	defs, inc := preproc.Flags([]string{"nvcc", "-DA", "-D", "B=2", "--define-macro=C=3", "-DF(x)=x", "-UA", "-Iinc", "-I", "/abs", "-isystem", "sys", "-O3"})
	if len(defs) != 2 || defs["B"] != "2" || defs["C"] != "3" {
		t.Errorf("defines = %v", defs)
	}
	if strings.Join(inc, ",") != "inc,/abs,sys" {
		t.Errorf("includes = %q", inc)
	}
}

func TestDefinesFromHeaders(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := dir + "/" + name
		os.MkdirAll(p[:strings.LastIndex(p, "/")], 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("inc/common.h", "#ifndef COMMON_H\n#define COMMON_H\n#define WARP_SIZE 32 // lanes\n#ifdef _WIN32\n#define PLATFORM 1\n#endif\n#include \"deeper.h\"\n#endif\n")
	write("inc/deeper.h", "#define TILE (2 * WARP_SIZE)\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n")
	write("local.h", "#define LOCAL 7\n")
	src := []byte("#include <common.h>\n#include \"local.h\"\n#include \"missing.h\"\n")
	defs := preproc.Defines(dir+"/k.cu", src, []string{"-I" + dir + "/inc", "-DLOCAL=8"})
	want := map[string]string{"COMMON_H": "", "WARP_SIZE": "32", "TILE": "(2 * WARP_SIZE)", "LOCAL": "8"}
	for k, v := range want {
		if defs[k] != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, defs[k], v, defs)
		}
	}
	for _, k := range []string{"PLATFORM", "MAX"} {
		if _, ok := defs[k]; ok {
			t.Errorf("%s taken: under a condition or function-like", k)
		}
	}
}

// A relative path is the user's, not this process's: "..." includes are
// found through the -iquote folder the host sends, never next to the
// process's own folder.
func TestDefinesQuotedRelative(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/warp.h", []byte("#define WARP_SIZE 32\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []byte("#include \"warp.h\"\n")
	if defs := preproc.Defines("k.cu", src, nil); defs != nil {
		t.Errorf("found %v without knowing the file's folder", defs)
	}
	if defs := preproc.Defines("k.cu", src, []string{"-iquote" + dir}); defs["WARP_SIZE"] != "32" {
		t.Errorf("-iquote: %v", defs)
	}
}
