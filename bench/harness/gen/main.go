// Command gen writes the programs the evaluator generates for a task (the
// shared header, the reference program's main, the driver) with the task's
// reference.c beside them, for the configurations a profile runs: to read
// what a candidate is run by, or to build and time the reference program
// alone (bench/ref-time.sh).
//
//	go run ./bench/harness/gen -profile rl -out /tmp/progs bench/suites/c2cuda/vector_add ...
//
// Each task's files go to OUT/NAME/; build the reference there with
// `cc -O2 -I . -c ref_main.c && cc -O2 -I . -c reference.c && cc -o ref
// ref_main.o reference.o -lm -pthread` (the evaluator's commands, bench/nvcc)
// and run it as `./ref DATA_DIR RECORDS SEED_A SEED_B`.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/harness"
	"github.com/cudaperf/cudaperf/bench/task"
)

func main() {
	profile := flag.String("profile", string(bench.ProfileReport), "the profile whose configurations to generate: report or rl")
	out := flag.String("out", "", "the folder to write each task's programs into (OUT/NAME/)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./bench/harness/gen [-profile rl] -out DIR TASK_DIR...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*out, bench.Profile(*profile), flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string, profile bench.Profile, dirs []string) error {
	prof, err := bench.ParseProfile(string(profile))
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		t, err := task.Load(dir)
		if err != nil {
			return err
		}
		if t, err = bench.SelectConfigs(t, prof, nil); err != nil {
			return err
		}
		src, err := harness.Generate(t)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, t.Name)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		ref, err := os.ReadFile(t.Reference)
		if err != nil {
			return err
		}
		files := src.Files()
		files["reference.c"] = string(ref)
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dst, name), []byte(text), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
