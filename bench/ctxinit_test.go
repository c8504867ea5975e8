package bench

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// TestMeasurementProgramsCompile: the stand-ins that bench/gpu-evaluator.sh
// builds and runs on the GPU machine (bench/ctxinit) compile with the
// project's nvcc, so that a device call is not spent finding a typo.
func TestMeasurementProgramsCompile(t *testing.T) {
	tc := toolchain(t)
	srcs, err := filepath.Glob(filepath.Join("ctxinit", "*.cu"))
	if err != nil || len(srcs) < 3 {
		t.Fatalf("bench/ctxinit: %d programs (%v), want ctxinit, lifecycle and staging", len(srcs), err)
	}
	for _, src := range srcs {
		res, err := tc.CompileCUDA(context.Background(), src, device.DefaultArch)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK {
			t.Errorf("%s does not compile:\n%s", src, res.Log)
		}
	}
}
