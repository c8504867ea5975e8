package grpo

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cudaperf/cudaperf/bench/dataset"
)

// Dataset is a suite's tasks with their split sides and measured variants.
type Dataset struct {
	Suite string
	Tasks []*Task // all tasks, sorted by name
}

// LoadDataset reads every task of a suite, its split and the measurements
// of its known variants (accepted ones only).
//
// Task folders are made absolute: plugins run in their own folders, so a
// path relative to the working directory would not reach them.
func LoadDataset(suite string, measurements []string) (*Dataset, error) {
	suite, err := filepath.Abs(suite)
	if err != nil {
		return nil, fmt.Errorf("grpo: %w", err)
	}
	split, err := dataset.LoadSplit(filepath.Join(suite, dataset.SplitFile))
	if err != nil {
		return nil, fmt.Errorf("grpo: the suite needs a split: %w", err)
	}
	if err := split.Check(dataset.TaskNames(suite)); err != nil {
		return nil, fmt.Errorf("grpo: %s: %w (%s)", filepath.Join(suite, dataset.SplitFile), err, dataset.SplitHint(suite))
	}
	var present []string
	for _, m := range measurements {
		if _, err := os.Stat(m); err == nil {
			present = append(present, m)
		} else {
			return nil, fmt.Errorf("grpo: measurements %s: %w (give the suite's measurements.jsonl, written by 'cudaperf bench')", m, err)
		}
	}
	rs, err := dataset.Load(present...)
	if err != nil {
		return nil, err
	}
	speed := map[string]map[string]float64{}
	for _, st := range dataset.Summarize(rs, split) {
		m := map[string]float64{}
		for _, v := range st.Variants {
			if v.Accepted && v.Speedup > 0 {
				m[v.Name] = v.Speedup
			}
		}
		speed[st.Name] = m
	}
	d := &Dataset{Suite: suite}
	for _, side := range [][]string{split.Train, split.Validation, split.Test} {
		for _, name := range side {
			t, err := LoadTask(filepath.Join(suite, name))
			if err != nil {
				return nil, err
			}
			t.Side = split.Side(name)
			if err := t.setVariants(speed[name]); err != nil {
				return nil, err
			}
			d.Tasks = append(d.Tasks, t)
		}
	}
	slices.SortFunc(d.Tasks, func(a, b *Task) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	return d, nil
}

// Side returns the tasks of one split side, restricted to names when
// names is not empty (a name not on that side is an error).
func (d *Dataset) Side(side string, names []string) ([]*Task, error) {
	var out []*Task
	for _, t := range d.Tasks {
		if t.Side == side && (len(names) == 0 || slices.Contains(names, t.Name)) {
			out = append(out, t)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(out, func(t *Task) bool { return t.Name == n }) {
			return nil, fmt.Errorf("grpo: task %q is not on the %s side of %s (see its split.yaml)", n, side, d.Suite)
		}
	}
	if len(out) == 0 {
		var sides []string
		for _, t := range d.Tasks {
			if !slices.Contains(sides, t.Side) {
				sides = append(sides, t.Side)
			}
		}
		slices.Sort(sides)
		return nil, fmt.Errorf("grpo: no %s tasks in %s (its sides: %s)", side, d.Suite, strings.Join(sides, ", "))
	}
	return out, nil
}

// Task finds a task by name.
func (d *Dataset) Task(name string) *Task {
	for _, t := range d.Tasks {
		if t.Name == name {
			return t
		}
	}
	return nil
}
