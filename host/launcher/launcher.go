package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// Invocation is what the launcher learned from a compiler command line.
type Invocation struct {
	// Command is the command to execute unchanged (compiler or wrapper first).
	Command []string
	// Compiler is the real compiler (after wrappers such as ccache).
	Compiler string
	// Sources are the CUDA translation units being compiled, as given.
	Sources []string
	// Arch is the first real GPU architecture named (e.g. "sm_90"), or "".
	Arch string
	// Defines and IncludeDirs from -D and -I/-isystem, for analyses that want them.
	Defines     []string
	IncludeDirs []string
	// TryCompile is true for CMake's probe builds, which are never linted.
	TryCompile bool
}

// wrappers are launchers that may sit between cudaperf and the compiler.
var wrappers = map[string]bool{"ccache": true, "sccache": true, "buildcache": true, "distcc": true}

// IsCompilerCommand reports whether argv (cudaperf's arguments without the
// program name) looks like a compiler command handed over by a build system
// rather than a cudaperf subcommand: its first word is an executable path or
// the name of nvcc or of a known compiler wrapper.
func IsCompilerCommand(args []string, isSubcommand func(string) bool) bool {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || isSubcommand(args[0]) {
		return false
	}
	base := filepath.Base(args[0])
	if wrappers[base] || strings.Contains(base, "nvcc") {
		return true
	}
	if filepath.IsAbs(args[0]) || strings.ContainsRune(args[0], filepath.Separator) {
		st, err := os.Stat(args[0])
		return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
	}
	return false
}

// Parse reads a compiler command line. cwd is the directory the command runs
// in; CMake runs its try-compile probes under CMakeFiles/CMakeScratch (CMake
// ≥ 3.24) or CMakeFiles/CMakeTmp (older).
func Parse(command []string, cwd string) Invocation {
	inv := Invocation{Command: command}
	i := 0
	for i < len(command) && wrappers[filepath.Base(command[i])] {
		i++
	}
	if i < len(command) {
		inv.Compiler = command[i]
		i++
	}
	slash := filepath.ToSlash(cwd)
	inv.TryCompile = strings.Contains(slash, "/CMakeFiles/CMakeScratch/") ||
		strings.Contains(slash, "/CMakeFiles/CMakeTmp")
	lang := "" // value of the last -x
	for ; i < len(command); i++ {
		a := command[i]
		next := func() string {
			if i+1 < len(command) {
				i++
				return command[i]
			}
			return ""
		}
		switch {
		case a == "-x" || a == "--x":
			lang = next()
		case strings.HasPrefix(a, "-x") && len(a) > 2 && !strings.HasPrefix(a, "-x="):
			lang = a[2:]
		case a == "-D" || a == "--define-macro":
			inv.Defines = append(inv.Defines, next())
		case strings.HasPrefix(a, "-D"):
			inv.Defines = append(inv.Defines, a[2:])
		case a == "-I" || a == "-isystem" || a == "--include-path":
			inv.IncludeDirs = append(inv.IncludeDirs, next())
		case strings.HasPrefix(a, "-I"):
			inv.IncludeDirs = append(inv.IncludeDirs, a[2:])
		case a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ" || a == "-ccbin" || a == "--compiler-bindir" ||
			a == "-Xcompiler" || a == "-Xptxas" || a == "-Xlinker" || a == "-optf" || a == "--options-file" ||
			a == "-include" || a == "-odir":
			next() // flags whose value is a separate word that is not a source
		case a == "-arch" || a == "--gpu-architecture" || a == "-code" || a == "--gpu-code":
			inv.noteArch(next())
		case strings.HasPrefix(a, "-arch=") || strings.HasPrefix(a, "--gpu-architecture="):
			inv.noteArch(a[strings.IndexByte(a, '=')+1:])
		case strings.HasPrefix(a, "--generate-code") || strings.HasPrefix(a, "-gencode"):
			v := a
			if !strings.Contains(a, "=") {
				v = next()
			}
			inv.noteArch(v)
		case strings.HasPrefix(a, "-"):
			// other flag with an attached value or none
		case strings.HasSuffix(a, ".cu") || lang == "cu" || lang == "cuda":
			inv.Sources = append(inv.Sources, a)
		}
	}
	return inv
}

// noteArch records the first concrete or virtual architecture in an nvcc
// architecture option ("sm_90", "compute_90",
// "arch=compute_90,code=[compute_90,sm_90]"); it is normalised to "sm_NN".
func (inv *Invocation) noteArch(v string) {
	if inv.Arch != "" {
		return
	}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune("=,[] ", r) }) {
		for _, p := range []string{"sm_", "compute_"} {
			if strings.HasPrefix(f, p) {
				digits := strings.TrimRight(strings.TrimPrefix(f, p), "af")
				if digits != "" && strings.Trim(digits, "0123456789") == "" {
					inv.Arch = "sm_" + digits
					return
				}
			}
		}
	}
}

// Exec runs the command unchanged, with the launcher's standard streams,
// forwarding SIGINT and SIGTERM, and returns its exit status (128+signal
// when it was killed by a signal, as a shell reports it).
func Exec(ctx context.Context, command []string) (int, error) {
	return ExecStderr(ctx, command, os.Stderr)
}

// ExecStderr is Exec with the command's standard error written to w (the
// launcher reads ptxas's report from it).
func ExecStderr(ctx context.Context, command []string, w io.Writer) (int, error) {
	if len(command) == 0 {
		return 2, errors.New("launcher: empty compiler command")
	}
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, w
	if err := cmd.Start(); err != nil {
		return 127, fmt.Errorf("launcher: cannot run %s: %w (is the compiler path right?)", command[0], err)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case s := <-sigs:
			_ = cmd.Process.Signal(s)
		case err := <-done:
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					return 128 + int(ws.Signal()), nil
				}
				return ee.ExitCode(), nil
			}
			if err != nil {
				return 1, fmt.Errorf("launcher: %s: %w", command[0], err)
			}
			return 0, nil
		}
	}
}

// Werror reports whether diagnostics should fail the build
// (CUDAPERF_WERROR=1, true, yes or on).
func Werror() bool {
	switch strings.ToLower(os.Getenv("CUDAPERF_WERROR")) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// PtxasVerbose returns the command with -Xptxas -v added when the compiler
// is nvcc and the command does not ask for ptxas's resource report already
// (-Xptxas -v, -Xptxas=-v, --resource-usage, --ptxas-options=-v): the
// compile then reports each kernel's registers, shared memory and spills,
// which the analysis uses instead of an estimate. added says whether it
// changed the command (the launcher then hides the report from the user).
func PtxasVerbose(inv Invocation) (command []string, added bool) {
	if filepath.Base(inv.Compiler) != "nvcc" {
		return inv.Command, false
	}
	for i, a := range inv.Command {
		switch {
		case a == "--resource-usage" || a == "-res-usage":
			return inv.Command, false
		case (a == "-Xptxas" || a == "--ptxas-options") && i+1 < len(inv.Command) && hasVerbose(inv.Command[i+1]):
			return inv.Command, false
		case (strings.HasPrefix(a, "-Xptxas=") || strings.HasPrefix(a, "--ptxas-options=")) && hasVerbose(a[strings.IndexByte(a, '=')+1:]):
			return inv.Command, false
		}
	}
	return append(slices.Clone(inv.Command), "-Xptxas", "-v"), true
}

func hasVerbose(opts string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == "-v" || o == "--verbose" {
			return true
		}
	}
	return false
}

// SplitPtxas separates the lines of ptxas's resource report ("ptxas info
// : ..." and the "N bytes stack frame, ..." lines under them) from the
// rest of a compiler's standard error.
func SplitPtxas(log string) (ptxas, rest string) {
	var p, r strings.Builder
	for _, line := range strings.SplitAfter(log, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "ptxas info") || strings.Contains(t, "bytes stack frame") && strings.Contains(t, "spill") {
			p.WriteString(line)
		} else {
			r.WriteString(line)
		}
	}
	return p.String(), r.String()
}
