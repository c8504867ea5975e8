package dataset

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestSummarizeAndMarkdown(t *testing.T) {
	rs, err := Load("testdata/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	split := &Split{Train: []string{"vector_add"}, Test: []string{"sum_reduce"}}
	ts := Summarize(rs, split)
	if len(ts) != 2 || ts[0].Name != "sum_reduce" || ts[1].Name != "vector_add" {
		t.Fatalf("tasks = %+v", ts)
	}
	va := ts[1]
	if len(va.Variants) != 3 {
		t.Fatalf("vector_add has %d variants, want 3 (re-measured naive replaces the old line, cheats are not variants)", len(va.Variants))
	}
	if b, w := va.Best(), va.Worst(); b.Name != "float4" || w.Name != "uncoalesced" {
		t.Errorf("best %s worst %s, want float4 and uncoalesced", b.Name, w.Name)
	}
	if got := va.Spread(); got < 4.49 || got > 4.51 {
		t.Errorf("spread %.3f, want 4.5", got)
	}
	if va.Variants[1].Name != "naive" || va.Variants[1].Speedup != 44 {
		t.Errorf("re-measured naive not used: %+v", va.Variants[1])
	}
	sr := ts[0]
	if sr.AllPass() || sr.Variants[len(sr.Variants)-1].Name != "broken" {
		t.Errorf("rejected variant must sort last and fail AllPass: %+v", sr.Variants)
	}
	s := Summary(ts)
	if s.Tasks != 2 || s.Variants != 5 || s.Accepted != 4 || s.TasksAllPass != 1 || s.TasksSpread2x != 1 || s.TasksFastestAboveMin != 2 {
		t.Errorf("stats %+v", s)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, ts, "bench/measure-c2cuda.sh", "speedups.png"); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "RESULTS.md.golden")
	if *update {
		_ = os.WriteFile(golden, md.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if d := cmp.Diff(string(want), md.String()); d != "" {
		t.Errorf("RESULTS.md mismatch (-want +got):\n%s", d)
	}
}

func TestPlotWritesAnImage(t *testing.T) {
	rs, err := Load("testdata/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.png")
	if err := Plot(Summarize(rs, nil), p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 5000 {
		t.Errorf("not a plausible PNG (%d bytes)", len(b))
	}
	if err := Plot(nil, p); err == nil {
		t.Errorf("plotting nothing should be an error")
	}
}

// TestSpeedupsShareOneReference checks that variants measured in runs
// whose C reference took different times get their speedups over one
// reference time, so a faster kernel never shows the smaller speedup.
func TestSpeedupsShareOneReference(t *testing.T) {
	rec := func(name string, ms, refMs float64) bench.Result {
		return bench.Result{Task: "box_blur", Candidate: name, Kind: bench.KindVariant, Compile: bench.Compile{OK: true},
			Verdict: &verdict.Verdict{Accepted: true, Speedup: refMs / ms, Configs: []verdict.ConfigResult{{
				Name: "large", Primary: true, Pass: true, Time: &verdict.Timing{Median: ms}, RefTime: &verdict.Timing{Median: refMs}}}}}
	}
	// slow was measured when the reference took 1,283 ms, fast when it
	// took 700 ms: by their own runs, fast (2,800x) trails slow (3,208x).
	ts := Summarize([]bench.Result{rec("slow", 0.4, 1283), rec("fast", 0.25, 700), rec("mid", 0.3, 700)}, nil)
	task := ts[0]
	if task.RefMs != 700 {
		t.Errorf("common reference %v ms, want the median 700", task.RefMs)
	}
	for i := 1; i < len(task.Variants); i++ {
		a, b := task.Variants[i-1], task.Variants[i]
		if a.MedianMs > b.MedianMs || a.Speedup < b.Speedup {
			t.Errorf("%s (%.2f ms, %.0fx) before %s (%.2f ms, %.0fx): speedups must follow times", a.Name, a.MedianMs, a.Speedup, b.Name, b.MedianMs, b.Speedup)
		}
	}
	if got := task.Variants[0]; got.Name != "fast" || got.Speedup != 700/0.25 {
		t.Errorf("fastest %+v, want fast at 2800x", got)
	}
}

// TestLoadRefusesNamelessRecords: records without a task or candidate
// would all count as one variant in reports and rankings; the line is
// named instead.
func TestLoadRefusesNamelessRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "measurements.jsonl")
	_ = os.WriteFile(p, []byte(`{"task":"saxpy","candidate":"naive","kind":"variant"}`+"\n"+`{"task":"saxpy","kind":"variant"}`+"\n"), 0o644)
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p+":2: the record names no task or no candidate") {
		t.Errorf("Load = %v; want line 2 named", err)
	}
}
