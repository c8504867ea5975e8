package ablation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/host/grpo"
)

// MadeFile is the ablation folder's record of the configuration it was made
// with (defaults filled in). The ablation is pre-registered: --resume,
// report and rescore compare the configuration they are given with it, so
// that results made under one protocol are never described as another's.
const MadeFile = "ablation.yaml"

// mayChange are the keys that do not decide results, so they may differ
// from the record: where the folder is (it may be moved or copied), the
// path of the start (each run records the digest of what it began from,
// grpo.RecordStart refuses another one for a run under way, and the page
// lists the starts by content), and the per-candidate time limit (grpo
// leaves it out of a run's hash for the same reason). train.steps is not
// among them, unlike for `cudaperf train --resume`: runs evaluated already
// would keep the old budget while the page printed the new one.
var mayChange = []string{"name", "root", "init", "train.benchmarker.candidate_timeout"}

// UsageError is a mistake in what the ablation was asked to do (its
// configuration, or a folder it would write over): running again unchanged
// fails the same way, so a command reports it as a usage error.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// made is what MadeFile holds.
type made struct {
	Name    string       `yaml:"name"`
	Root    string       `yaml:"root"`
	Modes   []string     `yaml:"modes"`
	Seeds   []uint64     `yaml:"seeds"`
	Init    string       `yaml:"init"`
	Start   bool         `yaml:"start"`
	Primary Primary      `yaml:"primary"`
	Eval    Eval         `yaml:"eval"`
	Train   *grpo.Config `yaml:"train"`
}

// record is c as MadeFile holds it: the train template resolved, without
// the fields the ablation sets for each run (so they cannot differ).
func (c *Config) record() made {
	t := *c.base
	t.Name, t.Root, t.Seed, t.Policy.Init, t.Reward.Mode = "", "", 0, "", ""
	return made{Name: c.Name, Root: c.Root, Modes: c.Modes, Seeds: c.Seeds, Init: c.Init, Start: *c.Start,
		Primary: c.Primary, Eval: c.Eval, Train: &t}
}

// writeMade records c in its folder.
func (c *Config) writeMade() error {
	b, err := yaml.Marshal(c.record())
	if err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	head := fmt.Sprintf("# The configuration %s was made with, written by `cudaperf ablate`: --resume, report and\n"+
		"# rescore refuse one that differs in a key that decides results. Do not edit.\n", c.Dir())
	path := filepath.Join(c.Dir(), MadeFile)
	if err := os.WriteFile(path+".tmp", append([]byte(head), b...), 0o644); err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	return nil
}

// checkMade refuses c when it differs from the configuration its folder was
// made with in a key that decides results, naming each such key. A folder
// without the record (not made yet, or made before ablations recorded
// theirs) has nothing to compare with.
func (c *Config) checkMade() error {
	path := filepath.Join(c.Dir(), MadeFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("ablation: %w", err)
	}
	changes, err := grpo.DiffConfigs(b, nowYAML(c), mayChange)
	if err != nil {
		return fmt.Errorf("ablation: %s: %v (it is written by `cudaperf ablate`; restore it)", path, err)
	}
	var diffs []string
	for _, d := range changes {
		diffs = append(diffs, fmt.Sprintf("%s: %s, the config says %s", d.Key, d.Was, d.Now))
	}
	if len(diffs) == 0 {
		return nil
	}
	it := "it"
	if len(diffs) > 1 {
		it = "them"
	}
	return usageErrorf("%s: %s was made with %s: restore %s (%s holds the whole configuration), or start a new ablation under another name "+
		"(only init, the path of the start, and train.benchmarker.candidate_timeout may change)", c.path, c.Dir(), strings.Join(diffs, "; "), it, path)
}

// nowYAML is c's record as MadeFile would hold it.
func nowYAML(c *Config) []byte {
	b, _ := yaml.Marshal(c.record())
	return b
}
