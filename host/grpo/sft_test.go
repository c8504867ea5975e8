package grpo

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaperf/cudaperf/host/pluginhost"
)

func TestSFTExamples(t *testing.T) {
	d := testDataset(t)
	train, _ := d.Side("train", []string{"dot_product", "gelu"})
	all, _ := d.Side("train", nil)
	ex, err := SFTExamples(context.Background(), SFTOptions{Tasks: train, Train: all, FewShot: 1, Weighting: "speed", TopK: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != 4 {
		t.Fatalf("%d examples, want 2 tasks × top 2", len(ex))
	}
	for _, e := range ex {
		if e.Weight < 0.25 || e.Weight > 4 {
			t.Errorf("%s: weight %v outside [0.25, 4]", e.Prompt.ID, e.Weight)
		}
		if code, ok, _ := Extract(e.Completion, ""); !ok || code == "" {
			t.Errorf("%s: the answer has no code block the loop would extract", e.Prompt.ID)
		}
	}
	// The fastest variant of a task weighs at least as much as the next.
	if ex[0].Weight < ex[1].Weight {
		t.Errorf("fastest variant weight %v < second %v", ex[0].Weight, ex[1].Weight)
	}
	test, _ := d.Side("test", nil)
	if _, err := SFTExamples(context.Background(), SFTOptions{Tasks: test[:1], Weighting: "uniform"}); err == nil {
		t.Error("a test task was accepted for SFT")
	}
}

// SFT through the real replay plugin makes the taught answers more likely:
// the answer without code fades on the taught tasks.
func TestRunSFT(t *testing.T) {
	d := testDataset(t)
	tasks, _ := d.Side("train", []string{"dot_product", "gelu", "row_sum"})
	all, _ := d.Side("train", nil)
	pol := replayPolicy(t)
	o := EvalOptions{Tasks: tasks, Train: all, N: 30, Ks: []int{1}, Sampling: pluginhost.Sampling{Temperature: 1}, Seed: 9, Concurrency: 4, Bootstrap: 10}
	before, err := Evaluate(context.Background(), pol, newFakeBench(t, d), nil, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	so := SFTOptions{Tasks: tasks, Train: all, FewShot: 1, Epochs: 2, Batch: 4,
		Weighting: "speed", Curriculum: "short-first", Seed: 1, Hyper: map[string]float64{"learning_rate": 2}, Out: out}
	ex, err := SFTExamples(context.Background(), so)
	if err != nil {
		t.Fatal(err)
	}
	logs, err := RunSFT(context.Background(), pol, so, ex, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) == 0 || logs[len(logs)-1].Epoch != 2 {
		t.Fatalf("logs %+v", logs)
	}
	for _, f := range []string{"epoch-1/replay.json", "epoch-2/replay.json", "sft.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	after, err := Evaluate(context.Background(), pol, newFakeBench(t, d), nil, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, a := before.AtK[0].PassAtK.Value, after.AtK[0].PassAtK.Value
	t.Logf("pass@1 on the taught tasks: %.3f before SFT, %.3f after", b, a)
	if a <= b {
		t.Errorf("pass@1 did not rise with SFT: %.3f → %.3f", b, a)
	}
}

// skippingPolicy reports every update from update `from` on as skipped
// for a non-finite loss, as the hf policy does.
type skippingPolicy struct{ from int64 }

func (p skippingPolicy) SFT(_ context.Context, step int64, _ []pluginhost.Rollout, _ map[string]float64) (map[string]float64, error) {
	if step >= p.from {
		return map[string]float64{SkipStat: 1, pluginhost.NonFinitePrefix + "loss": 1}, nil
	}
	return map[string]float64{"loss": 1.2}, nil
}

func (skippingPolicy) Save(_ context.Context, dir string) error { return os.MkdirAll(dir, 0o755) }

// TestRunSFTStopsWhenAnEpochIsAllSkipped checks that an epoch whose every
// update had a non-finite loss stops the warm start with an error that
// says what to change, while an epoch with some skipped updates goes on.
func TestRunSFTStopsWhenAnEpochIsAllSkipped(t *testing.T) {
	d := testDataset(t)
	tasks, _ := d.Side("train", []string{"dot_product", "gelu", "row_sum"})
	all, _ := d.Side("train", nil)
	o := SFTOptions{Tasks: tasks, Train: all, FewShot: 1, Epochs: 3, Batch: 2, Weighting: "uniform", Curriculum: "shuffle", Seed: 1}
	ex, err := SFTExamples(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	perEpoch := int64((len(ex) + 1) / 2)
	if perEpoch < 2 {
		t.Fatalf("need 2+ updates per epoch, have %d examples", len(ex))
	}
	// The last update of epoch 1 and all of epoch 2 skipped: epoch 1 goes
	// on (one skipped), epoch 2 stops the run.
	o.Out = t.TempDir()
	logs, err := RunSFT(context.Background(), skippingPolicy{from: perEpoch}, o, ex, nil)
	if err == nil || !strings.Contains(err.Error(), "epoch 2: all") || !strings.Contains(err.Error(), "--lr") {
		t.Fatalf("err = %v, want epoch 2's updates all skipped, with the fix", err)
	}
	if n, s := SkippedUpdates(logs, 1); n != int(perEpoch) || s != 1 {
		t.Errorf("epoch 1: %d updates, %d skipped; want %d and 1", n, s, perEpoch)
	}
	if _, err := os.Stat(filepath.Join(o.Out, "epoch-3")); err == nil {
		t.Error("epoch 3 ran after an all-skipped epoch 2")
	}
}

// Sweep instances are capped per task (the fastest kept) and taught
// without their generator notes; hand-written variants are all kept.
func TestSFTExamplesSweepInstances(t *testing.T) {
	d := testDataset(t)
	train, _ := d.Side("train", []string{"gelu"})
	all, _ := d.Side("train", nil)
	hand, gen := 0, 0
	for _, v := range train[0].Variants {
		if v.Generated {
			gen++
		} else {
			hand++
		}
	}
	if gen < 3 || hand < 2 {
		t.Fatalf("gelu has %d hand-written variants and %d measured sweep instances; the test needs >= 2 and >= 3", hand, gen)
	}
	for _, k := range []int{-1, 2, 0} {
		ex, err := SFTExamples(context.Background(), SFTOptions{Tasks: train, Train: all, Weighting: "uniform", SweepInstances: k})
		if err != nil {
			t.Fatal(err)
		}
		want := hand + max(0, min(k, gen))
		if k == 0 {
			want = hand + gen
		}
		if len(ex) != want {
			t.Errorf("SweepInstances %d: %d examples, want %d hand-written + %d instances", k, len(ex), hand, want-hand)
		}
		for _, e := range ex {
			if strings.Contains(e.Completion, "cudaperf") {
				t.Errorf("SweepInstances %d: %s teaches a bookkeeping line:\n%.300s", k, e.Prompt.ID, e.Completion)
			}
		}
	}
	// The instance kept with SweepInstances 1 is the fastest one.
	ex, _ := SFTExamples(context.Background(), SFTOptions{Tasks: train, Train: all, Weighting: "uniform", SweepInstances: 1})
	var fastest string
	for _, v := range train[0].Variants {
		if v.Generated {
			fastest = v.Variant
			break
		}
	}
	found := false
	for _, e := range ex {
		found = found || strings.HasSuffix(e.Prompt.ID, ":sft:"+fastest)
	}
	if !found {
		t.Errorf("the fastest instance %s is not among the examples", fastest)
	}
}

// fixedScorer gives every source the same features and one diagnostic,
// and records what it was asked.
type fixedScorer struct{ asked []string }

func (s *fixedScorer) Ranked() bool { return false }
func (s *fixedScorer) Structure(_ context.Context, _ *Task, srcs []string) ([]Structure, error) {
	out := make([]Structure, len(srcs))
	for i := range srcs {
		s.asked = append(s.asked, srcs[i])
		out[i] = Structure{Features: map[string]float64{"coal": 0.5, "tpb": 256}, Diagnostics: []string{"line 3: note: use __restrict__"}}
	}
	return out, nil
}

// Refinement examples are the loop's refinement prompt (Refine, the
// feedback Judge would give) after one of the slowest taught variants,
// answered by the fastest; a pair less than 1.25× apart is not taught.
func TestSFTRefineExamples(t *testing.T) {
	d := testDataset(t)
	train, _ := d.Side("train", []string{"gelu"})
	all, _ := d.Side("train", nil)
	task := train[0]
	sc := &fixedScorer{}
	o := SFTOptions{Tasks: train, Train: all, Weighting: "uniform", SweepInstances: -1, Refine: 2, Scorer: sc}
	ex, err := SFTExamples(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var taught []Example
	for _, v := range task.Variants {
		if !v.Generated {
			taught = append(taught, v)
		}
	}
	best := taught[0]
	var refine []pluginhost.Rollout
	for _, e := range ex {
		if strings.Contains(e.Prompt.ID, ":sft-refine:") {
			refine = append(refine, e)
		}
	}
	if len(ex) != len(taught)+len(refine) || len(refine) == 0 || len(refine) > 2 {
		t.Fatalf("%d examples with %d refinements for %d taught variants; want the variants plus 1-2 refinements", len(ex), len(refine), len(taught))
	}
	for k, e := range refine {
		prev := taught[len(taught)-1-k]
		if !strings.HasSuffix(e.Prompt.ID, ":"+prev.Variant+">"+best.Variant) {
			t.Errorf("refinement %d is %s; want the %d-th slowest (%s) improved to the fastest (%s)", k, e.Prompt.ID, k+1, prev.Variant, best.Variant)
		}
		if best.Speedup < minRefineGain*prev.Speedup {
			t.Errorf("%s: %s (%.3g×) is not 1.25× faster than %s (%.3g×)", e.Prompt.ID, best.Variant, best.Speedup, prev.Variant, prev.Speedup)
		}
		m := e.Prompt.Messages
		want := Refine(task, nil, Answer(task, prev.Source), m[len(m)-1].Content)
		if len(m) != 4 || m[2].Role != "assistant" || m[2].Content != want[2].Content || m[1].Content != want[1].Content {
			t.Fatalf("%s: messages are not the loop's refinement prompt: %+v", e.Prompt.ID, m)
		}
		fb := m[3].Content
		for _, s := range []string{
			fmt.Sprintf("Your code is correct on all %d configurations. Speedup on the largest size: %.3g× over the C reference", len(task.RLConfigs()), prev.Speedup),
			"Structural features: coal=0.5 tpb=256", "- line 3: note: use __restrict__", "Write a faster version that stays correct."} {
			if !strings.Contains(fb, s) {
				t.Errorf("%s: feedback lacks %q:\n%s", e.Prompt.ID, s, fb)
			}
		}
		if e.Completion != Answer(task, best.Source) {
			t.Errorf("%s: the answer is not the fastest variant", e.Prompt.ID)
		}
	}
	if len(sc.asked) != len(refine) {
		t.Errorf("the scorer analyzed %d sources for %d refinements", len(sc.asked), len(refine))
	}
	// No pair far enough apart: none taught.
	o.Refine, o.TopK = 2, 1
	if ex, _ := SFTExamples(context.Background(), o); len(ex) != 1 {
		t.Errorf("one taught variant gave %d examples; want 1 and no refinement", len(ex))
	}
}

// --refine-from teaches logged refinement prompts after a failed attempt,
// for taught tasks only, capped per task, answered by the fastest variant;
// a malformed file is refused with its name and line.
func TestSFTRefineFromRollouts(t *testing.T) {
	d := testDataset(t)
	train, _ := d.Side("train", []string{"gelu"})
	all, _ := d.Side("train", nil)
	msgs := func(id string) map[string]any {
		return map[string]any{"id": id, "messages": []map[string]string{{"role": "system", "content": "s"}, {"role": "user", "content": "task"},
			{"role": "assistant", "content": "```cuda\nbroken\n```"}, {"role": "user", "content": "Your code did not compile. " + id}}}
	}
	var lines []string
	add := func(task string, step, member, turn int, correct bool) {
		r := map[string]any{"step": step, "turn": turn, "member": member, "group": fmt.Sprintf("%s:s%d:b0:t%d", task, step, turn),
			"task": task, "correct": correct, "prompt": map[string]any{"id": fmt.Sprintf("%s:s%d:b0:t0", task, step), "messages": []any{}}}
		if turn > 0 {
			r["prompt"] = msgs(fmt.Sprintf("%s:s%d:b0:t%d:m%d", task, step, turn, member))
		}
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	for m := 0; m < 4; m++ { // gelu: members 0-2 failed their first attempt, 3 was correct
		add("gelu", 5, m, 0, m == 3)
		add("gelu", 5, m, 1, false)
	}
	add("saxpy", 5, 0, 0, false) // a test task: never taught
	add("saxpy", 5, 0, 1, false)
	dir := t.TempDir()
	path := filepath.Join(dir, "step-000005.jsonl.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	o := SFTOptions{Tasks: train, Train: all, Weighting: "uniform", SweepInstances: -1, RefineFrom: []string{path}, RefinePerTask: 2}
	ex, err := SFTExamples(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var logged []pluginhost.Rollout
	for _, e := range ex {
		if strings.Contains(e.Prompt.ID, ":sft-logged:") {
			logged = append(logged, e)
		}
	}
	if len(logged) != 2 {
		t.Fatalf("%d logged refinements taught; want 2 (3 failed gelu attempts, capped at 2; none for saxpy or the correct one)", len(logged))
	}
	var fastest Example
	for _, v := range train[0].Variants {
		if !v.Generated {
			fastest = v
			break
		}
	}
	for i, e := range logged {
		if want := fmt.Sprintf("gelu:s5:b0:t1:m%d", i); !strings.HasSuffix(e.Prompt.ID, want) || len(e.Prompt.Messages) != 4 ||
			!strings.Contains(e.Prompt.Messages[3].Content, want) {
			t.Errorf("logged refinement %d: %s %+v; want member %d's prompt as logged", i, e.Prompt.ID, e.Prompt.Messages, i)
		}
		if e.Completion != Answer(train[0], fastest.Source) {
			t.Errorf("%s: the answer is not gelu's fastest variant", e.Prompt.ID)
		}
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(lines[0]+"\n{not json\n"), 0o644)
	o.RefineFrom = []string{bad}
	if _, err := SFTExamples(context.Background(), o); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("malformed rollouts: err = %v, want the file and line", err)
	}
}

// epochWatcher records, for each update, the epochs already reported
// done: an update of epoch e+1 must find epoch e reported.
type epochWatcher struct {
	done       *int
	updateSeen map[int64]int // update → epochs reported done when it ran
	perEpoch   int64
}

func (p epochWatcher) SFT(_ context.Context, step int64, _ []pluginhost.Rollout, _ map[string]float64) (map[string]float64, error) {
	p.updateSeen[step] = *p.done
	return map[string]float64{"loss": float64((step-1)/p.perEpoch + 1)}, nil
}

func (epochWatcher) Save(_ context.Context, dir string) error { return os.MkdirAll(dir, 0o755) }

// TestRunSFTReportsEachEpochAsItEnds checks that EpochDone is called once
// per epoch, after that epoch's checkpoint and log are written and before
// the next epoch's first update: a long run reports as it goes.
func TestRunSFTReportsEachEpochAsItEnds(t *testing.T) {
	d := testDataset(t)
	tasks, _ := d.Side("train", []string{"dot_product", "gelu"})
	all, _ := d.Side("train", nil)
	o := SFTOptions{Tasks: tasks, Train: all, Epochs: 3, Batch: 2, Weighting: "uniform", Curriculum: "shuffle", Seed: 1, Out: t.TempDir()}
	ex, err := SFTExamples(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	perEpoch := int64((len(ex) + 1) / 2)
	done := 0
	pol := epochWatcher{done: &done, updateSeen: map[int64]int{}, perEpoch: perEpoch}
	o.EpochDone = func(epoch int, logs []SFTLog) {
		if epoch != done+1 {
			t.Errorf("EpochDone(%d) after epoch %d", epoch, done)
		}
		done = epoch
		if _, err := os.Stat(filepath.Join(o.Out, fmt.Sprintf("epoch-%d", epoch))); err != nil {
			t.Errorf("EpochDone(%d) before its checkpoint: %v", epoch, err)
		}
		b, _ := os.ReadFile(filepath.Join(o.Out, "sft.jsonl"))
		if n := strings.Count(string(b), "\n"); n != epoch*int(perEpoch) || len(logs) != n {
			t.Errorf("EpochDone(%d): sft.jsonl has %d lines, logs %d; want %d", epoch, n, len(logs), epoch*int(perEpoch))
		}
		if l := logs[len(logs)-1]; l.Epoch != epoch || l.Stats["loss"] != float64(epoch) {
			t.Errorf("EpochDone(%d): last log %+v", epoch, l)
		}
	}
	if _, err := RunSFT(context.Background(), pol, o, ex, nil); err != nil {
		t.Fatal(err)
	}
	if done != 3 {
		t.Errorf("EpochDone reached epoch %d of 3", done)
	}
	for u, seen := range pol.updateSeen {
		if want := int((u - 1) / perEpoch); seen != want {
			t.Errorf("update %d (epoch %d) ran with %d epochs reported, want %d", u, want+1, seen, want)
		}
	}
}

// TestSFTOptionsCheck checks the schedule is refused before any work.
func TestSFTOptionsCheck(t *testing.T) {
	ok := SFTOptions{Epochs: 1, Batch: 1, Weighting: "speed", Curriculum: "shuffle"}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*SFTOptions)
		want string
	}{
		{func(o *SFTOptions) { o.Epochs = 0 }, "epochs 0"},
		{func(o *SFTOptions) { o.Batch = -1 }, "batch -1"},
		{func(o *SFTOptions) { o.Weighting = "fast" }, `"fast": use speed or uniform`},
		{func(o *SFTOptions) { o.Curriculum = "long" }, `"long": use short-first or shuffle`},
		{func(o *SFTOptions) { o.FewShot = -1 }, "few-shot -1"}, // it panicked in the prompt
	} {
		o := ok
		c.edit(&o)
		if err := o.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// TestCheckSFTOut checks that a folder holding an SFT run is refused with
// the way on (another --out, or --load of its last epoch), and that a
// missing, empty or unrelated folder is not.
func TestCheckSFTOut(t *testing.T) {
	root := t.TempDir()
	other := filepath.Join(root, "other")
	os.MkdirAll(filepath.Join(other, "notes"), 0o755)
	os.WriteFile(filepath.Join(other, "README"), nil, 0o644)
	for _, dir := range []string{filepath.Join(root, "missing"), t.TempDir(), other} {
		if err := CheckSFTOut(dir); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
	run := filepath.Join(root, "run")
	for _, e := range []string{"epoch-1", "epoch-3", "epoch-24"} {
		os.MkdirAll(filepath.Join(run, e), 0o755)
	}
	err := CheckSFTOut(run)
	if !errors.Is(err, ErrSFTRunExists) {
		t.Fatalf("err = %v, want ErrSFTRunExists", err)
	}
	for _, want := range []string{run + ":", "--out", "--load " + filepath.Join(run, "epoch-24")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, lacks %q", err, want)
		}
	}
	log := filepath.Join(root, "log")
	os.MkdirAll(log, 0o755)
	os.WriteFile(filepath.Join(log, "sft.jsonl"), nil, 0o644)
	if err := CheckSFTOut(log); !errors.Is(err, ErrSFTRunExists) || strings.Contains(err.Error(), "--load") {
		t.Errorf("a folder with only sft.jsonl: err = %v, want ErrSFTRunExists without a checkpoint to load", err)
	}
}

// TestRunSFTRefusesAFolderWithARun checks that a second warm start into
// one folder stops before teaching, leaving the first run's files.
func TestRunSFTRefusesAFolderWithARun(t *testing.T) {
	d := testDataset(t)
	tasks, _ := d.Side("train", []string{"gelu"})
	all, _ := d.Side("train", nil)
	o := SFTOptions{Tasks: tasks, Train: all, Epochs: 3, Batch: 4, Weighting: "uniform", Curriculum: "shuffle", Seed: 1, Out: t.TempDir()}
	ex, err := SFTExamples(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunSFT(context.Background(), skippingPolicy{from: 1 << 40}, o, ex, nil); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(o.Out, "sft.jsonl"))
	o.Epochs = 1
	if _, err := RunSFT(context.Background(), skippingPolicy{from: 1 << 40}, o, ex, nil); !errors.Is(err, ErrSFTRunExists) {
		t.Fatalf("second run: err = %v, want ErrSFTRunExists", err)
	}
	if after, _ := os.ReadFile(filepath.Join(o.Out, "sft.jsonl")); !bytes.Equal(before, after) {
		t.Error("the refused run rewrote sft.jsonl")
	}
}
