package dataset

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// SplitFile is the split's file name inside a suite folder.
const SplitFile = "split.yaml"

// Split assigns every task of a suite to exactly one side.
type Split struct {
	Train      []string `yaml:"train"`
	Validation []string `yaml:"validation"`
	Test       []string `yaml:"test"`
}

// LoadSplit reads a split file strictly.
func LoadSplit(path string) (*Split, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var s Split
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("dataset: %s: %v (keys are train, validation, test: lists of task names)", path, err)
	}
	// A task on two sides would leak held-out tasks into training, and
	// Side would quietly take the first; every reader of a split gets
	// this check, not only those that also know the suite's tasks (Check).
	if err := s.checkOnce(); err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	return &s, nil
}

// checkOnce refuses a task listed more than once, naming its sides.
func (s *Split) checkOnce() error {
	sides := map[string][]string{}
	for _, side := range []struct {
		name  string
		tasks []string
	}{{"train", s.Train}, {"validation", s.Validation}, {"test", s.Test}} {
		for _, t := range side.tasks {
			sides[t] = append(sides[t], side.name)
		}
	}
	var problems []string
	for t, on := range sides {
		if len(on) > 1 {
			problems = append(problems, fmt.Sprintf("task %s is listed %d times (%s)", t, len(on), strings.Join(on, ", ")))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("%s: a task belongs to exactly one side; keep one entry", strings.Join(problems, "; "))
}

// Side returns the side ("train", "validation", "test") of a task, or "".
func (s *Split) Side(task string) string {
	switch {
	case slices.Contains(s.Train, task):
		return "train"
	case slices.Contains(s.Validation, task):
		return "validation"
	case slices.Contains(s.Test, task):
		return "test"
	}
	return ""
}

// Check verifies that the split names every task exactly once and nothing
// else.
func (s *Split) Check(tasks []string) error {
	count := map[string]int{}
	for _, side := range [][]string{s.Train, s.Validation, s.Test} {
		for _, t := range side {
			count[t]++
		}
	}
	var problems []string
	for t, n := range count {
		if n > 1 {
			problems = append(problems, fmt.Sprintf("task %s is on %d sides", t, n))
		}
		if !slices.Contains(tasks, t) {
			problems = append(problems, fmt.Sprintf("task %s is not in the suite", t))
		}
	}
	for _, t := range tasks {
		if count[t] == 0 {
			problems = append(problems, fmt.Sprintf("task %s is on no side: add it to train, validation or test", t))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("dataset: split: %s", strings.Join(problems, "; "))
	}
	return nil
}

// MakeSplit proposes a split: within each category, tasks are ordered by a
// hash of their name (stable, not alphabetical) and dealt out so that about
// valFrac and testFrac of all tasks go to validation and test, taking from
// the largest categories first so that no category lands on one side only
// when it has three or more tasks.
func MakeSplit(categories map[string]string, valFrac, testFrac float64) *Split {
	byCat := map[string][]string{}
	for t, c := range categories {
		byCat[c] = append(byCat[c], t)
	}
	cats := make([]string, 0, len(byCat))
	for c, ts := range byCat {
		sort.Slice(ts, func(i, j int) bool { return hash(ts[i]) < hash(ts[j]) })
		cats = append(cats, c)
	}
	sort.Slice(cats, func(i, j int) bool {
		if len(byCat[cats[i]]) != len(byCat[cats[j]]) {
			return len(byCat[cats[i]]) > len(byCat[cats[j]])
		}
		return cats[i] < cats[j]
	})
	n := len(categories)
	wantVal, wantTest := int(float64(n)*valFrac+0.5), int(float64(n)*testFrac+0.5)
	s := &Split{}
	// Deal round-robin over categories: first one test task, then one
	// validation task from each category with ≥ 3 tasks, until both are
	// full; the rest trains.
	taken := map[string]bool{}
	for round := 0; len(s.Test) < wantTest || len(s.Validation) < wantVal; round++ {
		progress := false
		for _, c := range cats {
			ts := byCat[c]
			if len(ts) < 3 && round > 0 {
				continue
			}
			for _, t := range ts {
				if taken[t] {
					continue
				}
				// Keep at least one task of the category for training.
				left := 0
				for _, u := range ts {
					if !taken[u] {
						left++
					}
				}
				if left <= 1 {
					break
				}
				switch {
				case len(s.Test) < wantTest && (len(s.Test) <= len(s.Validation) || len(s.Validation) >= wantVal):
					s.Test = append(s.Test, t)
				case len(s.Validation) < wantVal:
					s.Validation = append(s.Validation, t)
				default:
					continue
				}
				taken[t], progress = true, true
				break
			}
		}
		if !progress {
			break
		}
	}
	for t := range categories {
		if !taken[t] {
			s.Train = append(s.Train, t)
		}
	}
	sort.Strings(s.Train)
	sort.Strings(s.Validation)
	sort.Strings(s.Test)
	return s
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// roundRobin reorders tasks sorted by category so that the categories take
// turns: each one's first task, then each one's second, and so on.
func roundRobin(tasks []string, categories map[string]string) []string {
	var groups [][]string
	for i, t := range tasks {
		if i == 0 || categories[t] != categories[tasks[i-1]] {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], t)
	}
	out := make([]string, 0, len(tasks))
	for k := 0; len(out) < len(tasks); k++ {
		for _, g := range groups {
			if k < len(g) {
				out = append(out, g[k])
			}
		}
	}
	return out
}

// Assign extends a frozen split to tasks it does not name yet (categories
// maps every task of the suite to its category). Assigned tasks never move.
// New tasks are dealt round-robin over the categories (the first new task
// of each category, then the second, ...; within a category in the same
// stable hash order as MakeSplit) to the side furthest below its share
// (valFrac, testFrac of all tasks) — but a category keeps at least one
// training task, so the ranker sees every kind of kernel. (Dealt category
// by category, the first categories in name order took every held-out
// slot: 8 new attention tasks went 3/3/2 and 8 new reduction tasks all to
// train.) It returns the new tasks and their sides.
func (s *Split) Assign(categories map[string]string, valFrac, testFrac float64) map[string]string {
	added := map[string]string{}
	var fresh []string
	for t := range categories {
		if s.Side(t) == "" {
			fresh = append(fresh, t)
		}
	}
	sort.Slice(fresh, func(i, j int) bool {
		ci, cj := categories[fresh[i]], categories[fresh[j]]
		if ci != cj {
			return ci < cj
		}
		return hash(fresh[i]) < hash(fresh[j])
	})
	fresh = roundRobin(fresh, categories)
	trainIn := map[string]int{}
	for _, t := range s.Train {
		trainIn[categories[t]]++
	}
	n := float64(len(categories))
	inCat, valIn, testIn := map[string]float64{}, map[string]float64{}, map[string]float64{}
	for _, c := range categories {
		inCat[c]++
	}
	for _, t := range s.Validation {
		valIn[categories[t]]++
	}
	for _, t := range s.Test {
		testIn[categories[t]]++
	}
	for _, t := range fresh {
		c := categories[t]
		side := "train"
		if trainIn[c] > 0 {
			// A held-out side with room left in the whole split (a
			// deficit of a task or more against its share) and in this
			// category (below its share of the category); of two, the one
			// further below its share in the category, then overall. By
			// the overall deficit alone, categories taking turns each
			// landed on one side: all of one on test, of the other on
			// validation.
			dv, dt := valFrac*n-float64(len(s.Validation)), testFrac*n-float64(len(s.Test))
			dvc, dtc := valFrac*inCat[c]-valIn[c], testFrac*inCat[c]-testIn[c]
			okT, okV := dt >= 1 && dtc > 0, dv >= 1 && dvc > 0
			switch {
			case okT && (!okV || dtc > dvc || dtc == dvc && dt >= dv):
				side = "test"
			case okV:
				side = "validation"
			}
		}
		switch side {
		case "train":
			s.Train = append(s.Train, t)
			trainIn[c]++
		case "validation":
			s.Validation = append(s.Validation, t)
			valIn[c]++
		default:
			s.Test = append(s.Test, t)
			testIn[c]++
		}
		added[t] = side
	}
	sort.Strings(s.Train)
	sort.Strings(s.Validation)
	sort.Strings(s.Test)
	return added
}

// Write saves the split to path, keeping the comment block at the top of
// the file that is there (it records how the split was made).
func (s *Split) Write(path string) error {
	var head strings.Builder
	if old, err := os.ReadFile(path); err == nil {
		for _, line := range strings.SplitAfter(string(old), "\n") {
			if !strings.HasPrefix(line, "#") {
				break
			}
			head.WriteString(line)
		}
	}
	var b bytes.Buffer
	b.WriteString(head.String())
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(4)
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return os.Rename(tmp, path)
}
