// Command cudaperf is a toolchain extension for CUDA: it analyzes kernels
// (lint, features), benchmarks them on a GPU, ranks them with a learned
// structural score, and trains kernel-writing policies with GRPO. Work is done
// by out-of-process plugins that the host discovers and manages.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/host/pluginhost"
)

// Set by the linker: -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(run(os.Args))
}

// signalGrace is how long a command may take to wind down after SIGINT or
// SIGTERM before the process exits anyway.
const signalGrace = 3 * time.Second

func run(args []string) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		s := <-sigs
		cancel(fmt.Errorf("interrupted by %v", s))
		// Plugins run in their own process group, so the signal did not
		// reach them: stop them here, then give the command a moment.
		pluginhost.KillAll()
		time.Sleep(signalGrace)
		fmt.Fprintf(os.Stderr, "cudaperf: interrupted by %v\n", s)
		os.Exit(exitCode(failuref("interrupted")))
	}()

	if len(args) > 1 && isCompilerCommand(args[1:]) {
		code := runLauncher(ctx, args[1:], os.Stderr)
		pluginhost.KillAll()
		return code
	}
	err := newApp().RunContext(ctx, args)
	pluginhost.KillAll() // the one cleanup on exit, whatever the command did
	if cause := context.Cause(ctx); cause != nil {
		// Whatever the command reported, the reason it stopped is the signal.
		err = failuref("%v", cause)
	}
	code := exitCode(err)
	if err != nil && err.Error() != "" {
		fmt.Fprintf(os.Stderr, "cudaperf: %v\n", err)
	}
	return code
}

// newApp builds the CLI. Each command lives in its own file as
// func <name>Command() *cli.Command and is listed here, in help order.
func newApp() *cli.App {
	app := &cli.App{
		Name:  "cudaperf",
		Usage: "analyze, benchmark, rank and learn CUDA kernels",
		Description: "cudaperf parses CUDA with a real grammar, computes structural performance\n" +
			"features and diagnostics, benchmarks candidates on a GPU, and scores them.\n" +
			"Analyzers, benchmarkers and policies are plugins (separate processes) found\n" +
			"in --plugin-dir, $CUDAPERF_PLUGIN_PATH and <dir of cudaperf>/plugins.\n\n" +
			"Exit codes: 0 ok, 1 findings, 2 usage or configuration error, 3 tool or plugin failure.",
		Version:              version,
		HideVersion:          true,
		EnableBashCompletion: true,
		Flags:                globalFlags(),
		Commands: []*cli.Command{
			lintCommand(),
			featuresCommand(),
			explainCommand(),
			parseCommand(),
			benchCommand(),
			datasetCommand(),
			rankCommand(),
			trainCommand(),
			evalCommand(),
			sftCommand(),
			ablateCommand(),
			pluginsCommand(),
			versionCommand(),
			// Commands are added here as they land.
		},
		ExitErrHandler: func(*cli.Context, error) {}, // run() owns printing and exit codes
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageErrorf("%v (see 'cudaperf --help')", err)
		},
		Action: unknownCommand(""),
	}
	usageErrors(app.Commands, "", app.Flags)
	return app
}

// usageErrors makes every usage mistake under cmds exit 2 with one line
// that names the command and where its help is, rather than urfave/cli's
// defaults: exit 3 with the whole help on stdout (where it ends up in a
// redirected JSON or SARIF file). It covers bad flags, missing required
// flags (checked here, as urfave/cli's own check prints the help first),
// unknown subcommands, and flags given after the arguments (urfave/cli
// stops at the first argument, so the flag would be taken for a file).
func usageErrors(cmds []*cli.Command, parent string, global []cli.Flag) {
	for _, c := range cmds {
		path := strings.TrimSpace(parent + " " + c.Name) // "rank train"
		c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
			return usageErrorf("%s: %v (see 'cudaperf %s --help')", path, err, path)
		}
		if len(c.Subcommands) > 0 {
			usageErrors(c.Subcommands, path, global)
			if c.Action == nil { // a group: nothing of its own to check
				c.Action = unknownCommand(path)
				continue
			}
		}
		var required []string
		for _, f := range c.Flags {
			if r, ok := f.(cli.RequiredFlag); ok && r.IsRequired() {
				required = append(required, f.Names()[0])
				notRequired(f)
			}
		}
		known := map[string]bool{}
		for _, f := range append(append([]cli.Flag{}, c.Flags...), global...) {
			for _, n := range f.Names() {
				known[n] = true
			}
		}
		before := c.Before
		c.Before = func(ctx *cli.Context) error {
			if ctx.Args().Present() && c.Command(ctx.Args().First()) != nil {
				return nil // the subcommand checks its own
			}
			if c.ArgsUsage == " " && ctx.Args().Present() {
				// A command that takes no arguments ignored them (version x).
				hint := argsHint[path]
				if hint == "" && hasSubcommands(c) {
					return usageErrorf("%s: no command %q (see 'cudaperf %s --help')", path, ctx.Args().First(), path)
				}
				if hint == "" {
					hint = "give what they meant with flags"
				}
				return usageErrorf("%s takes no arguments, got %q: %s (see 'cudaperf %s --help')", path, ctx.Args().Slice(), hint, path)
			}
			for _, n := range required {
				if !ctx.IsSet(n) {
					return usageErrorf("%s needs --%s (see 'cudaperf %s --help')", path, n, path)
				}
			}
			for _, a := range ctx.Args().Slice() {
				if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && known[name] {
					return usageErrorf("%s: flag %s comes after the arguments, where it would be read as one: put flags first (see 'cudaperf %s --help')", path, a, path)
				}
			}
			if before != nil {
				return before(ctx)
			}
			return nil
		}
	}
}

// argsHint says what a command that takes no arguments reads instead.
var argsHint = map[string]string{
	"bench": "select tasks with --suite and --task, candidates with --candidate (or run a command: bench report)",
}

// hasSubcommands reports whether c has subcommands of its own (urfave/cli
// adds a help command to some).
func hasSubcommands(c *cli.Command) bool {
	return slices.ContainsFunc(c.Subcommands, func(s *cli.Command) bool { return s.Name != "help" })
}

// notRequired turns off urfave/cli's own check of a required flag, which
// usageErrors makes instead; a required flag of another type is a
// programming error that TestUsageErrors finds.
func notRequired(f cli.Flag) {
	switch f := f.(type) {
	case *cli.StringFlag:
		f.Required = false
	case *cli.StringSliceFlag:
		f.Required = false
	case *cli.IntFlag:
		f.Required = false
	case *cli.PathFlag:
		f.Required = false
	default:
		panic(fmt.Sprintf("cudaperf: required flag %s of type %T: add it to notRequired", f.Names()[0], f))
	}
}

// unknownCommand is the action of a command that only groups others (path
// "" is cudaperf itself): with no argument it shows its help, with one it
// says the command does not exist (urfave/cli's own answer is "No help
// topic", exit 3).
func unknownCommand(path string) cli.ActionFunc {
	return func(ctx *cli.Context) error {
		if !ctx.Args().Present() {
			if path == "" {
				return cli.ShowAppHelp(ctx)
			}
			return cli.ShowSubcommandHelp(ctx)
		}
		if path == "" {
			return usageErrorf("no command %q (see 'cudaperf --help')", ctx.Args().First())
		}
		return usageErrorf("%s: no command %q (see 'cudaperf %s --help')", path, ctx.Args().First(), path)
	}
}

func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "log-level", Value: "warn", Usage: "log verbosity: `LEVEL` is debug, info, warn or error", EnvVars: []string{"CUDAPERF_LOG_LEVEL"}},
		&cli.StringSliceFlag{Name: "plugin-dir", Usage: "search `DIR` for plugins first (repeatable); then $" + pluginhost.PathEnv + " and <dir of cudaperf>/plugins"},
		pluginsFlag(), noPluginsFlag(),
		&cli.DurationFlag{Name: "plugin-timeout", Value: pluginhost.DefaultRequestTimeout, Usage: "fail a plugin request that takes longer than `DURATION` (and stop the plugin)"},
		&cli.DurationFlag{Name: "policy-timeout", Value: pluginhost.DefaultPolicyTimeout, Usage: "fail a policy's generate, update, save or load request that takes longer than `DURATION` (a model on a CPU takes minutes; --plugin-timeout covers the rest)"},
		&cli.DurationFlag{Name: "plugin-start-timeout", Value: pluginhost.DefaultStartTimeout, Usage: "fail a plugin that is not ready within `DURATION`"},
	}
}

// The plugin choice is a global flag and also one of lint and features, so
// that both `cudaperf --no-plugins x lint` and `cudaperf lint --no-plugins x`
// work.
func pluginsFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "plugins", Usage: "use only the plugins named `NAME[,NAME...]` (default: every installed plugin, or plugins.enable in .cudaperf.yaml); the others are not started"}
}

func noPluginsFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "no-plugins", Usage: "do not use (or start) the plugins named `NAME[,NAME...]`, e.g. --no-plugins synccount-py"}
}
