package ablation

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/reward"
)

// A results page from written run files: "both" is correct on every
// sample, "ver" on a third, the start on none; "random" is missing a seed.
func TestCollectAndWrite(t *testing.T) {
	root := t.TempDir()
	c, err := Parse("a.yaml", []byte("name: abl\nroot: "+root+"\nmodes: [ver, both, random]\nseeds: [1, 2]\neval: {sides: [test], n: 6, k: [1, 3]}\ntrain: {steps: 2, turns: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	tasks := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, r := range c.Runs() {
		if r.Mode == "random" && r.Seed == 2 {
			continue
		}
		dir := r.Cfg.Dir()
		os.MkdirAll(dir, 0o755)
		// Start records: ver-s2 began from another checkpoint, start-s1
		// was made before runs recorded theirs.
		switch r.Cfg.Name {
		case "start-s1":
		case "ver-s2":
			os.WriteFile(filepath.Join(dir, grpo.StartFile), []byte(`{"init": "runs/sft/epoch-4", "sha256": "`+strings.Repeat("b", 64)+`"}`), 0o644)
		default:
			os.WriteFile(filepath.Join(dir, grpo.StartFile), []byte(`{"init": "runs/sft/epoch-4", "sha256": "`+strings.Repeat("a", 64)+`"}`), 0o644)
		}
		// The run's own summary (what cudaperf eval wrote), distinct per
		// seed so the row shows it is this run's.
		sd := float64(r.Seed)
		rep := grpo.EvalReport{Cost: grpo.EvalCost{GenerateSeconds: 10, JudgeSeconds: 5}, AtK: []grpo.AtK{
			{K: 1, PassAtK: grpo.Estimate{Value: 0.125 * sd, Lo: 0.0625 * sd, Hi: 0.1875 * sd}, Speedup: grpo.Estimate{Value: 1.25 * sd, Lo: 0.75 * sd, Hi: 2 * sd}},
			{K: 3, PassAtK: grpo.Estimate{Value: 0.375 * sd, Lo: 0.25 * sd, Hi: 0.5 * sd}, Speedup: grpo.Estimate{Value: 4.5 * sd, Lo: 2.5 * sd, Hi: 6 * sd}},
		}}
		for i, name := range tasks {
			te := grpo.TaskEval{Task: name, N: 6, Speedups: make([]float64, 6)}
			for k := range te.Speedups {
				if r.Mode == "both" || (r.Mode != StartMode && k%3 == i%3) {
					te.Correct++
					te.Speedups[k] = 100
				}
			}
			rep.Tasks = append(rep.Tasks, te)
		}
		b, _ := json.Marshal(rep)
		os.WriteFile(EvalFile(dir, "test"), b, 0o644)
		if r.Mode == StartMode {
			continue // evaluated, never trained: no metrics
		}
		var ms []byte
		for s := 1; s <= 2; s++ {
			l, _ := json.Marshal(grpo.Metrics{Step: int64(s), RewardMean: float64(s), StrSpeedupRho: 0.5, RhoGroups: 2,
				StrMean: float64(s) - 1.5, CompileRate: 0.3 / float64(s), TurnCorrect: []float64{0.1 * float64(s), 0.05},
				Candidates: 20, NoCode: 2 * s,
				Stage: map[string]float64{"step_s": 20 * float64(s)}})
			ms = append(append(ms, l...), '\n')
		}
		os.WriteFile(filepath.Join(dir, "metrics.jsonl"), ms, 0o644)
		if r.Mode == "both" {
			// Training candidates: one compiled and wrong, scored below a
			// compile failure, and one that did not compile.
			var rl bytes.Buffer
			zw := gzip.NewWriter(&rl)
			for _, x := range []grpo.RolloutRecord{
				{Step: 1, HasCode: true, Compiled: true, Used: true, Reward: reward.Scored{Total: -1.2}, Advantage: 1},
				{Step: 1, HasCode: true, Used: true, Reward: reward.Scored{Total: -1}, Advantage: -1},
			} {
				l, _ := json.Marshal(x)
				zw.Write(append(l, '\n'))
			}
			zw.Close()
			os.MkdirAll(filepath.Join(dir, "rollouts"), 0o755)
			os.WriteFile(filepath.Join(dir, "rollouts", "step-000001.jsonl.gz"), rl.Bytes(), 0o644)
		}
	}
	res, err := Collect(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Missing) != 1 || !strings.Contains(res.Missing[0], "random-s2") {
		t.Errorf("missing %v, want random-s2", res.Missing)
	}
	var b strings.Builder
	if err := res.Write(&b, root, "cudaperf ablate report --config a.yaml"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"pass@1 on the test side",
		"- Commands: the runs by `cudaperf ablate --config FILE --resume",
		"| both | 1.000 [1.000, 1.000] |",
		"| random | — |",
		"both − ver",
		"both > ver",
		"Not made yet** (1): random-s2",
		// random-s2's 2 steps at the median 30 s, its evaluation at 15 s.
		"Left: training steps 2, evaluations 1: about 1.2 device minutes at the medians so far (a step 30.0 s, an evaluation 15.0 s)",
		"| ver | 0.50, 0.50 | 8 |",
		"str_on = compiled",
		// First and last quarter of 2 steps: step 1, step 2.
		"| both | -0.50 → +0.50 | 30.0% → 15.0% | 10.0% → 20.0% |",
		// Turn 1: steps at 10% and 20%; turn 2: 5% each.
		"Do the refinement turns help?",
		"| ver | 15.0% → 5.0% |",
		// Both seeds' rollouts pooled; ver wrote none.
		"| both | 2 | 2 (100%) | -1.200 | +1.00 / -1.00 |",
		"| ver | 0 | — | — | — |",
		"| random | 15.0% → 5.0% |",
		// Each evaluated run on its own, before any mode table.
		"## Each evaluated run on its own",
		"| run | side | pass@1 | pass@3 | speedup@1 | speedup@3 |",
		"| ver-s2 | test | 0.250 [0.125, 0.375] | 0.750 [0.500, 1.000] | 2.5× [1.5, 4] | 9× [5, 12] |",
		"| random-s1 | test |",
		// The control: the start evaluated, and every mode against it.
		// Every comparison off the primary metric and side, all of them
		// detected in these made-up runs, against the 5% chance would give.
		"\n\nThe page's other 9 comparisons (other metrics and sides, not named before the runs) are not corrected for multiplicity: were there no effect at all, about 0.5 of them (5%) would show a difference by chance; 9 do.",
		"Control: the start itself",
		"| start-s1 | test |",
		"| start | 0.000 [0.000, 0.000] |",
		"| pass@1 | both − start | +1.000 [+1.000, +1.000] |",
		"| pass@1 | ver − start |",
		"- **The runs began from different start checkpoints**: sha256 `aaaaaaaaaaaa` for ver-s1, both-s1, random-s1, start-s2, both-s2; " +
			"sha256 `bbbbbbbbbbbb` for ver-s2; not recorded for start-s1 (made before runs recorded their start).",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "random-s2 |") {
		t.Error("a run without an evaluation is listed among the evaluated")
	}
	if strings.Index(page, "## Each evaluated run") > strings.Index(page, "## held out") {
		t.Error("the runs' table comes after the mode tables")
	}
	if strings.Contains(page, "both − random") {
		t.Error("a mode with a missing seed was compared")
	}
	if _, err := os.Stat(filepath.Join(root, "curves.png")); err != nil {
		t.Error(err)
	}

	// A reading by hand is printed under the conclusion, and marked when
	// it names other results than the page's (or none).
	fp := regexp.MustCompile("Results fingerprint: `([0-9a-f]{12})`").FindStringSubmatch(page)
	if fp == nil {
		t.Fatalf("page prints no results fingerprint:\n%s", page)
	}
	for _, c := range []struct {
		marker string
		stale  bool
	}{
		{"<!-- results: " + fp[1] + " -->", false},
		{"<!-- results: 000000000000 -->", true},
		{"", true},
	} {
		res.Reading, res.ReadingFile = c.marker+"\nBoth beat ver on these made-up runs.\n", "READING.md"
		var b strings.Builder
		if err := res.Write(&b, root, "cudaperf ablate report --config a.yaml --reading READING.md"); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if !strings.Contains(page, "### Reading, by hand (`READING.md`)\n\nBoth beat ver") && !c.stale {
			t.Errorf("marker %q: the reading is not printed as written:\n%s", c.marker, page)
		}
		if !strings.Contains(page, "Both beat ver on these made-up runs.") || (c.marker != "" && strings.Contains(page, "\n"+c.marker+"\n")) {
			t.Errorf("marker %q: the reading's text is missing, or its marker line printed:\n%s", c.marker, page)
		}
		if res.ReadingStale != c.stale || strings.Contains(page, "Possibly stale") != c.stale {
			t.Errorf("marker %q: stale %v (page says so: %v), want %v", c.marker, res.ReadingStale, strings.Contains(page, "Possibly stale"), c.stale)
		}
	}
}

func TestFingerprint(t *testing.T) {
	a := fingerprint("| ver-s1 | test | 0.250 |", []string{"both − ver: +0.1"})
	for _, other := range []string{
		fingerprint("| ver-s1 | test | 0.260 |", []string{"both − ver: +0.1"}),
		fingerprint("| ver-s1 | test | 0.250 |", []string{"both − ver: +0.2"}),
		fingerprint("| ver-s1 | test | 0.250 |both − ver: +0.1", nil),
	} {
		if other == a {
			t.Errorf("fingerprint %s: the same for other results", a)
		}
	}
	if b := fingerprint("| ver-s1 | test | 0.250 |", []string{"both − ver: +0.1"}); b != a || len(a) != 12 {
		t.Errorf("fingerprint %q then %q: want the same 12 digits for the same results", a, b)
	}
}

func TestStartsLine(t *testing.T) {
	for _, c := range []struct {
		starts     map[string][]string
		unrecorded []string
		want       string
	}{
		{nil, nil, ""},
		{map[string][]string{"0123456789abcdef": {"ver-s1", "both-s1"}}, nil, "Start checkpoint, by content: sha256 `0123456789ab` for every run."},
		{map[string][]string{"": {"ver-s1"}}, nil, "Start checkpoint, by content: the policy's own weights for every run."},
		{map[string][]string{"0123456789abcdef": {"ver-s1"}}, []string{"both-s1"},
			"**The runs do not all have a recorded, common start**: sha256 `0123456789ab` for ver-s1; not recorded for both-s1 (made before runs recorded their start)."},
	} {
		r := &Results{Starts: c.starts, Unrecorded: c.unrecorded}
		if got := r.startsLine(); !strings.HasPrefix(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("startsLine(%v, %v) = %q, want it to begin %q", c.starts, c.unrecorded, got, c.want)
		}
	}
}
