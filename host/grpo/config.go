package grpo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/reward"
)

// Config is a run's configuration (run.yaml). Every field has a default;
// the file needs only what differs. Decoding is strict: an unknown key is
// an error naming the line.
type Config struct {
	// Name is the run folder's name under Root (runs/<name>/).
	Name string `yaml:"name"`
	// Root is the folder holding run folders (default "runs").
	Root string `yaml:"root"`
	// Suite is the task suite folder (default bench/suites/c2cuda).
	Suite string `yaml:"suite"`
	// Measurements are results.jsonl files of the suite's known variants,
	// for few-shot examples (sorted by measured speedup) and each task's
	// speedup baseline (default <suite>/measurements.jsonl).
	Measurements []string `yaml:"measurements"`
	// Side is the split side whose tasks are trained on (default train;
	// the split is <suite>/split.yaml). Few-shot examples always come
	// from the train side.
	Side string `yaml:"side"`
	// Tasks restricts the side to these tasks (default: all of it).
	Tasks []string `yaml:"tasks"`
	// Steps is the number of GRPO steps (default 30).
	Steps int `yaml:"steps"`
	// Batch is the number of tasks per step (default 8).
	Batch int `yaml:"batch"`
	// Group is G, completions per prompt (default 16).
	Group int `yaml:"group"`
	// Turns is T, attempts per trajectory: the first and T−1 refinements
	// with feedback (default 5).
	Turns int `yaml:"turns"`
	// Discount is γ, the per-turn discount of returns (default 0.8: a
	// refinement four turns later counts 0.41 towards the first attempt).
	Discount *float64 `yaml:"discount"`
	// FewShot is the number of example kernels in a prompt (default 1:
	// examples are long and the default model's context is 8k tokens).
	FewShot *int `yaml:"few_shot"`
	// Seed drives the task order, sampling seeds and the random reward.
	Seed uint64 `yaml:"seed"`
	// KeepCheckpoints is how many step checkpoints are kept (default 2).
	KeepCheckpoints int `yaml:"keep_checkpoints"`

	Policy      PolicyConfig        `yaml:"policy"`
	Benchmarker BenchmarkerConfig   `yaml:"benchmarker"`
	Reward      RewardConfig        `yaml:"reward"`
	Ranker      RankerConfig        `yaml:"ranker"`
	Sampling    pluginhost.Sampling `yaml:"sampling"`

	path string
}

// PolicyConfig names the policy plugin and its training settings.
type PolicyConfig struct {
	// Plugin is the policy plugin's name (default replay).
	Plugin string `yaml:"plugin"`
	// Init is a folder written by the policy's Save (e.g. an SFT result)
	// loaded before the first step.
	Init string `yaml:"init"`
	// Hyperparameters go to every Update (learning_rate, kl_coef,
	// clip, ...); the plugin documents the keys it reads.
	Hyperparameters map[string]float64 `yaml:"hyperparameters"`
	// UpdatesPerStep is μ, optimiser steps on each step's rollouts
	// (default 1; with μ > 1 the surrogate's clip bounds how far the
	// policy moves from the one that sampled).
	UpdatesPerStep int `yaml:"updates_per_step"`
}

// BenchmarkerConfig names the benchmarker plugin.
type BenchmarkerConfig struct {
	// Plugin is the benchmarker plugin's name (default cudaperf-benchmarker).
	Plugin string `yaml:"plugin"`
	// Concurrency is how many candidates are in flight at once (default
	// 64): enough that the benchmarker can compile ahead of its GPU slots
	// (8 per GPU); with 8 in flight, each candidate's compile must end
	// before a slot is used. Not yet measured in an RL run.
	Concurrency int `yaml:"concurrency"`
	// Profile is the evaluation profile asked of the benchmarker (default
	// rl: the task's RL configurations, fewer timed calls, the same
	// anti-cheat checks; report measures every configuration at full
	// rigour).
	Profile string `yaml:"profile"`
	// CandidateTimeout bounds one candidate's evaluation, as a Go
	// duration ("3m"; empty: DefaultCandidateTimeout). A candidate past it
	// is scored as not compiled and the step goes on. It is how the run
	// is kept going, not what it measures: it is left out of Hash, so it
	// may change across a resume.
	CandidateTimeout string `yaml:"candidate_timeout,omitempty"`
}

// CandidateLimit is CandidateTimeout parsed (0: the default); Validate
// reports a malformed one.
func (b BenchmarkerConfig) CandidateLimit() time.Duration {
	d, _ := time.ParseDuration(b.CandidateTimeout)
	return d
}

// RewardConfig is the reward's mode and weights (see package reward).
type RewardConfig struct {
	Mode           string `yaml:"mode"`
	reward.Weights `yaml:",inline"`
}

// RankerConfig says where Rstr comes from.
type RankerConfig struct {
	// Model is a ranker model file; empty uses the built-in model when the
	// mode needs Rstr.
	Model string `yaml:"model"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// LoadConfig reads and checks a run configuration.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("grpo: %w", err)
	}
	return ParseConfig(path, b)
}

// ParseConfig decodes a configuration strictly and fills defaults.
func ParseConfig(path string, b []byte) (*Config, error) {
	c := &Config{path: path}
	c.Reward.Weights = reward.DefaultWeights()
	c.numberDefaults()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v (see 'cudaperf train --help' for the keys)", path, err)
	}
	c.fill()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// numberDefaults sets the numeric defaults before the file is decoded over
// them, so that a number the file gives, 0 included, is kept and checked
// (group: 0 used to become 16 without a word, temperature: 0 became 1).
func (c *Config) numberDefaults() {
	c.Steps, c.Batch, c.Group, c.Turns, c.KeepCheckpoints = 30, 8, 16, 5, defaultKeepCheckpoints
	c.Benchmarker.Concurrency = 64
	c.Policy.UpdatesPerStep = 1
	c.Sampling.Temperature, c.Sampling.TopP, c.Sampling.MaxTokens = 1, 1, 1024
}

// fill sets the defaults that are not numbers (numberDefaults sets those).
func (c *Config) fill() {
	if c.Root == "" {
		c.Root = "runs"
	}
	if c.Suite == "" {
		c.Suite = filepath.Join("bench", "suites", "c2cuda")
	}
	if len(c.Measurements) == 0 {
		c.Measurements = []string{filepath.Join(c.Suite, "measurements.jsonl")}
	}
	if c.Side == "" {
		c.Side = "train"
	}
	if c.Discount == nil {
		d := 0.8
		c.Discount = &d
	}
	if c.FewShot == nil {
		k := 1
		c.FewShot = &k
	}
	if c.Policy.Plugin == "" {
		c.Policy.Plugin = "replay"
	}
	if c.Benchmarker.Plugin == "" {
		c.Benchmarker.Plugin = "cudaperf-benchmarker"
	}
	if c.Benchmarker.Profile == "" {
		c.Benchmarker.Profile = "rl"
	}
	if c.Reward.Mode == "" {
		c.Reward.Mode = string(reward.ModeBoth)
	}
}

// Validate reports every problem at once.
func (c *Config) Validate() error {
	var bad []string
	if !nameRE.MatchString(c.Name) {
		bad = append(bad, fmt.Sprintf("name %q: give the run a name of letters, digits, '.', '_' or '-' (it is the folder runs/<name>)", c.Name))
	}
	switch c.Side {
	case "train", "validation":
	case "test":
		// The test tasks measure what training did (DESIGN.md: never
		// trained on, by SFT, the ranker or RL); sft and the ranker refuse
		// them too.
		bad = append(bad, "side test: the test tasks are never trained on (they measure the result); train on train (the default) or validation, and evaluate on test with `cudaperf eval --side test`")
	default:
		bad = append(bad, fmt.Sprintf("side %q: use train or validation", c.Side))
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"steps", c.Steps}, {"batch", c.Batch}, {"turns", c.Turns}, {"keep_checkpoints", c.KeepCheckpoints}, {"benchmarker.concurrency", c.Benchmarker.Concurrency}, {"policy.updates_per_step", c.Policy.UpdatesPerStep}, {"sampling.max_tokens", c.Sampling.MaxTokens}} {
		if f.v < 1 {
			bad = append(bad, fmt.Sprintf("%s = %d: must be ≥ 1", f.name, f.v))
		}
	}
	if t := c.Sampling.Temperature; !(t > 0) {
		bad = append(bad, fmt.Sprintf("sampling.temperature = %v: must be > 0 (GRPO compares different samples of one prompt; default 1)", t))
	}
	if p := c.Sampling.TopP; !(p > 0 && p <= 1) {
		bad = append(bad, fmt.Sprintf("sampling.top_p = %v: must be in (0, 1] (default 1)", p))
	}
	if c.Group < 2 {
		bad = append(bad, fmt.Sprintf("group = %d: GRPO compares candidates within a group, so it needs ≥ 2 (default 16)", c.Group))
	}
	if d := *c.Discount; !(d >= 0 && d <= 1) { // NaN too: it failed every step's record
		bad = append(bad, fmt.Sprintf("discount = %v: must be in [0, 1]", d))
	}
	if p := c.Benchmarker.Profile; p != "rl" && p != "report" {
		bad = append(bad, fmt.Sprintf("benchmarker.profile %q: use rl or report", p))
	}
	if t := c.Benchmarker.CandidateTimeout; t != "" {
		if d, err := time.ParseDuration(t); err != nil || d <= 0 {
			bad = append(bad, fmt.Sprintf("benchmarker.candidate_timeout %q: give a positive duration such as 3m", t))
		}
	}
	if *c.FewShot < 0 {
		bad = append(bad, "few_shot: must be ≥ 0")
	}
	if _, err := reward.ParseMode(c.Reward.Mode); err != nil {
		bad = append(bad, "reward.mode: "+strings.TrimPrefix(err.Error(), "reward: "))
	}
	if err := c.Reward.Weights.Validate(); err != nil {
		bad = append(bad, strings.TrimPrefix(err.Error(), "reward: "))
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

// defaultKeepCheckpoints is keep_checkpoints unless a run.yaml sets it.
const defaultKeepCheckpoints = 2

// Dir is the run folder.
func (c *Config) Dir() string { return filepath.Join(c.Root, c.Name) }

// Hash identifies the settings that must not change across a resume.
func (c *Config) Hash() string {
	h := *c
	h.Benchmarker.CandidateTimeout = ""
	b, _ := yaml.Marshal(&h)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
