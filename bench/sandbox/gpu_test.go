package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/bench/nvcc"
)

// TestCUDAInitConfined runs a small CUDA program under the full sandbox and
// with each mechanism left out in turn, so that on a GPU machine it says
// which mechanism, if any, breaks CUDA (on the H200 machine of the first
// session, any Landlock domain did: cudaErrorOperatingSystem). Each
// configuration must also report no violation: a system call the CUDA
// driver makes and the policy refuses would reject every candidate.
func TestCUDAInitConfined(t *testing.T) {
	if _, err := os.Stat("/dev/nvidiactl"); err != nil {
		t.Skip("no GPU here (/dev/nvidiactl is missing): this test checks CUDA under the sandbox on a GPU machine")
	}
	nv, err := nvcc.Find()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	w := newWorld(t)
	exe := filepath.Join(w.bin, "cuda_init")
	if out, err := exec.Command(nv, "-arch=native", "-o", exe, filepath.Join("testdata", "gpu", "cuda_init.cu")).CombinedOutput(); err != nil {
		t.Fatalf("nvcc: %v\n%s", err, out)
	}
	configs := [][]string{nil}
	for _, m := range Mechanisms {
		configs = append(configs, []string{m})
	}
	// Landlock alone, with and without its signal scoping: if it breaks
	// CUDA again, these say whether the file rules or the scoping do.
	configs = append(configs, []string{Seccomp, Rlimits, User}, []string{Seccomp, Rlimits, User, LandlockScope})
	for _, skip := range configs {
		name := "full"
		if skip != nil {
			name = "without_" + strings.Join(skip, "_")
		}
		t.Run(name, func(t *testing.T) {
			t.Setenv(EnvSkip, strings.Join(skip, ","))
			o, rep := w.run(t, exe)
			t.Logf("%s: %s; mechanisms %v", name, strings.TrimSpace(o.Output), rep.Mechanisms)
			if !o.OK() || !strings.Contains(o.Output, "CUDA OK") {
				t.Errorf("CUDA does not work with the sandbox %s (%s): %s\n%s", name, EnvSkip+"="+strings.Join(skip, ","), o.Describe(), o.Output)
			}
			for _, v := range rep.Violations {
				t.Errorf("the CUDA runtime itself was refused: %s", v)
			}
		})
	}
}
