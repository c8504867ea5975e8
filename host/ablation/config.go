package ablation

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/host/grpo"
	"github.com/cudaperf/cudaperf/host/reward"
)

// Config is an ablation (ablation.yaml):
//
//	name: reward-ablation          # runs/<name>/<mode>-s<seed>/
//	root: runs
//	modes: [ver, both, random]     # str too if the budget allows
//	seeds: [1, 2, 3]
//	init: runs/sft-1/epoch-4       # the same start for every run (policy Save folder)
//	start: true                    # evaluate the start too, once per seed (the control)
//	primary: {metric: pass@1, side: test}   # named before the runs
//	eval: {sides: [test, train], n: 10, k: [1, 5], temperature: 0.8, top_p: 0.95, max_tokens: 1024,
//	       tasks: {train: [gelu, row_sum]}}   # a side's tasks (default all)
//	train:                         # a run.yaml without name, seed, reward.mode, policy.init
//	  steps: 30
//	  batch: 8
//	  group: 8
//	  turns: 2
//	  policy: {plugin: hf}
//	  benchmarker: {plugin: cudaperf-benchmarker}
type Config struct {
	Name  string   `yaml:"name"`
	Root  string   `yaml:"root"`
	Modes []string `yaml:"modes"`
	Seeds []uint64 `yaml:"seeds"`
	Init  string   `yaml:"init"`
	// Start (default true) evaluates the start checkpoint itself with
	// each seed's evaluation sampling, as rows "start-s<seed>": without it
	// the page can rank the modes but cannot say whether training moved
	// any of them from where they began.
	Start   *bool     `yaml:"start"`
	Primary Primary   `yaml:"primary"`
	Eval    Eval      `yaml:"eval"`
	Train   yaml.Node `yaml:"train"`

	base *grpo.Config
	path string // the file it was read from, for errors
}

// Primary is the metric the conclusion is about, fixed before the runs.
type Primary struct {
	Metric string `yaml:"metric"` // pass@K or speedup@K
	Side   string `yaml:"side"`
}

// Eval is the evaluation protocol of every run.
type Eval struct {
	Sides       []string `yaml:"sides"`
	N           int      `yaml:"n"`
	K           []int    `yaml:"k"`
	Temperature float64  `yaml:"temperature"`
	TopP        float64  `yaml:"top_p"`
	MaxTokens   int      `yaml:"max_tokens"`
	FewShot     *int     `yaml:"few_shot"`
	// Tasks restricts a side's evaluation to these tasks (default: all of
	// the side). Every run is evaluated on the same list; e.g. 8 of the 43
	// train tasks keep an in-distribution evaluation to minutes.
	Tasks map[string][]string `yaml:"tasks"`
}

// Load reads an ablation configuration strictly and fills defaults.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ablation: %w", err)
	}
	return Parse(path, b)
}

// Parse decodes and checks a configuration.
func Parse(path string, b []byte) (*Config, error) {
	// Defaults a file may set to zero are filled before decoding, so that
	// an explicit 0 (temperature 0 is greedy) is kept and checked, not
	// replaced.
	c := &Config{path: path, Eval: Eval{N: 10, Temperature: 0.8, TopP: 0.95, MaxTokens: 1024}}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v (see 'cudaperf ablate --help')", path, err)
	}
	if c.Root == "" {
		c.Root = "runs"
	}
	if len(c.Modes) == 0 {
		c.Modes = []string{"ver", "both", "random"}
	}
	if c.Start == nil {
		t := true
		c.Start = &t
	}
	if len(c.Seeds) == 0 {
		c.Seeds = []uint64{1, 2, 3}
	}
	if c.Primary.Metric == "" {
		c.Primary.Metric = "pass@1"
	}
	if c.Primary.Side == "" {
		c.Primary.Side = "test"
	}
	if len(c.Eval.Sides) == 0 {
		c.Eval.Sides = []string{"test", "train"}
	}
	if len(c.Eval.K) == 0 {
		c.Eval.K = []int{1, 5}
	}
	if c.Eval.FewShot == nil {
		k := 1
		c.Eval.FewShot = &k
	}
	var bad []string
	if c.Name == "" || strings.ContainsAny(c.Name, `/\ `) {
		bad = append(bad, fmt.Sprintf("name %q: give the ablation a folder name", c.Name))
	}
	for _, m := range c.Modes {
		if m == StartMode {
			bad = append(bad, fmt.Sprintf("modes: %q is the evaluation of the start checkpoint, not a reward mode (it is on with start: true)", m))
			continue
		}
		if _, err := reward.ParseMode(m); err != nil {
			bad = append(bad, "modes: "+strings.TrimPrefix(err.Error(), "reward: "))
		}
	}
	if len(c.Seeds) < 2 {
		bad = append(bad, "seeds: at least 2 (3 or more is the plan) so seed-to-seed variation can be estimated")
	}
	// A repeated mode, seed or side is one run (or evaluation) counted as
	// several: intervals computed as if they were independent.
	for _, d := range []struct {
		key  string
		dups []string
	}{{"modes", repeated(c.Modes)}, {"seeds", repeated(c.Seeds)}, {"eval.sides", repeated(c.Eval.Sides)}, {"eval.k", repeated(c.Eval.K)}} {
		if len(d.dups) > 0 {
			bad = append(bad, fmt.Sprintf("%s: %s listed more than once (each run or evaluation is made once and would be counted twice)", d.key, strings.Join(d.dups, ", ")))
		}
	}
	if c.Eval.N < 1 {
		bad = append(bad, fmt.Sprintf("eval.n %d: at least 1 sample per task", c.Eval.N))
	}
	if !(c.Eval.Temperature >= 0 && c.Eval.Temperature <= 10) {
		bad = append(bad, fmt.Sprintf("eval.temperature %v: give 0 (greedy) to 10", c.Eval.Temperature))
	}
	if !(c.Eval.TopP > 0 && c.Eval.TopP <= 1) {
		bad = append(bad, fmt.Sprintf("eval.top_p %v: give a value in (0, 1]", c.Eval.TopP))
	}
	if c.Eval.MaxTokens < 1 {
		bad = append(bad, fmt.Sprintf("eval.max_tokens %d: at least 1", c.Eval.MaxTokens))
	}
	if *c.Eval.FewShot < 0 {
		bad = append(bad, fmt.Sprintf("eval.few_shot %d: 0 (no example) or more", *c.Eval.FewShot))
	}
	if !slices.Contains(c.Eval.Sides, c.Primary.Side) {
		bad = append(bad, fmt.Sprintf("primary.side %q is not among eval.sides %v", c.Primary.Side, c.Eval.Sides))
	}
	if _, _, err := parseMetric(c.Primary.Metric); err != nil {
		bad = append(bad, "primary.metric: "+err.Error())
	} else if _, k, _ := parseMetric(c.Primary.Metric); !slices.Contains(c.Eval.K, k) {
		bad = append(bad, fmt.Sprintf("primary.metric %s: k = %d is not among eval.k %v", c.Primary.Metric, k, c.Eval.K))
	}
	for side := range c.Eval.Tasks {
		if !slices.Contains(c.Eval.Sides, side) {
			bad = append(bad, fmt.Sprintf("eval.tasks.%s: %q is not among eval.sides %v", side, side, c.Eval.Sides))
		}
	}
	for _, k := range c.Eval.K {
		if k < 1 || k > c.Eval.N {
			bad = append(bad, fmt.Sprintf("eval.k %d: needs 1 ≤ k ≤ eval.n (%d)", k, c.Eval.N))
		}
	}
	// The template: a run.yaml body, without the fields the ablation sets.
	body := map[string]any{}
	if c.Train.Kind != 0 {
		if err := c.Train.Decode(&body); err != nil {
			bad = append(bad, fmt.Sprintf("train: %v (a run.yaml body: steps, batch, group, ...)", err))
		}
	}
	for _, k := range []string{"name", "root", "seed"} {
		if _, ok := body[k]; ok {
			bad = append(bad, fmt.Sprintf("train.%s: the ablation sets it; remove it", k))
		}
	}
	// The ablation sets these for every run too (Runs): a value here was
	// dropped without a word, and every run began from another start.
	for _, k := range []struct{ section, key, instead string }{{"policy", "init", "init"}, {"reward", "mode", "modes"}} {
		if m, ok := body[k.section].(map[string]any); ok {
			if _, ok := m[k.key]; ok {
				bad = append(bad, fmt.Sprintf("train.%s.%s: the ablation sets it for every run from its top-level %s; move it there", k.section, k.key, k.instead))
			}
		}
	}
	body["name"] = "template"
	tb, _ := yaml.Marshal(body)
	base, err := grpo.ParseConfig(path+": train", tb)
	if err != nil {
		bad = append(bad, err.Error())
	} else {
		base.Root = filepath.Join(c.Root, c.Name)
		c.base = base
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%s: %s", path, strings.Join(bad, "; "))
	}
	return c, nil
}

// repeated lists the values that occur more than once in xs, in order.
func repeated[T comparable](xs []T) []string {
	seen := map[T]int{}
	var out []string
	for _, x := range xs {
		if seen[x]++; seen[x] == 2 {
			out = append(out, fmt.Sprint(x))
		}
	}
	return out
}

// StartMode names the rows that evaluate the start checkpoint untrained.
const StartMode = "start"

// Run is one (mode, seed) of the ablation; Mode StartMode is the start
// checkpoint's evaluation with that seed (no training).
type Run struct {
	Mode string
	Seed uint64
	Cfg  *grpo.Config
}

// Runs lists the runs in the order they are made: seed-major, so an
// interrupted ablation has every mode of the first seeds (a usable paired
// comparison) rather than every seed of the first modes; a seed's start
// evaluation (with start: true) comes first.
func (c *Config) Runs() []Run {
	var out []Run
	for _, s := range c.Seeds {
		for _, m := range c.RowModes() {
			cfg := *c.base
			cfg.Name = runName(m, s)
			cfg.Seed = s
			if m != StartMode { // a start row trains nothing: the base's mode stays
				cfg.Reward.Mode = m
			}
			cfg.Policy.Init = c.Init
			out = append(out, Run{Mode: m, Seed: s, Cfg: &cfg})
		}
	}
	return out
}

// runName is a run's folder name under the ablation's.
func runName(mode string, seed uint64) string { return fmt.Sprintf("%s-s%d", mode, seed) }

// RowModes are the rows of the results tables: the start checkpoint
// (with start: true), then the reward modes.
func (c *Config) RowModes() []string {
	if c.Start != nil && *c.Start {
		return append([]string{StartMode}, c.Modes...)
	}
	return c.Modes
}

// Dir is the ablation's folder.
func (c *Config) Dir() string { return filepath.Join(c.Root, c.Name) }

// Weights are the reward weights every run trains with.
func (c *Config) Weights() reward.Weights { return c.base.Reward.Weights }

// parseMetric splits "pass@1" or "speedup@5".
func parseMetric(s string) (kind string, k int, err error) {
	kind, ks, ok := strings.Cut(s, "@")
	if !ok || (kind != "pass" && kind != "speedup") {
		return "", 0, fmt.Errorf("%q: use pass@K or speedup@K", s)
	}
	if _, err := fmt.Sscanf(ks, "%d", &k); err != nil || k < 1 {
		return "", 0, fmt.Errorf("%q: K must be a positive integer", s)
	}
	return kind, k, nil
}
