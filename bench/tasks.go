package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/cudaperf/cudaperf/bench/task"
)

// LoadTasks finds root/<suite>/<task>/task.yaml folders matching the
// filters (suite "" and no names: all); a task that fails to load is
// reported in errs and skipped.
func LoadTasks(root, suite string, names []string) (tasks []*task.Task, errs []error) {
	pattern := filepath.Join(root, "*", "*", task.File)
	if suite != "" {
		if st, err := os.Stat(filepath.Join(root, suite)); err != nil || !st.IsDir() {
			return nil, []error{fmt.Errorf("bench: no suite %q under %s", suite, root)}
		}
		pattern = filepath.Join(root, suite, "*", task.File)
	}
	files, _ := filepath.Glob(pattern)
	sort.Strings(files)
	seen := map[string]bool{}
	for _, f := range files {
		dir := filepath.Dir(f)
		name := filepath.Base(dir)
		if len(names) > 0 && !slices.Contains(names, name) {
			continue
		}
		seen[name] = true
		t, err := task.Load(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tasks = append(tasks, t)
	}
	for _, n := range names {
		if !seen[n] {
			errs = append(errs, fmt.Errorf("bench: no task %q under %s", n, root))
		}
	}
	return tasks, errs
}

var taskNameRE = regexp.MustCompile(`^[a-z0-9_]+$`)

// LoadTaskFiles loads a task sent as its folder's files (relative path to
// content), for a client whose task folder this machine cannot read. The
// files are kept under the evaluator's cache by content hash, so the same
// task sent again is the same folder and finds its warm session.
func (e *Evaluator) LoadTaskFiles(files map[string][]byte) (*task.Task, error) {
	yml, ok := files[task.File]
	if !ok {
		return nil, fmt.Errorf("bench: task files have no %s", task.File)
	}
	parsed, err := task.Parse("task_files/"+task.File, yml)
	if err != nil {
		return nil, err
	}
	if !taskNameRE.MatchString(parsed.Name) {
		return nil, fmt.Errorf("task_files/%s: name: %q must match [a-z0-9_]+", task.File, parsed.Name)
	}
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s\x00%d\x00", k, len(files[k]))
		h.Write(files[k])
	}
	root := filepath.Join(filepath.Dir(e.srcDir), "tasks", hex.EncodeToString(h.Sum(nil))[:32])
	dir := filepath.Join(root, "request", parsed.Name)
	if _, err := os.Stat(filepath.Join(dir, task.File)); err != nil {
		tmp, err := os.MkdirTemp(filepath.Dir(e.srcDir), "tasks-tmp-")
		if err != nil {
			return nil, fmt.Errorf("bench: task files: %w", err)
		}
		defer os.RemoveAll(tmp)
		tdir := filepath.Join(tmp, "request", parsed.Name)
		for _, rel := range keys {
			clean := filepath.Clean(rel)
			if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
				return nil, fmt.Errorf("bench: task file path %q leaves the task folder", rel)
			}
			p := filepath.Join(tdir, clean)
			err := os.MkdirAll(filepath.Dir(p), 0o755)
			if err == nil {
				err = os.WriteFile(p, files[rel], 0o644)
			}
			if err != nil {
				return nil, fmt.Errorf("bench: task files: %w", err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
			return nil, fmt.Errorf("bench: task files: %w", err)
		}
		if err := os.Rename(tmp, root); err != nil {
			if _, statErr := os.Stat(filepath.Join(dir, task.File)); statErr != nil {
				return nil, fmt.Errorf("bench: task files: %w", err)
			}
		}
	}
	return task.Load(dir)
}
