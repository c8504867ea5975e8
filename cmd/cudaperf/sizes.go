package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/host/lint"
)

// sizeFlags are the problem-size options of `features`.
func sizeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "set", Usage: "bind a problem size, `NAME=VALUE` (a host function's parameter, e.g. n=33554432); repeatable"},
		&cli.StringFlag{Name: "task", Usage: "analyze task `T`'s variants (a task folder, or a task name under --suites) at one of its configurations"},
		&cli.StringFlag{Name: "task-config", Usage: "the task's configuration `NAME` to bind (default: its primary one)"},
		&cli.StringFlag{Name: "suites", Value: filepath.Join("bench", "suites"), Usage: "root `DIR` of the task suites, for --task NAME"},
	}
}

// parseSets reads --set NAME=VALUE bindings.
func parseSets(sets []string) (map[string]int64, error) {
	if len(sets) == 0 {
		return nil, nil
	}
	out := map[string]int64{}
	for _, s := range sets {
		name, val, ok := strings.Cut(s, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || !validName(name) {
			return nil, usageErrorf("--set %q: write NAME=VALUE with a C identifier, e.g. --set n=33554432", s)
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(val, "_", ""), 0, 64)
		if err != nil {
			return nil, usageErrorf("--set %s: %q is not an integer; sizes are whole numbers (e.g. 1048576 or 1<<20 written out)", name, val)
		}
		out[name] = v
	}
	return out, nil
}

// setNames are the names of the --set bindings (parseSets has checked them).
func setNames(c *cli.Context) []string {
	var out []string
	for _, s := range c.StringSlice("set") {
		name, _, _ := strings.Cut(s, "=")
		out = append(out, strings.TrimSpace(name))
	}
	return out
}

// unusedSets are the names that no input's text has as a whole word: a
// binding of them reaches no parameter. (A name that appears somewhere may
// still not be a parameter; this catches the misspelling, not every miss.)
func unusedSets(names []string, inputs []lint.Input) []string {
	var out []string
	for _, n := range names {
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(n) + `\b`)
		if !slices.ContainsFunc(inputs, func(in lint.Input) bool { return word.Match(in.Content) }) {
			out = append(out, n)
		}
	}
	return out
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// taskSizes resolves --task and --task-config: the task's variants (the
// files to analyze when none are named) and the configuration's integer
// values. --set values override the task's.
func taskSizes(c *cli.Context) (files []string, sizes map[string]int64, err error) {
	sizes, err = parseSets(c.StringSlice("set"))
	if err != nil {
		return nil, nil, err
	}
	name := c.String("task")
	if name == "" {
		if c.IsSet("task-config") {
			return nil, nil, usageErrorf("--task-config needs --task")
		}
		return nil, sizes, nil
	}
	dir := name
	if st, err := os.Stat(filepath.Join(dir, task.File)); err != nil || st.IsDir() {
		matches, _ := filepath.Glob(filepath.Join(c.String("suites"), "*", name, task.File))
		if len(matches) == 0 {
			return nil, nil, usageErrorf("--task %q: no %s there or under %s/*/%s; name a task folder or a task of a suite", name, task.File, c.String("suites"), name)
		}
		dir = filepath.Dir(matches[0])
	}
	t, err := task.Load(dir)
	if err != nil {
		return nil, nil, usageErrorf("--task %s: %v", name, err)
	}
	i := t.Primary()
	if cn := c.String("task-config"); cn != "" {
		i = slices.IndexFunc(t.Configs, func(cf task.Config) bool { return cf.Name == cn })
		if i < 0 {
			var names []string
			for _, cf := range t.Configs {
				names = append(names, cf.Name)
			}
			return nil, nil, usageErrorf("--task-config %q: task %s has configurations %s", cn, t.Name, strings.Join(names, ", "))
		}
	}
	r, err := t.Resolve(i)
	if err != nil {
		return nil, nil, usageErrorf("--task %s: configuration %s: %v", t.Name, t.Configs[i].Name, err)
	}
	merged := map[string]int64{}
	for k, v := range r.Env {
		merged[k] = v
	}
	for k, v := range sizes {
		merged[k] = v
	}
	if len(t.Variants) == 0 {
		return nil, nil, fmt.Errorf("--task %s: no variants/*.cu in %s", t.Name, dir)
	}
	return t.Variants, merged, nil
}
