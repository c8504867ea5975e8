package rank

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var testSchema = Schema{
	{Name: "coal", Plugin: "a", Unit: "fraction", Range: "(0, 1]", PerKernel: true, Version: 1},
	{Name: "gmem", Plugin: "a", Unit: "accesses", Range: "[0, +inf)", PerKernel: true, Version: 1},
	{Name: "noise", Plugin: "a", Unit: "count", Range: "[0, +inf)", PerKernel: true, Version: 1},
	{Name: "unknown_often", Plugin: "a", Unit: "fraction", Range: "[0, 1]", PerKernel: true, Version: 1},
	{Name: "never", Plugin: "a", Unit: "bytes", Range: "[0, +inf)", PerKernel: true, Version: 1},
}

// synthetic makes tasks whose log time is −2·coal + log(1+gmem) plus noise,
// with one feature missing on a third of the kernels (and, when missing,
// the kernel is 1.5× slower: the mask input can learn that).
func synthetic(nTasks, nVariants int, seed uint64) []Task {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ts []Task
	for t := 0; t < nTasks; t++ {
		task := Task{Name: fmt.Sprintf("task%03d", t), Primary: "large", Configs: []string{"small", "large"}}
		for v := 0; v < nVariants; v++ {
			coal := 0.05 + 0.95*rng.Float64()
			gmem := math.Floor(64 * rng.Float64())
			vec := Vector{"coal": coal, "gmem": gmem, "noise": math.Floor(10 * rng.Float64())}
			lt := -2*coal + math.Log1p(gmem) + 0.1*rng.NormFloat64()
			if rng.IntN(3) == 0 {
				lt += math.Log(1.5)
			} else {
				vec["unknown_often"] = rng.Float64()
			}
			task.Variants = append(task.Variants, Variant{
				Name:    fmt.Sprintf("v%d", v),
				Kernels: []Kernel{{Name: "k", Vector: vec}},
				Times:   map[string]float64{"large": math.Exp(lt), "small": 0.001 * (1 + rng.Float64())},
			})
		}
		ts = append(ts, task)
	}
	return ts
}

func meanRho(rs []TaskResult) float64 {
	var s float64
	for _, r := range rs {
		s += r.Rho
	}
	return s / float64(len(rs))
}

func TestTrainLearnsHeldOutRanking(t *testing.T) {
	train, val, test := synthetic(30, 6, 1), synthetic(6, 6, 2), synthetic(10, 8, 3)
	for _, kind := range []string{"mlp", "linear"} {
		m, err := Train(testSchema, train, val, Options{Kind: kind, Seed: 1, Pairs: PairRule{All: true, TieBand: 0.05}})
		if err != nil {
			t.Fatal(err)
		}
		sc := m.NewScorer()
		rs := Evaluate(test, func(v Variant) float64 { return sc.ScoreFile(v.Kernels) }, PrimaryOnly)
		if r := meanRho(rs); r < 0.8 {
			t.Errorf("%s: held-out mean ρ %.3f, want ≥ 0.8 on data whose time is a smooth function of the features", kind, r)
		}
	}
}

func TestRandomLabelsLearnNothing(t *testing.T) {
	train, val, test := synthetic(30, 6, 1), synthetic(6, 6, 2), synthetic(40, 8, 3)
	m, err := Train(testSchema, train, val, Options{Seed: 1, ShuffleLabels: true, Pairs: PairRule{All: true}})
	if err != nil {
		t.Fatal(err)
	}
	sc := m.NewScorer()
	s := Summarize(Evaluate(test, func(v Variant) float64 { return sc.ScoreFile(v.Kernels) }, PrimaryOnly), 1)
	if s.Rho.Lo > 0.3 {
		t.Errorf("random-label model: ρ %+v, want an interval reaching down near 0", s.Rho)
	}
}

func TestInputsLogScaleMaskAndSkipUnobserved(t *testing.T) {
	m, err := Train(testSchema, synthetic(10, 5, 1), nil, Options{Seed: 1, MaxEpochs: 5})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Input{}
	for _, in := range m.Inputs {
		got[in.Feature] = in
	}
	if _, ok := got["never"]; ok {
		t.Errorf("a feature never observed in training became an input: %+v", got["never"])
	}
	if !got["gmem"].Log || got["coal"].Log {
		t.Errorf("log scaling: gmem (unbounded) %v, coal (fraction) %v; want true, false", got["gmem"].Log, got["coal"].Log)
	}
	if !got["unknown_often"].Mask || got["coal"].Mask {
		t.Errorf("mask inputs: unknown_often %v, coal %v; want true, false", got["unknown_often"].Mask, got["coal"].Mask)
	}
	x := m.x(Vector{"coal": 0.5, "gmem": 3, "noise": 1}, nil)
	if len(x) != m.width() || x[len(x)-1] != 1 {
		t.Errorf("input for a vector without unknown_often: %v; want its mask input (last) = 1", x)
	}
	if w := m.Members[0].Sizes; !reflect.DeepEqual(w, []int{5, 16, 1}) {
		t.Errorf("layer sizes %v, want [5 16 1] (4 value inputs + 1 mask)", w)
	}
}

func TestTrainingIsDeterministicAndSurvivesSaveLoad(t *testing.T) {
	train, val := synthetic(10, 5, 1), synthetic(3, 5, 2)
	opt := Options{Seed: 7, Ensemble: 2, MaxEpochs: 50}
	a, err := Train(testSchema, train, val, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Train(testSchema, train, val, opt)
	ja, _ := a.Marshal()
	jb, _ := b.Marshal()
	if string(ja) != string(jb) {
		t.Fatal("two trainings with the same seed wrote different models")
	}
	c, _ := Train(testSchema, train, val, Options{Seed: 8, Ensemble: 2, MaxEpochs: 50})
	if jc, _ := c.Marshal(); string(jc) == string(ja) {
		t.Error("another seed gave the same model")
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sa, sl := a.NewScorer(), l.NewScorer()
	for _, v := range val[0].Variants {
		if x, y := sa.ScoreFile(v.Kernels), sl.ScoreFile(v.Kernels); x != y {
			t.Errorf("%s: score %v before saving, %v after loading", v.Name, x, y)
		}
	}
}

func TestLoadRefusesBrokenModels(t *testing.T) {
	for name, body := range map[string]string{
		"format":  `{"format": 99, "members": [{"sizes":[1,1],"params":[0,0]}]}`,
		"sizes":   `{"format": 1, "inputs":[{"feature":"a","mean":0,"std":1}], "members": [{"sizes":[2,1],"params":[0,0,0]}]}`,
		"unknown": `{"format": 1, "weights": []}`,
	} {
		if _, err := Parse([]byte(body), name); err == nil || !strings.Contains(err.Error(), "model "+name) {
			t.Errorf("%s: error %v, want one naming the model", name, err)
		}
	}
}

func TestCheckSchemaNamesEveryDifference(t *testing.T) {
	now := Schema{
		{Name: "coal", Plugin: "a", Version: 2},
		{Name: "gmem", Plugin: "a", Version: 1},
		{Name: "newfeat", Plugin: "a", Version: 1},
		{Name: "other", Plugin: "b", Version: 1}, // another plugin: not compared
	}
	err := CheckSchema(testSchema, now)
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("got %v, want a *SchemaError", err)
	}
	if !reflect.DeepEqual(se.Missing, []string{"never", "noise", "unknown_often"}) || !reflect.DeepEqual(se.Extra, []string{"newfeat"}) ||
		len(se.Redefined) != 1 || !strings.HasPrefix(se.Redefined[0], "coal (model: a v1, now: a v2)") {
		t.Errorf("missing %v, extra %v, redefined %v", se.Missing, se.Extra, se.Redefined)
	}
	if err := CheckSchema(testSchema, append(Schema{{Name: "x", Plugin: "b"}}, testSchema...)); err != nil {
		t.Errorf("same schema plus another plugin's feature: %v", err)
	}
}

func TestPairRules(t *testing.T) {
	task := Task{Name: "t", Primary: "p"}
	for i, ms := range []float64{1, 2, 2.05, 4, 8} {
		task.Variants = append(task.Variants, Variant{Name: fmt.Sprint(i), Times: map[string]float64{"p": ms}})
	}
	task.Variants = append(task.Variants, Variant{Name: "untimed", Times: map[string]float64{}})
	q := task.Pairs("p", PairRule{})
	if want := []Pair{{0, 3}, {0, 4}, {1, 3}, {1, 4}}; !reflect.DeepEqual(q, want) {
		t.Errorf("quartile pairs of 5 timed variants: %v, want %v (2 fastest × 2 slowest)", q, want)
	}
	if all := task.Pairs("p", PairRule{All: true, TieBand: 0.1}); len(all) != 9 {
		t.Errorf("all pairs outside a 10%% band: %d, want 9 (10 pairs, 2 vs 2.05 tied)", len(all))
	}
	for n, want := range map[int]int{2: 1, 4: 1, 5: 2, 8: 2, 9: 3} {
		if got := Quartile(n); got != want {
			t.Errorf("Quartile(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestCorrelations(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	if r, ok := Spearman(x, []float64{10, 20, 30, 40, 50}); !ok || math.Abs(r-1) > 1e-12 {
		t.Errorf("Spearman monotone = %v, want 1", r)
	}
	if r, _ := Spearman(x, []float64{5, 6, 7, 8, 7}); math.Abs(r-0.8207826816681233) > 1e-9 {
		t.Errorf("Spearman with a tie = %v, want 0.8208 (scipy.stats.spearmanr)", r)
	}
	if r := KendallTauB(x, []float64{5, 6, 7, 8, 7}); math.Abs(r-0.7378647873726218) > 1e-9 {
		t.Errorf("τ-b with a tie = %v, want 0.7379 (scipy.stats.kendalltau)", r)
	}
	if r, ok := Spearman(x, []float64{1, 1, 1, 1, 1}); ok || r != 0 {
		t.Errorf("Spearman against a constant = %v, %v; want 0, not ok", r, ok)
	}
	if r := KendallTauB(x, []float64{1, 1, 1, 1, 1}); r != 0 {
		t.Errorf("τ-b against a constant = %v, want 0", r)
	}
}

func TestBootstrap(t *testing.T) {
	ci := Bootstrap([]float64{1, 1, 1}, 1)
	if ci != (CI{1, 1, 1, 3}) {
		t.Errorf("constant sample: %+v", ci)
	}
	// No value: N says so (it read as a certain zero).
	if ci := Bootstrap(nil, 1); ci.N != 0 {
		t.Errorf("empty sample: %+v, want N 0", ci)
	}
	ci = Bootstrap([]float64{0, 1, 0, 1, 0, 1, 0, 1}, 1)
	if ci.Mean != 0.5 || ci.Lo < 0.1 || ci.Lo > 0.3 || ci.Hi < 0.7 || ci.Hi > 0.9 {
		t.Errorf("0/1 sample of 8: %+v, want mean 0.5 with an interval about ±0.35", ci)
	}
	a := []TaskResult{{Rho: 0.9}, {Rho: 0.8}, {Rho: 0.7}}
	b := []TaskResult{{Rho: 0.4}, {Rho: 0.35}, {Rho: 0.2}}
	if d := PairedBootstrap(a, b, Metrics["rho"], 1); d.Lo <= 0 || math.Abs(d.Mean-0.4833333) > 1e-6 {
		t.Errorf("paired difference %+v, want mean 0.483 with an interval above 0", d)
	}
}

func TestFileVectorAveragesKernels(t *testing.T) {
	v := FileVector([]Kernel{{"a", Vector{"coal": 1, "xfer": 2}}, {"b", Vector{"coal": 0.5, "xfer": 2, "occ": 0.25}}})
	if !reflect.DeepEqual(v, Vector{"coal": 0.75, "xfer": 2, "occ": 0.25}) {
		t.Errorf("file vector %v", v)
	}
}

// TestUnboundTrainsBothRegimes: with sizes bound, a size-dependent feature
// is always present; Unbound adds the vectors without it, so the feature
// gets a mask input and the unbound pairs join the training set.
func TestUnboundTrainsBothRegimes(t *testing.T) {
	tasks := synthetic(8, 5, 1)
	for i := range tasks {
		for j := range tasks[i].Variants {
			v := &tasks[i].Variants[j]
			bound := Vector{}
			for k, x := range v.Kernels[0].Vector {
				bound[k] = x
			}
			bound["never"] = v.Times["large"] * 1000 // a per-call feature, known only at a size
			v.Unbound = v.Kernels
			v.Kernels = []Kernel{{"k", bound}}
			v.At = map[string][]Kernel{"large": v.Kernels}
		}
	}
	plain, err := Train(testSchema, tasks, nil, Options{Seed: 1, MaxEpochs: 5})
	if err != nil {
		t.Fatal(err)
	}
	both, err := Train(testSchema, tasks, nil, Options{Seed: 1, MaxEpochs: 5, Unbound: true})
	if err != nil {
		t.Fatal(err)
	}
	if both.Training.Pairs != 2*plain.Training.Pairs {
		t.Errorf("pairs with the unbound vectors %d, want twice %d", both.Training.Pairs, plain.Training.Pairs)
	}
	mask := func(m *Model) bool {
		for _, in := range m.Inputs {
			if in.Feature == "never" {
				return in.Mask
			}
		}
		t.Fatalf("no input for the size-dependent feature")
		return false
	}
	if mask(plain) || !mask(both) {
		t.Errorf("mask input of the size-dependent feature: bound only %v, with unbound %v; want false, true", mask(plain), mask(both))
	}
	un := WithoutSizes(tasks)
	if _, ok := FileVector(un[0].Variants[0].Kernels)["never"]; ok || un[0].Variants[0].At != nil {
		t.Errorf("WithoutSizes kept the bound vectors")
	}
	if _, ok := FileVector(tasks[0].Variants[0].Kernels)["never"]; !ok {
		t.Errorf("WithoutSizes changed its input")
	}
}

// TestPlotLeavesOutFlatTasks: a task with one timed variant, or variants
// of one time, has nothing a log axis can draw (gonum panicked on it); it
// gets no panel, and when no task is left the error says so.
func TestPlotLeavesOutFlatTasks(t *testing.T) {
	tasks := synthetic(2, 4, 7)
	one := Task{Name: "one", Primary: "large", Configs: []string{"large"},
		Variants: []Variant{{Name: "v", Kernels: []Kernel{{Name: "k", Vector: Vector{"coal": 1}}}, Times: map[string]float64{"large": 2}}}}
	same := Task{Name: "same", Primary: "large", Configs: []string{"large"}, Variants: []Variant{one.Variants[0], one.Variants[0]}}
	score := func(v Variant) float64 { return v.Kernels[0].Vector["coal"] }
	path := filepath.Join(t.TempDir(), "p.png")
	if err := Plot(append(tasks, one, same), score, "t", path); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Errorf("no plot written: %v", err)
	}
	if err := Plot([]Task{one, same}, score, "t", path); err == nil || !strings.Contains(err.Error(), "nothing to draw") {
		t.Errorf("only flat tasks: %v", err)
	}
}

// TestInfiniteFeatureIsMissing: an infinite feature value (a third-party
// analyzer may report one) counts as missing, in training and scoring: as a
// value it made the input's mean infinite, every score NaN, and the model
// unsavable ("json: unsupported value").
func TestInfiniteFeatureIsMissing(t *testing.T) {
	train := synthetic(10, 5, 1)
	train[0].Variants[0].Kernels[0].Vector["coal"] = math.Inf(1)
	train[1].Variants[2].Kernels[0].Vector["gmem"] = math.Inf(-1)
	m, err := Train(testSchema, train, nil, Options{Seed: 1, MaxEpochs: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range m.Inputs {
		if math.IsNaN(in.Mean) || math.IsInf(in.Mean, 0) || math.IsNaN(in.Std) || math.IsInf(in.Std, 0) {
			t.Errorf("input %s: mean %v std %v", in.Feature, in.Mean, in.Std)
		}
	}
	s := m.NewScorer()
	for _, v := range []Vector{{"coal": math.Inf(1), "gmem": 3}, {"coal": 0.5, "gmem": 3}} {
		if x := s.Score(v); math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("score of %v = %v", v, x)
		}
	}
	if err := m.Save(filepath.Join(t.TempDir(), "m.json")); err != nil {
		t.Errorf("save: %v", err)
	}
}

// TestParseRefusesInconsistentModels: edited copies of the built-in model
// whose schema, inputs, kind or featurizer do not fit were scored (or
// printed nothing) without a word; each is refused naming the field.
func TestParseRefusesInconsistentModels(t *testing.T) {
	data, err := os.ReadFile("default_model.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data, "built-in"); err != nil {
		t.Fatalf("the built-in model: %v", err)
	}
	for _, c := range []struct {
		edit func(m map[string]any)
		want string
	}{
		{func(m map[string]any) { m["schema"] = []any{} }, "schema is empty"},
		{func(m map[string]any) { m["inputs"].([]any)[0].(map[string]any)["feature"] = "no_such_feature" }, "input no_such_feature is not a feature of the model's schema"},
		{func(m map[string]any) { m["kind"] = "transformer" }, `kind "transformer"`},
		{func(m map[string]any) { m["featurizer"] = "paper-proxy" }, `featurizer "paper-proxy"`},
	} {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		c.edit(m)
		b, _ := json.Marshal(m)
		if _, err := Parse(b, "edited"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

// TestAccuracyLeavesOutTasksWithoutPairs: a task whose variants' times all
// lie within the pair rule's band has no pair; its accuracy is no evidence
// and was averaged in as 0 (always wrong).
func TestAccuracyLeavesOutTasksWithoutPairs(t *testing.T) {
	rs := []TaskResult{
		{Task: "a", Config: "large", N: 3, Rho: 1, Tau: 1, Acc: 1, Pairs: 2},
		{Task: "tied", Config: "large", N: 2, Rho: 0, Tau: 0, Acc: 0, Pairs: 0},
	}
	s := Summarize(ByTask(rs), 1)
	if s.Acc.Mean != 1 || s.Tasks != 2 || s.Rho.Mean != 0.5 {
		t.Errorf("accuracy %v over %d tasks (ρ %v); want 1 from task a alone, ρ over both", s.Acc.Mean, s.Tasks, s.Rho.Mean)
	}
	if d := PairedBootstrap(rs, []TaskResult{{Task: "a", Acc: 0.5, Pairs: 2}, {Task: "tied"}}, Metrics["pair_accuracy"], 1); d.Mean != 0.5 {
		t.Errorf("paired accuracy difference %v, want 0.5 from task a alone", d.Mean)
	}
	two := ByTask([]TaskResult{{Task: "m", Config: "small", Acc: 0, Pairs: 0}, {Task: "m", Config: "large", Acc: 0.8, Pairs: 4}})
	if two[0].Acc != 0.8 {
		t.Errorf("a task's accuracy over its configurations %v, want 0.8 (the configuration without pairs left out)", two[0].Acc)
	}
}
