package bench

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
)

// TestSuites is the dataset check: every task under suites/*/ validates,
// its reference compiles with gcc -O2 and links with the generated
// reference program (so the entry and any generator are defined), the
// generated driver compiles with nvcc, and every variant (and cheat)
// compiles with nvcc. Compiles run in parallel through the cache, so a
// second run only recompiles what changed. Every sweep instance is compiled
// too, not a sample: with 61 c2cuda tasks (426 variants, 158 of them sweep
// instances) a cold run took 691 CPU-seconds on the 2-core development
// machine (+260 over the 41-task suite), a few minutes of CI.
func TestSuites(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("suites", "*", "*", task.File))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tasks under suites/: %v", err)
	}
	tc := toolchain(t)
	type outcome struct {
		sess  *Session
		cands []Candidate
		res   []*Result
	}
	outs := make([]outcome, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		dir := filepath.Dir(f)
		tk, err := task.Load(dir)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		s, err := NewSession(tk, Options{Toolchain: tc, CompileOnly: true, ScratchDir: t.TempDir()})
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		defer s.Close()
		cands := append(Variants(tk), Cheats(tk)...)
		outs[i] = outcome{sess: s, cands: cands}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i].res = s.CompileAll(context.Background(), cands)
		}()
	}
	wg.Wait()
	for _, o := range outs {
		if o.sess == nil {
			continue
		}
		name := o.sess.Task.Suite + "/" + o.sess.Task.Name
		if o.sess.prepErr != nil {
			t.Errorf("%s: %v", name, o.sess.prepErr)
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
