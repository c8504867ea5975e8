package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/host/grpo"
)

// TestUsageErrors: a usage mistake anywhere in the command tree exits 2
// with one line naming the command and its help, and prints nothing on
// stdout (where a redirected JSON or SARIF file would receive urfave/cli's
// help text).
func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"lint", "--bogus", "examples/"}, "lint: flag provided but not defined: -bogus (see 'cudaperf lint --help')"},
		{[]string{"rank", "train", "--bogus"}, "rank train: flag provided but not defined: -bogus (see 'cudaperf rank train --help')"},
		{[]string{"rank", "eval", "--side"}, "rank eval: flag needs an argument: -side"},
		{[]string{"rank", "train"}, "rank train needs --out (see 'cudaperf rank train --help')"},
		{[]string{"sft"}, "sft needs --out"},
		{[]string{"train"}, "train needs --config"},
		{[]string{"ablate", "plan", "--config", "a.yaml"}, "ablate plan needs --base"},
		{[]string{"bogus"}, `no command "bogus" (see 'cudaperf --help')`},
		{[]string{"rank", "bogus"}, `rank: no command "bogus" (see 'cudaperf rank --help')`},
		{[]string{"lint", "examples/kernels/saxpy.cu", "--format", "json"}, "lint: flag --format comes after the arguments"},
		{[]string{"parse", "f.cu", "--check"}, "parse: flag --check comes after the arguments"},
		{[]string{"lint", "f.cu", "--log-level=debug"}, "lint: flag --log-level=debug comes after"},
		{[]string{"plugins", "describe", "x", "--format", "json"}, "plugins describe: flag --format comes after"},
		{[]string{"version", "extra"}, `version takes no arguments, got ["extra"]`},
		{[]string{"dataset", "assign", "--dry-run", "--test", "1.5"}, "--test 1.5: give a fraction of all tasks, from 0 to 1"},
		{[]string{"dataset", "assign", "--dry-run", "--validation", "NaN"}, "--validation NaN: give a fraction"},
		{[]string{"dataset", "assign", "--dry-run", "--validation", "0.6", "--test", "0.5"}, "leave no share for train"},
		{[]string{"bench", "saxpy"}, `bench takes no arguments, got ["saxpy"]: select tasks with --suite and --task`},
		{[]string{"ablate", "nosuch"}, `ablate: no command "nosuch"`},
		{[]string{"bench", "--level", "2", "--task", "saxpy"}, "bench: --level goes with --kernelbench DIR"},
		{[]string{"bench", "--jobs", "-3", "--task", "saxpy"}, "bench: --jobs -3: give 1 or more"},
		{[]string{"bench", "--time-budget", "-1s", "--task", "saxpy"}, "bench: --time-budget -1s"},
		{[]string{"eval", "--policy", "replay", "--concurrency", "-1"}, "--concurrency -1: at least 1"},
		{[]string{"eval", "--policy", "replay", "--candidate-timeout", "-1s"}, "--candidate-timeout -1s: give a positive duration"},
		{[]string{"help", "nosuch"}, `No help topic for 'nosuch'`},
		{[]string{"--plugin-timeout", "0", "plugins", "list"}, "--plugin-timeout 0s: give a positive duration"},
		{[]string{"--policy-timeout", "-1s", "plugins", "list"}, "--policy-timeout -1s: give a positive duration"},
	}
	for _, c := range cases {
		var out, errw bytes.Buffer
		app := newApp()
		app.Writer, app.ErrWriter = &out, &errw
		err := app.RunContext(context.Background(), append([]string{"cudaperf"}, c.args...))
		if code := exitCode(err); code != exitUsage || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cudaperf %s: exit %d, error %v; want exit %d and %q", strings.Join(c.args, " "), code, err, exitUsage, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("cudaperf %s: stdout has %d bytes, want none:\n%.300s", strings.Join(c.args, " "), out.Len(), out.String())
		}
	}
}

// TestGroupHelp: a command that only groups others, given no subcommand,
// shows its help and succeeds, as before.
func TestGroupHelp(t *testing.T) {
	for _, args := range [][]string{{}, {"rank"}, {"dataset"}} {
		var out bytes.Buffer
		app := newApp()
		app.Writer = &out
		err := app.RunContext(context.Background(), append([]string{"cudaperf"}, args...))
		if err != nil || !strings.Contains(out.String(), "COMMANDS:") {
			t.Errorf("cudaperf %v: error %v, help:\n%.200s", args, err, out.String())
		}
	}
}

// TestBoolFlagsHaveNoPlaceholder: urfave/cli shows back-quoted text in a
// flag's usage as its value's placeholder, which a boolean flag has not
// (lint's help once read "--no-score cudaperf rank").
func TestBoolFlagsHaveNoPlaceholder(t *testing.T) {
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			for _, f := range c.Flags {
				if b, ok := f.(*cli.BoolFlag); ok && strings.Contains(b.Usage, "`") {
					t.Errorf("%s %s --%s: usage %q has a back-quoted placeholder", path, c.Name, b.Name, b.Usage)
				}
			}
			walk(path+" "+c.Name, c.Subcommands)
		}
	}
	walk("cudaperf", newApp().Commands)
}

// TestTrainHelpShowsDefaults: train's help says "defaults shown"; its
// run.yaml, read as a configuration, must be the defaults (it once said
// concurrency 8 where the default is 64, and left keys out).
func TestTrainHelpShowsDefaults(t *testing.T) {
	desc := trainCommand().Description
	start := strings.Index(desc, "  name: demo")
	end := strings.Index(desc, "\n\nOffline demo")
	if start < 0 || end < start {
		t.Fatalf("no run.yaml block in train's help:\n%s", desc)
	}
	var block []string
	for _, l := range strings.Split(desc[start:end], "\n") {
		block = append(block, strings.TrimPrefix(l, "  "))
	}
	shown, err := grpo.ParseConfig("help", []byte(strings.Join(block, "\n")))
	if err != nil {
		t.Fatalf("train's help block is not a valid run.yaml: %v\n%s", err, strings.Join(block, "\n"))
	}
	def, err := grpo.ParseConfig("default", []byte("name: demo\n"))
	if err != nil {
		t.Fatal(err)
	}
	if shown.Hash() != def.Hash() { // the whole configuration but candidate_timeout, tasks included
		a, _ := yaml.Marshal(shown)
		b, _ := yaml.Marshal(def)
		t.Errorf("train's help shows other values than the defaults:\nhelp:\n%s\ndefaults:\n%s", a, b)
	}
}

// TestTrainConfigErrorsExit2: what train refuses in the configuration
// itself is a usage error (exit 2) that names it: a task the side does
// not have, a policy left out by --no-plugins, and a resume with another
// setting (naming the key).
func TestTrainConfigErrorsExit2(t *testing.T) {
	root := t.TempDir()
	cfg := writeRunConfig(t, root, "bad", 1, "")
	editFile(t, cfg, "tasks: [", "tasks: [nosuch, ")
	if _, errOut, code := rlRun(t, "train", "--config", cfg); code != exitUsage || !strings.Contains(errOut, `task "nosuch" is not on the train side`) {
		t.Errorf("tasks: [nosuch]: exit %d, stderr:\n%s", code, errOut)
	}
	// A policy left out by --no-plugins is named as left out; it was
	// "not installed", which sends the user to reinstall it.
	if _, errOut, code := rlRun(t, "--no-plugins", "replay", "train", "--config", writeRunConfig(t, root, "leftout", 1, "")); code != exitUsage || !strings.Contains(errOut, `plugin "replay" is installed but left out by --plugins/--no-plugins`) {
		t.Errorf("--no-plugins replay: exit %d, stderr:\n%s", code, errOut)
	}
	cfg = writeRunConfig(t, root, "changed", 1, "")
	if out, errOut, code := rlRun(t, "train", "--config", cfg); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	editFile(t, cfg, "group: 8", "group: 4")
	if _, errOut, code := rlRun(t, "train", "--config", cfg, "--resume"); code != exitUsage || !strings.Contains(errOut, "group: 8, now 4") {
		t.Errorf("resume with group changed: exit %d, stderr:\n%s", code, errOut)
	}
}
