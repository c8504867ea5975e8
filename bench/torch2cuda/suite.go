package torch2cuda

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/cudaperf/cudaperf/bench"
)

// SuiteCandidates lists a torch2cuda suite's tasks with their variants and
// cheats (a cheat's first line says "# expect: <reason id>").
func SuiteCandidates(suiteDir string) ([]Job, error) {
	problems, err := filepath.Glob(filepath.Join(suiteDir, "*", ProblemFile))
	if err != nil {
		return nil, err
	}
	sort.Strings(problems)
	var out []Job
	for _, p := range problems {
		jobs, err := TaskCandidates(filepath.Dir(p))
		if err != nil {
			return nil, err
		}
		out = append(out, jobs...)
	}
	return out, nil
}

// TaskCandidates lists one task's variants/*.py, then its cheats/*.py,
// each in name order; dir is the task's folder (holding problem.py).
func TaskCandidates(dir string) ([]Job, error) {
	p := filepath.Join(dir, ProblemFile)
	if _, err := os.Stat(p); err != nil {
		return nil, fmt.Errorf("torch2cuda: task %s: %w", dir, err)
	}
	var out []Job
	for _, kind := range []string{"variants", "cheats"} {
		files, _ := filepath.Glob(filepath.Join(dir, kind, "*.py"))
		sort.Strings(files)
		for _, f := range files {
			j := Job{Problem: p, Candidate: f, Suite: filepath.Base(filepath.Dir(dir)), Task: filepath.Base(dir), Kind: bench.KindVariant}
			if kind == "cheats" {
				j.Kind = bench.KindCheat
				j.Expect = expectOf(f)
			}
			out = append(out, j)
		}
	}
	return out, nil
}

var expectPyRE = regexp.MustCompile(`^#\s*expect:\s*([a-z_]+)`)

func expectOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if sc.Scan() {
		if m := expectPyRE.FindStringSubmatch(sc.Text()); m != nil {
			return m[1]
		}
	}
	return ""
}
