package grpo

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/pluginhost/plugintest"
)

// fakeBench answers from the suite's measurements: a known variant gets
// its measured speedup on every configuration, anything else fails to
// compile. (The CI's offline run uses the real `recorded` plugin; this
// fake keeps the package's tests free of it.) At the fifth candidate of
// step failStep it cancels the run, as a kill mid-step would.
type fakeBench struct {
	bySource map[string]float64
	calls    atomic.Int64
	failStep int64
	cancel   context.CancelFunc
}

func newFakeBench(t *testing.T, ds *Dataset) *fakeBench {
	f := &fakeBench{bySource: map[string]float64{}}
	for _, task := range ds.Tasks {
		for _, v := range task.Variants {
			f.bySource[strings.TrimSpace(v.Source)] = v.Speedup
		}
	}
	return f
}

func (f *fakeBench) Evaluate(ctx context.Context, req pluginhost.EvalRequest) (*pluginhost.Evaluation, error) {
	// The loop passes the step number as the seed.
	if f.failStep > 0 && req.Seed == f.failStep && f.calls.Add(1) == 5 {
		f.cancel()
		return nil, errors.New("killed")
	}
	s, ok := f.bySource[strings.TrimSpace(string(req.Source))]
	if !ok {
		return &pluginhost.Evaluation{CompileLog: "candidate.cu(1): error: not a known variant"}, nil
	}
	return &pluginhost.Evaluation{Compiled: true, Configs: []pluginhost.ConfigOutcome{
		{Name: "odd", Passed: true, Speedup: s / 10, CV: 0.02},
		{Name: filepath.Base(req.TaskPath) + "-primary", Passed: true, Speedup: s, CV: 0.01},
	}, GeomeanSpeedup: s}, nil
}

var (
	replayOnce sync.Once
	replayDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if replayDir != "" {
		os.RemoveAll(replayDir)
	}
	os.Exit(code)
}

// replayPolicy starts a real replay plugin process.
func replayPolicy(t *testing.T) pluginhost.PolicyClient {
	replayOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cudaperf-grpo-test-plugins")
		if err != nil {
			t.Fatal(err)
		}
		replayDir = dir
		plugintest.InstallGo(t, "plugins/policy/replay", replayDir)
	})
	t.Setenv("CUDAPERF_REPLAY_SUITE", filepath.Join(plugintest.ModuleRoot(t), "bench", "suites", "c2cuda"))
	h, err := pluginhost.New(pluginhost.Options{Dirs: []string{replayDir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	p, ok := h.Plugin("replay")
	if !ok {
		t.Fatal("replay plugin not found")
	}
	if err := p.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p.Policy()
}

var (
	dsOnce sync.Once
	ds     *Dataset
	dsErr  error
)

func testDataset(t *testing.T) *Dataset {
	dsOnce.Do(func() {
		suite := filepath.Join(plugintest.ModuleRoot(t), "bench", "suites", "c2cuda")
		ds, dsErr = LoadDataset(suite, []string{filepath.Join(suite, "measurements.jsonl")})
		if dsErr == nil {
			// The fake names the primary configuration after the task.
			for _, task := range ds.Tasks {
				task.Primary = task.Name + "-primary"
			}
		}
	})
	if dsErr != nil {
		t.Fatal(dsErr)
	}
	return ds
}

// testConfig's tasks have no sweeps/ folder: their variant sets do not
// grow as the dataset sweep is measured (with dot_product's 149 variants
// the replay softmax learned too slowly for TestRunLearns's 20 steps).
func testConfig(t *testing.T, root string, steps int) *Config {
	cfg, err := ParseConfig("test.yaml", []byte(`
name: t
steps: `+itoa(steps)+`
batch: 3
group: 6
turns: 2
seed: 5
tasks: [argmax_rows, histogram_256, inclusive_scan, outer_product, rgb_to_gray]
reward: {mode: ver}
policy: {hyperparameters: {learning_rate: 1.0}}
`))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Root = root
	return cfg
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestRunLearns(t *testing.T) {
	d := testDataset(t)
	cfg := testConfig(t, t.TempDir(), 20)
	tr, err := NewTrainer(context.Background(), cfg, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(filepath.Join(cfg.Dir(), "metrics.jsonl"))
	if err != nil || len(ms) != 20 {
		t.Fatalf("%d metrics lines, err %v", len(ms), err)
	}
	mean := func(ms []Metrics) (r float64) {
		for _, m := range ms {
			r += m.RewardMean
		}
		return r / float64(len(ms))
	}
	first, last := mean(ms[:5]), mean(ms[15:])
	t.Logf("mean reward: steps 1-5 %.3f, steps 16-20 %.3f", first, last)
	if last < first+0.1 {
		t.Errorf("mean reward did not rise: steps 1-5 %.3f, steps 16-20 %.3f", first, last)
	}
	noCode := func(ms []Metrics) (n int) {
		for _, m := range ms {
			n += m.NoCode
		}
		return n
	}
	if noCode(ms[15:]) >= noCode(ms[:5]) {
		t.Errorf("answers without code did not fade: %d then %d", noCode(ms[:5]), noCode(ms[15:]))
	}
	for _, f := range []string{"config.yaml", "reward.png", "rates.png", "events.out.tfevents.cudaperf",
		"rollouts/step-000020.jsonl.gz", "checkpoints/step-000020/state.json", "checkpoints/step-000020/policy/replay.json"} {
		if _, err := os.Stat(filepath.Join(cfg.Dir(), f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(cfg.Dir(), "checkpoints/step-000018")); err == nil {
		t.Error("old checkpoints were not pruned (keep_checkpoints 2)")
	}
	// The event file is valid TFRecord with one event per step after the
	// header.
	b, _ := os.ReadFile(filepath.Join(cfg.Dir(), "events.out.tfevents.cudaperf"))
	recs, err := readRecords(b)
	if err != nil || len(recs) != 21 {
		t.Errorf("event file: %d records, %v", len(recs), err)
	}
	if _, err := NewTrainer(context.Background(), cfg, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false); err == nil {
		t.Error("a second run into the same folder without --resume was accepted")
	}
}

// comparable drops what legitimately differs between two runs: times.
func comparable(t *testing.T, dir string) []Metrics {
	ms, err := ReadMetrics(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range ms {
		ms[i].Time, ms[i].Stage = "", nil
	}
	return ms
}

func TestResumeReachesSameState(t *testing.T) {
	d := testDataset(t)
	const steps = 6
	// Uninterrupted.
	a := testConfig(t, t.TempDir(), steps)
	tr, err := NewTrainer(context.Background(), a, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Killed in the middle of step 4, then resumed with a fresh policy
	// process.
	b := testConfig(t, t.TempDir(), steps)
	ctx, cancel := context.WithCancel(context.Background())
	fb := newFakeBench(t, d)
	fb.failStep, fb.cancel = 4, cancel
	tr, err = NewTrainer(ctx, b, Options{Policy: replayPolicy(t), Benchmarker: fb, Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(ctx); err == nil {
		t.Fatal("the interrupted run did not fail")
	}
	if tr.Step() != 3 {
		t.Fatalf("interrupted after step %d, want 3", tr.Step())
	}
	// The cut step's candidates are on disk, though it wrote no rollouts.
	pend := filepath.Join(b.Dir(), "pending", "step-000004-turn-0.jsonl.gz")
	if f, err := os.Open(pend); err != nil {
		t.Errorf("the interrupted step left no pending candidates: %v", err)
	} else {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		var n int
		for dec := json.NewDecoder(zr); ; n++ {
			var p Pending
			if err := dec.Decode(&p); err != nil {
				break
			}
			if p.Step != 4 || p.Task == "" || p.Text == "" || p.Index != n {
				t.Errorf("pending candidate %d: %+v", n, p)
			}
		}
		f.Close()
		if want := b.Batch * b.Group; n != want {
			t.Errorf("%d pending candidates, want the turn's %d", n, want)
		}
	}
	if _, err := os.Stat(filepath.Join(b.Dir(), "rollouts", "step-000004.jsonl.gz")); err == nil {
		t.Error("the interrupted step wrote rollouts")
	}
	// A resume with a changed configuration is refused, naming the key,
	// and leaves the folder's config.yaml as it was.
	saved, _ := os.ReadFile(filepath.Join(b.Dir(), "config.yaml"))
	changed := *b
	changed.Group++
	_, err = NewTrainer(context.Background(), &changed, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true)
	if want := fmt.Sprintf("group: %d, now %d", b.Group, changed.Group); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("resume with group changed: %v; want a refusal naming %q", err, want)
	}
	if now, _ := os.ReadFile(filepath.Join(b.Dir(), "config.yaml")); string(now) != string(saved) {
		t.Errorf("a refused resume rewrote config.yaml:\n%s", now)
	}
	tr, err = NewTrainer(context.Background(), b, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, true)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Step() != 3 {
		t.Fatalf("resumed at step %d, want 3", tr.Step())
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(b.Dir(), "pending", "*")); len(left) != 0 {
		t.Errorf("pending files outlived their steps: %v", left)
	}
	ma, mb := comparable(t, a.Dir()), comparable(t, b.Dir())
	ja, _ := json.Marshal(ma)
	jb, _ := json.Marshal(mb)
	if string(ja) != string(jb) {
		t.Errorf("metrics differ after resume:\n%s\n%s", ja, jb)
	}
	for _, f := range []string{"checkpoints/step-000006/state.json", "checkpoints/step-000006/policy/replay.json"} {
		fa, _ := os.ReadFile(filepath.Join(a.Dir(), f))
		fbb, _ := os.ReadFile(filepath.Join(b.Dir(), f))
		if len(fa) == 0 || string(fa) != string(fbb) {
			t.Errorf("%s differs after resume", f)
		}
	}
}

// fakeScorer ranks by source length (longer kernels are the tuned ones in
// this suite), so Rstr has a real, skewed distribution.
type fakeScorer struct{}

func (fakeScorer) Ranked() bool { return true }

func (fakeScorer) Structure(_ context.Context, _ *Task, srcs []string) ([]Structure, error) {
	out := make([]Structure, len(srcs))
	for i, s := range srcs {
		out[i] = Structure{Str: float64(len(s)) / 1000, Features: map[string]float64{"chars": float64(len(s))}}
	}
	return out, nil
}

func TestRandomModeRun(t *testing.T) {
	d := testDataset(t)
	cfg := testConfig(t, t.TempDir(), 4)
	cfg.Reward.Mode = "random"
	if _, err := NewTrainer(context.Background(), cfg, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Dataset: d}, false); err == nil {
		t.Fatal("mode random without a ranker was accepted")
	}
	tr, err := NewTrainer(context.Background(), cfg, Options{Policy: replayPolicy(t), Benchmarker: newFakeBench(t, d), Scorer: fakeScorer{}, Dataset: d}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, _ := ReadMetrics(filepath.Join(cfg.Dir(), "metrics.jsonl"))
	for _, m := range ms {
		if m.StrMean <= 0 || m.StrUsedStd <= 0 || m.Mode != "random" {
			t.Errorf("step %d: str mean %v, used std %v, mode %s", m.Step, m.StrMean, m.StrUsedStd, m.Mode)
		}
		if m.RhoGroups == 0 {
			t.Errorf("step %d: no group with a Rstr–speedup correlation", m.Step)
		}
	}
	_, mean, _ := tr.comb.RunningStr()
	if mean <= 0 {
		t.Errorf("running Rstr mean %v", mean)
	}
}

// Update hears the sampling temperature (so a policy scores its rollouts
// under the tempered policy that drew them), unless the config sets it,
// and the config's own map is left as it was.
func TestUpdateHyper(t *testing.T) {
	c := &Config{}
	c.Sampling.Temperature = 0.8
	c.Policy.Hyperparameters = map[string]float64{"learning_rate": 1e-4}
	h := UpdateHyper(c)
	if h["temperature"] != 0.8 || h["learning_rate"] != 1e-4 || len(h) != 2 {
		t.Errorf("UpdateHyper = %v, want learning_rate and temperature 0.8", h)
	}
	if _, ok := c.Policy.Hyperparameters["temperature"]; ok {
		t.Error("UpdateHyper changed the config's map")
	}
	c.Policy.Hyperparameters["temperature"] = 1
	if h := UpdateHyper(c); h["temperature"] != 1 {
		t.Errorf("a configured temperature was overridden: %v", h)
	}
}
