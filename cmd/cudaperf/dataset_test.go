package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDatasetCommands drives expand, assign and check end to end on a
// small suite copied into a temporary folder.
func TestDatasetCommands(t *testing.T) {
	suite := t.TempDir()
	src := filepath.Join("..", "..", "bench", "suites", "c2cuda")
	// Three tasks of the real suite (one per side) and one new task with a template.
	for _, name := range []string{"saxpy", "gelu", "col_sum"} {
		copyTree(t, filepath.Join(src, name), filepath.Join(suite, name))
	}
	copyTree(t, filepath.Join(src, "vector_add"), filepath.Join(suite, "vector_add2"))
	y, _ := os.ReadFile(filepath.Join(suite, "vector_add2", "task.yaml"))
	writeFile(t, filepath.Join(suite, "vector_add2"), "task.yaml", strings.Replace(string(y), "name: vector_add", "name: vector_add2", 1))
	os.MkdirAll(filepath.Join(suite, "vector_add2", "sweeps"), 0o755)
	writeFile(t, filepath.Join(suite, "vector_add2", "sweeps"), "blocked.cu", `// strategy: blocked - BLOCK threads per block, one element each
// sweep: BLOCK = 128, 256
__global__ void __launch_bounds__(BLOCK) add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
extern "C" void vector_add(const float *a, const float *b, float *c, int n) {
    add<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(a, b, c, n);
}
`)
	writeFile(t, suite, "split.yaml", "# frozen by hand\ntrain: [gelu]\nvalidation: [col_sum]\ntest: [saxpy]\n")

	_, stderr, code := runCudaperf(t, "", "dataset", "expand", "--check", suite)
	if code != 1 || !strings.Contains(stderr, "2 instances out of date") {
		t.Fatalf("expand --check on a fresh template: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runCudaperf(t, "", "dataset", "expand", suite)
	if code != 0 || strings.Count(stdout, "wrote ") != 2 {
		t.Fatalf("expand: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, _, code := runCudaperf(t, "", "dataset", "expand", "--check", suite); code != 0 {
		t.Fatalf("expand --check after expand: exit %d", code)
	}

	_, stderr, code = runCudaperf(t, "", "dataset", "check", suite)
	if code != 2 || !strings.Contains(stderr, "dataset assign") {
		t.Fatalf("check with an unassigned task: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code = runCudaperf(t, "", "dataset", "assign", suite)
	if code != 0 || !strings.Contains(stdout, "vector_add2 (elementwise) -> ") {
		t.Fatalf("assign: exit %d\n%s%s", code, stdout, stderr)
	}
	split, _ := os.ReadFile(filepath.Join(suite, "split.yaml"))
	if !strings.HasPrefix(string(split), "# frozen by hand\n") || !strings.Contains(string(split), "vector_add2") {
		t.Fatalf("split.yaml after assign:\n%s", split)
	}

	_, stderr, code = runCudaperf(t, "", "dataset", "check", suite)
	if code != 0 || !strings.Contains(stderr, " distinct token streams among ") {
		t.Fatalf("check of a clean suite: exit %d\n%s", code, stderr)
	}

	// A test task's copy on the train side is found, named and fails the
	// check, both as contamination and as a kernel that is not distinct.
	naive, _ := os.ReadFile(filepath.Join(suite, "saxpy", "variants", "naive.cu"))
	writeFile(t, filepath.Join(suite, "gelu", "variants"), "from_saxpy.cu", string(naive))
	stdout, stderr, code = runCudaperf(t, "", "dataset", "check", "--format", "json", suite)
	if !strings.Contains(stderr, "same token stream") || !strings.Contains(stderr, "from_saxpy.cu") {
		t.Errorf("check did not name the duplicate:\n%s", stderr)
	}
	var over []struct {
		A, B  string
		Exact bool
	}
	if err := json.Unmarshal([]byte(stdout), &over); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	if code != 1 || len(over) == 0 || !over[0].Exact || !strings.Contains(over[0].A, "saxpy") || !strings.Contains(over[0].B, "gelu") {
		t.Fatalf("check after copying saxpy's variants into gelu: exit %d, %+v", code, over)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// TestDatasetCompare: a run whose every median is 10% above the records
// reads as ratio 1.1 and a 10% difference, in the table and in JSON; a
// missing file is an error that says what to give.
func TestDatasetCompare(t *testing.T) {
	old, slower := acceptedRecords(t, `"task":"saxpy"`, 0, 1.1)
	if len(old) < 3 {
		t.Fatalf("only %d accepted saxpy records in measurements.jsonl", len(old))
	}
	dir := t.TempDir()
	writeFile(t, dir, "old.jsonl", strings.Join(old, "\n")+"\n")
	writeFile(t, dir, "new.jsonl", strings.Join(slower, "\n")+"\n")
	oldPath, newPath := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "new.jsonl")

	stdout, stderr, code := runCudaperf(t, "", "dataset", "compare", oldPath, newPath, oldPath)
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	want := []string{
		"| " + newPath + " | " + strconv.Itoa(len(old)) + " | 1.1000 | 10.00% | 10.00% | 10.0% | 0 |",
		"| " + oldPath + " | " + strconv.Itoa(len(old)) + " | 1.0000 | 0.00% | 0.00% | 0.0% | 0 |",
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("table lacks %q:\n%s", w, stdout)
		}
	}
	stdout, _, code = runCudaperf(t, "", "dataset", "compare", "--format", "json", oldPath, newPath)
	var got []struct {
		File   string  `json:"file"`
		Common int     `json:"common"`
		Ratio  float64 `json:"ratio"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, stdout)
	}
	if len(got) != 1 || got[0].File != newPath || got[0].Common != len(old) || got[0].Ratio < 1.0999 || got[0].Ratio > 1.1001 {
		t.Errorf("json: %+v", got)
	}
	// A control run names the variants by path (--candidate), so its
	// records say kind "candidate": compared as the variants they are (the
	// first H200 control compared nothing for this).
	var asCandidates []string
	for _, line := range slower {
		asCandidates = append(asCandidates, strings.Replace(line, `"kind":"variant"`, `"kind":"candidate"`, 1))
	}
	writeFile(t, dir, "control.jsonl", strings.Join(asCandidates, "\n")+"\n")
	controlPath := filepath.Join(dir, "control.jsonl")
	stdout, stderr, code = runCudaperf(t, "", "dataset", "compare", oldPath, controlPath)
	if w := "| " + controlPath + " | " + strconv.Itoa(len(old)) + " | 1.1000 |"; code != 0 || !strings.Contains(stdout, w) {
		t.Errorf("control run named by path: exit %d, want %q in\n%s\n%s", code, w, stdout, stderr)
	}
	// A run whose candidates all failed has nothing to compare: exit 1, and
	// stderr says why rather than a table of zeros alone.
	failed := strings.Replace(old[0], `"ran":true`, `"ran":true,"error":"no CUDA device found"`, 1)
	failed = strings.Replace(failed, `"accepted":true`, `"accepted":false`, 1)
	writeFile(t, dir, "failed.jsonl", failed+"\n")
	failedPath := filepath.Join(dir, "failed.jsonl")
	stdout, stderr, code = runCudaperf(t, "", "dataset", "compare", oldPath, newPath, failedPath)
	if code != 1 || !strings.Contains(stdout, "| "+failedPath+" | 0 |") ||
		!strings.Contains(stderr, "1 results, 1 of them failed (first: no CUDA device found)") ||
		!strings.Contains(stderr, "1 of 2 runs had nothing to compare") {
		t.Errorf("failed run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	_, stderr, code = runCudaperf(t, "", "dataset", "compare", oldPath, filepath.Join(dir, "absent.jsonl"))
	if code != 2 || !strings.Contains(stderr, "absent.jsonl") || !strings.Contains(stderr, "give results.jsonl files") {
		t.Errorf("missing file: exit %d\n%s", code, stderr)
	}
}

// dataset control applies the rule: the records themselves as both runs
// pass (SHARE_GPU=1, exit 0); a shared run 10 % slower fails (b) (exit 1).
func TestDatasetControl(t *testing.T) {
	same, slower := acceptedRecords(t, "", 30, 1.1)
	dir := t.TempDir()
	writeFile(t, dir, "records.jsonl", strings.Join(same, "\n")+"\n")
	writeFile(t, dir, "slower.jsonl", strings.Join(slower, "\n")+"\n")
	rec, slow := filepath.Join(dir, "records.jsonl"), filepath.Join(dir, "slower.jsonl")
	stdout, stderr, code := runCudaperf(t, "", "dataset", "control", rec, rec, rec)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(stdout), "SHARE_GPU=1") || strings.Contains(stdout, "FAIL") {
		t.Errorf("identical runs: exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = runCudaperf(t, "", "dataset", "control", rec, rec, slow)
	if code != 1 || !strings.Contains(stdout, "(b) shared/exclusive median ratio in [0.98, 1.02]: 1.1000 over 30 variants: FAIL") ||
		!strings.HasSuffix(strings.TrimSpace(stdout), "SHARE_GPU=0") || !strings.Contains(stderr, "measure with the GPU exclusive") {
		t.Errorf("shared 10%% slower: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, stderr, code := runCudaperf(t, "", "dataset", "control", rec, rec); code != 2 || !strings.Contains(stderr, "RECORDS.jsonl EXCLUSIVE.jsonl SHARED.jsonl") {
		t.Errorf("two files: exit %d\n%s", code, stderr)
	}
}

// acceptedRecords returns up to n (0: all) accepted records of
// measurements.jsonl whose line contains match, and the same records with
// every time median multiplied by scale.
func acceptedRecords(t *testing.T, match string, n int, scale float64) (orig, scaled []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "bench", "suites", "c2cuda", "measurements.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if n > 0 && len(orig) == n {
			break
		}
		var r map[string]any
		if line == "" || !strings.Contains(line, match) || json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		v, _ := r["verdict"].(map[string]any)
		if v == nil || v["accepted"] != true {
			continue
		}
		orig = append(orig, line)
		for _, c := range v["configs"].([]any) {
			if tm, ok := c.(map[string]any)["time"].(map[string]any); ok {
				tm["median_ms"] = tm["median_ms"].(float64) * scale
			}
		}
		b, _ := json.Marshal(r)
		scaled = append(scaled, string(b))
	}
	return orig, scaled
}

// TestDatasetCheckTorchSuite: a torch2cuda suite's tasks are problem.py
// folders, which the split check must count as tasks (it once listed all
// 30 as "not in the suite"), and whose variants' kernels must be compared
// (it once compared none).
func TestDatasetCheckTorchSuite(t *testing.T) {
	suite := filepath.Join("..", "..", "bench", "suites", "torch2cuda")
	_, stderr, code := runCudaperf(t, "", "dataset", "check", suite)
	if code != 0 || strings.Contains(stderr, "not in the suite") {
		t.Errorf("dataset check of the torch2cuda suite: exit %d\n%s", code, stderr)
	}
	// Its kernels are compared (they live in the variants' Python strings).
	variants, _ := filepath.Glob(filepath.Join(suite, "*", "variants", "*.py"))
	if want := fmt.Sprintf("%d files compared", len(variants)); len(variants) == 0 || !strings.Contains(stderr, want) {
		t.Errorf("dataset check of the torch2cuda suite does not say %q:\n%s", want, stderr)
	}
}
