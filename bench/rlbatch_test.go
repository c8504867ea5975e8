package bench

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// envRLBatchAll makes TestRLBatch compile every candidate of the batch
// instead of a sample (minutes on a small machine).
const envRLBatchAll = "CUDAPERF_RLBATCH_ALL"

// TestRLBatch checks the committed RL throughput batch (bench/rlbatch,
// written by `go run ./bench/rlbatch/gen`): 128 distinct candidates (by
// normalized source) over 8 tasks, the stated mix, and that the honest
// ones compile and the broken ones do not, with the project's nvcc. It
// compiles one honest candidate per task and one of every other class
// unless $CUDAPERF_RLBATCH_ALL is set.
func TestRLBatch(t *testing.T) {
	manifest := filepath.Join("rlbatch", "manifest.jsonl")
	items, err := LoadBatch(manifest)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{ClassHonest: 97, ClassCompileError: 12, ClassWrong: 16, ClassCrash: 1, ClassHang: 1, ClassSideStream: 1}
	got := map[string]int{}
	tasks := map[string]bool{}
	hashes := map[string]string{}
	for _, it := range items {
		got[it.Class]++
		tasks[it.Task] = true
		src, err := os.ReadFile(filepath.Join("rlbatch", it.File))
		if err != nil {
			t.Fatal(err)
		}
		h := SourceHash(src)
		if prev, ok := hashes[h]; ok {
			t.Errorf("%s and %s are the same candidate once normalized", prev, it.File)
		}
		hashes[h] = it.File
	}
	if len(items) != 128 || len(tasks) != 8 {
		t.Errorf("%d candidates over %d tasks, want 128 over 8", len(items), len(tasks))
	}
	for class, n := range want {
		if got[class] != n {
			t.Errorf("%d %s candidates, want %d", got[class], class, n)
		}
	}

	tc := toolchain(t)
	all := os.Getenv(envRLBatchAll) != ""
	// The sample: one honest candidate per task, one of every other class.
	sampled := map[string]bool{}
	var wg sync.WaitGroup
	for _, it := range items {
		k := it.Class
		if it.Class == ClassHonest {
			k += "/" + it.Task
		}
		if all {
			k = it.File
		}
		if sampled[k] {
			continue
		}
		sampled[k] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := tc.CompileCUDA(context.Background(), filepath.Join("rlbatch", it.File), device.DefaultArch)
			if err != nil {
				t.Error(err)
				return
			}
			if res.OK != (it.Class != ClassCompileError) {
				t.Errorf("%s (%s): compiled %v\n%s", it.File, it.Class, res.OK, res.Log)
			}
		}()
	}
	wg.Wait()
	t.Logf("compiled %d of %d candidates (set %s=1 for all)", len(sampled), len(items), envRLBatchAll)
}
