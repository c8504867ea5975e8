package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/dataset"
	"github.com/cudaperf/cudaperf/bench/task"
)

// SweepSampleEnv names the environment variable that sets how many
// instances of each sweep template TestSuites compiles: a number, or "all".
const SweepSampleEnv = "CUDAPERF_SWEEP_SAMPLE"

// DefaultSweepSample is the number of instances per template CI compiles.
// Every hand-written variant is compiled; of each template's instances
// only dataset.Sample's choice: the first and last instance, an instance
// at each parameter's first and last declared value, and the rest of the
// DefaultSweepSample by hash of the file name. An instance is the
// template with its parameters #defined, so the extremes catch what a
// value can break (shared memory over 48 KiB, too many threads or
// registers, a degenerate loop), while the other instances differ only by
// constants. c2cuda has 2,194 instances of 39 templates; one compile takes
// ~1.2 CPU-seconds, so all of them would be ~45 CPU-minutes, far beyond
// CI's 2 cores. With the sample (226 instances) a cold run of TestSuites
// took 802 CPU-seconds and 11 minutes on the loaded 2-core development
// machine, as the 158-instance suite did when every instance was compiled.
// CUDAPERF_SWEEP_SAMPLE=all compiles every instance (do so after editing a
// template), CUDAPERF_SWEEP_SAMPLE=N takes N per template.
const DefaultSweepSample = 6

// TestSuites is the dataset check: every task under suites/*/ validates,
// its reference compiles with gcc -O2 and links with the generated
// reference program (so the entry and any generator are defined), the
// generated driver compiles with nvcc, and every hand-written variant (and
// cheat) plus the sample of sweep instances above compiles with nvcc.
// Compiles run in parallel through the cache, so a second run only
// recompiles what changed. CUDAPERF_SUITES=GLOB (a path glob relative to
// bench, e.g. "suites/c2cuda/gelu") limits the check to some tasks.
func TestSuites(t *testing.T) {
	per := DefaultSweepSample
	switch v := os.Getenv(SweepSampleEnv); v {
	case "":
	case "all":
		per = 0
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: give a positive number of instances per template, or all", SweepSampleEnv, v)
		}
		per = n
	}
	glob := filepath.Join("suites", "*", "*")
	if g := os.Getenv("CUDAPERF_SUITES"); g != "" {
		glob = g
	}
	files, err := filepath.Glob(filepath.Join(glob, task.File))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tasks match %s/%s: %v", glob, task.File, err)
	}
	tc := bench.Toolchain(t)
	type outcome struct {
		sess  *bench.Session
		cands []bench.Candidate
		res   []*bench.Result
	}
	outs := make([]outcome, len(files))
	var wg sync.WaitGroup
	var hand, sampled, skipped int
	for i, f := range files {
		dir := filepath.Dir(f)
		tk, err := task.Load(dir)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		sample, err := dataset.SampleFiles(dir, per)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		var cands []bench.Candidate
		for _, c := range append(bench.Variants(tk), bench.Cheats(tk)...) {
			src, err := os.ReadFile(c.Path)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			switch {
			case !dataset.Generated(src):
				hand++
			case sample[filepath.Base(c.Path)]:
				sampled++
			default:
				skipped++
				continue
			}
			cands = append(cands, c)
		}
		s, err := bench.NewSession(tk, bench.Options{Toolchain: tc, CompileOnly: true, ScratchDir: t.TempDir()})
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		defer s.Close()
		outs[i] = outcome{sess: s, cands: cands}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i].res = s.CompileAll(context.Background(), cands)
		}()
	}
	wg.Wait()
	t.Logf("compiling %d hand-written variants and cheats and %d sweep instances (%d not compiled; %s=all compiles them)",
		hand, sampled, skipped, SweepSampleEnv)
	for _, o := range outs {
		if o.sess == nil {
			continue
		}
		name := o.sess.Task.Suite + "/" + o.sess.Task.Name
		if err := o.sess.PrepErr(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for i, r := range o.res {
			switch {
			case r.Error != "":
				t.Errorf("%s: %s: %s", name, o.cands[i].Path, r.Error)
			case !r.Compile.OK:
				t.Errorf("%s: %s does not compile:\n%s", name, o.cands[i].Path, r.Compile.Log)
			}
		}
	}
}
