package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hashicorp/go-hclog"

	"github.com/cudaperf/cudaperf/host/buildctx"
	"github.com/cudaperf/cudaperf/host/launcher"
	"github.com/cudaperf/cudaperf/host/lint"
	"github.com/cudaperf/cudaperf/host/pluginhost"
	"github.com/cudaperf/cudaperf/host/report"
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// isCompilerCommand tells launcher mode (`cudaperf nvcc -c k.cu …`, as CMake
// runs a CMAKE_CUDA_COMPILER_LAUNCHER) from an ordinary invocation.
func isCompilerCommand(args []string) bool {
	app := newApp()
	return launcher.IsCompilerCommand(args, func(name string) bool {
		return name == "help" || name == "h" || app.Command(name) != nil
	})
}

// runLauncher lints the CUDA sources of a compile command, prints the
// findings on stderr, then runs the command unchanged and returns its exit
// status. Linting never fails the build (a broken plugin is a warning line)
// unless CUDAPERF_WERROR=1 and a warning or error was found.
func runLauncher(ctx context.Context, command []string, stderr io.Writer) int {
	cwd, _ := os.Getwd()
	inv := launcher.Parse(command, cwd)
	if inv.TryCompile || len(inv.Sources) == 0 {
		code, err := launcher.ExecStderr(ctx, command, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "cudaperf: %v\n", err)
		}
		return code
	}
	// The compile runs first, with nvcc's ptxas report asked for: the
	// analysis then uses the real registers, shared memory and spills of
	// the compile that happens anyway. The report is hidden unless the
	// command asked for it.
	run, added := launcher.PtxasVerbose(inv)
	var log bytes.Buffer
	code, err := launcher.ExecStderr(ctx, run, &log)
	ptx, rest := launcher.SplitPtxas(log.String())
	if added {
		io.WriteString(stderr, rest)
	} else {
		stderr.Write(log.Bytes())
	}
	if err != nil {
		fmt.Fprintf(stderr, "cudaperf: %v\n", err)
	}
	found := launchLint(ctx, inv, stderr, ptx)
	if code == 0 && found > 0 && launcher.Werror() {
		fmt.Fprintf(stderr, "cudaperf: %d finding(s) and CUDAPERF_WERROR=1: failing the build\n", found)
		return 1
	}
	return code
}

// launchLint returns the number of warnings and errors it printed.
func launchLint(ctx context.Context, inv launcher.Invocation, stderr io.Writer, ptxasLog string) int {
	warn := func(format string, args ...any) {
		fmt.Fprintf(stderr, "cudaperf: warning: "+format+" (the build goes on)\n", args...)
	}
	cfg, err := loadConfig("", filepath.Dir(inv.Sources[0]))
	if err != nil {
		warn("%v", err)
		return 0
	}
	inputs, inErrs := lint.Collect(inv.Sources, cfg)
	for _, e := range inErrs {
		warn("%v", e)
	}
	if len(inputs) == 0 {
		return 0
	}
	target, err := targetDevice(inv.Arch)
	if err != nil {
		warn("%v", err)
		return 0
	}
	exe, _ := os.Executable()
	dirs, err := pluginhost.SearchPath(nil, os.Getenv(pluginhost.PathEnv), exe)
	if err != nil {
		warn("%v", err)
		return 0
	}
	h, err := pluginhost.New(pluginhost.Options{Dirs: dirs,
		Logger: hclog.New(&hclog.LoggerOptions{Name: "cudaperf", Level: hclog.Warn, Output: stderr})})
	if err != nil {
		warn("%v", err)
		return 0
	}
	defer h.Close()
	if err := h.Select(cfg.Plugins.Enable, cfg.Plugins.Disable); err != nil { // the config's choice, as for every command
		warn("plugins: in %s: %v", cfg.Path, err)
		return 0
	}
	// The checks lint validates: a mistyped check or an option out of range
	// was used in builds without a word (lint refuses the same file).
	if err := checkConfig(ctx, h.OfKind(sdk.KindAnalyzer), cfg, h.LeftOutOfKind(sdk.KindAnalyzer)); err != nil {
		warn("%v", err)
	}
	var reports map[string]string
	if ptxasLog != "" && len(inputs) == 1 {
		// One translation unit per compile (what build systems run): the
		// report is that file's. With several, kernels could not be told
		// apart by file, so they keep the estimate.
		reports = map[string]string{inputs[0].Path: ptxasLog}
	}
	// nvcc's own flags, with include folders absolute: the analyzer plugin
	// runs in its own folder and reads the headers for their macros.
	flags := inv.Command
	if wd, err := os.Getwd(); err == nil {
		flags = buildctx.Absolute(flags, wd)
	}
	res := lint.Run(ctx, h, inputs, lint.Options{Config: cfg, Target: target, CompileFlags: flags, Ptxas: reports})
	for _, e := range append(res.PluginErrors, res.FileErrors...) {
		warn("%v", e)
	}
	if err := report.WriteText(stderr, res.Diagnostics); err != nil {
		warn("%v", err)
	}
	n := 0
	for _, d := range res.Diagnostics {
		if d.Severity.Rank() >= report.Warning.Rank() && cfg.Lint.FailOn != "never" {
			n++
		}
	}
	return n
}
