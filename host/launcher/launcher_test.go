package launcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCMakeCommand(t *testing.T) {
	// A real command CMake 4.4 + Ninja handed to the launcher (ECOSYSTEM.md §5).
	cmd := []string{"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-ccbin=/opt/gcc/bin/g++",
		"-DFOO=1", "-I/src/include", "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
		"-MD", "-MT", "CMakeFiles/k.dir/k.cu.o", "-MF", "CMakeFiles/k.dir/k.cu.o.d",
		"-x", "cu", "-c", "/abs/k.cu", "-o", "CMakeFiles/k.dir/k.cu.o"}
	got := Parse(cmd, "/build")
	want := Invocation{
		Command: cmd, Compiler: "/usr/local/cuda/bin/nvcc", Sources: []string{"/abs/k.cu"},
		Arch: "sm_90", Defines: []string{"FOO=1"}, IncludeDirs: []string{"/src/include"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", d)
	}
}

func TestParseChainAndTryCompile(t *testing.T) {
	cmd := []string{"ccache", "nvcc", "-arch", "sm_80", "-c", "a.cu", "-o", "a.o", "-Xcompiler", "-fPIC"}
	got := Parse(cmd, "/b/CMakeFiles/CMakeScratch/TryCompile-abc")
	if got.Compiler != "nvcc" || got.Arch != "sm_80" || !got.TryCompile {
		t.Errorf("got compiler %q arch %q try %v, want nvcc sm_80 true", got.Compiler, got.Arch, got.TryCompile)
	}
	if d := cmp.Diff([]string{"a.cu"}, got.Sources); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
	// A .cpp compiled with -x cu is CUDA too; an output named x.cu.o is not a source.
	got = Parse([]string{"nvcc", "-x", "cu", "-c", "b.cpp", "-o", "b.cu"}, "/b")
	if d := cmp.Diff([]string{"b.cpp"}, got.Sources); d != "" {
		t.Errorf("sources with -x cu (-want +got):\n%s", d)
	}
}

func TestIsCompilerCommand(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "mycc")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := func(s string) bool { return s == "lint" || s == "help" }
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}, true},
		{[]string{"nvcc", "-c", "a.cu"}, true},
		{[]string{"ccache", "nvcc"}, true},
		{[]string{exe, "-c"}, true},
		{[]string{filepath.Join(dir, "missing")}, false},
		{[]string{"lint", "x.cu"}, false},
		{[]string{"--help"}, false},
		{[]string{"examples/"}, false},
		{nil, false},
	} {
		if got := IsCompilerCommand(tc.args, sub); got != tc.want {
			t.Errorf("IsCompilerCommand(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestExecKeepsExitCodeAndOutput(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "fakecc")
	out := filepath.Join(dir, "args")
	body := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + out + "\nexit 7\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	code, err := Exec(context.Background(), []string{script, "-c", "a b.cu", "-o", "x.o"})
	if err != nil || code != 7 {
		t.Fatalf("Exec = %d, %v; want 7, nil", code, err)
	}
	got, _ := os.ReadFile(out)
	if string(got) != "-c\na b.cu\n-o\nx.o\n" {
		t.Errorf("compiler saw args %q, want them unchanged", got)
	}
	if code, err := Exec(context.Background(), []string{filepath.Join(dir, "nope")}); err == nil || code != 127 {
		t.Errorf("Exec(missing) = %d, %v; want 127 and an error", code, err)
	}
}

func TestWerror(t *testing.T) {
	for v, want := range map[string]bool{"1": true, "on": true, "": false, "0": false} {
		t.Setenv("CUDAPERF_WERROR", v)
		if Werror() != want {
			t.Errorf("CUDAPERF_WERROR=%q: Werror() = %v", v, !want)
		}
	}
}

func TestPtxasVerbose(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		added bool
	}{
		{[]string{"/usr/local/cuda/bin/nvcc", "-c", "k.cu", "-o", "k.o"}, true},
		{[]string{"ccache", "nvcc", "-c", "k.cu"}, true},
		{[]string{"nvcc", "-Xptxas", "-O3,-v", "-c", "k.cu"}, false},
		{[]string{"nvcc", "-Xptxas=-v", "-c", "k.cu"}, false},
		{[]string{"nvcc", "--resource-usage", "-c", "k.cu"}, false},
		{[]string{"clang++", "-c", "k.cu"}, false},
	} {
		got, added := PtxasVerbose(Parse(tc.cmd, "/src"))
		if added != tc.added {
			t.Errorf("%v: added = %v, want %v", tc.cmd, added, tc.added)
		}
		if added && (len(got) != len(tc.cmd)+2 || got[len(got)-2] != "-Xptxas" || got[len(got)-1] != "-v") {
			t.Errorf("%v: command = %v, want -Xptxas -v appended", tc.cmd, got)
		}
		if !added && len(got) != len(tc.cmd) {
			t.Errorf("%v: command changed to %v", tc.cmd, got)
		}
	}
}

func TestSplitPtxas(t *testing.T) {
	log := "k.cu(3): warning: unused variable\n" +
		"ptxas info    : 0 bytes gmem\n" +
		"ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n" +
		"ptxas info    : Function properties for _Z1kPf\n" +
		"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n" +
		"ptxas info    : Used 8 registers, 360 bytes cmem[0]\n" +
		"some other line\n"
	p, rest := SplitPtxas(log)
	if rest != "k.cu(3): warning: unused variable\nsome other line\n" {
		t.Errorf("rest = %q", rest)
	}
	if strings.Count(p, "\n") != 5 || !strings.Contains(p, "Used 8 registers") {
		t.Errorf("ptxas = %q", p)
	}
}
