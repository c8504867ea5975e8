package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/cudaperf/cudaperf/bench/verdict"
)

// EnvCPUAccount names a file that an evaluator keeps up to date with where
// the CPU time of its process and the programs it ran went, by kind
// (cpuAccount), rewritten after every candidate. bench/gpu-rl.sh sets it:
// a batch's CPU besides the candidates and their compiles ("the rest",
// about a third of it on the H200 machine) was only ever a difference.
const EnvCPUAccount = "CUDAPERF_CPU_ACCOUNT"

// Kinds of work whose CPU an evaluator accounts for.
const (
	CPUCompileCUDA = "nvcc_compile" // candidates and the task's driver
	CPULinkCUDA    = "nvcc_link"    // candidates' executables (linked by g++ or nvcc: the name is the records')
	CPUCompileC    = "cc_compile"   // the task's reference program
	CPULinkC       = "cc_link"
	CPUReference   = "reference"  // the reference program's runs: inputs, outputs, timings
	CPUCandidate   = "candidate"  // candidate processes, every attempt (their children included)
	CPUProbe       = "probe"      // the machine check's CUDA program (its compile is nvcc's)
	CPUJudge       = "judge"      // judging: reading and comparing outputs (the evaluator's own threads: the judging one and its comparison parts')
	CPUScratch     = "scratch_rm" // removing a judged candidate's outputs (the evaluator's own thread)
	// CPUOutputsAhead: writing a candidate's output files while it waits
	// for a slot (Session.prepareOutDir; the evaluator's own thread).
	CPUOutputsAhead = "outputs_ahead"
)

// cpuAccount sums CPU time by kind. A nil *cpuAccount accounts for nothing.
type cpuAccount struct {
	path string
	mu   sync.Mutex
	sum  map[string]float64
	n    map[string]int
}

// newCPUAccount returns the account that EnvCPUAccount asks for, or nil.
func newCPUAccount() *cpuAccount {
	p := os.Getenv(EnvCPUAccount)
	if p == "" {
		return nil
	}
	return &cpuAccount{path: p, sum: map[string]float64{}, n: map[string]int{}}
}

func (a *cpuAccount) add(kind string, d time.Duration) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.sum[kind] += d.Seconds()
	a.n[kind]++
	a.mu.Unlock()
}

// parallel returns a verdict.Options.Parallel that runs each part on a
// goroutine of its own and accounts the parts' CPU time under kind (not
// as more items of it: the caller's measure counts the one); nil when
// there is no account.
func (a *cpuAccount) parallel(kind string) func(n int, part func(i int)) {
	if a == nil {
		return nil
	}
	return func(n int, part func(i int)) {
		cpu := make([]time.Duration, n)
		verdict.InParallel(n, func(i int) { cpu[i] = onThread(func() { part(i) }) })
		var sum time.Duration
		for _, d := range cpu {
			sum += d
		}
		a.mu.Lock()
		a.sum[kind] += sum.Seconds()
		a.mu.Unlock()
	}
}

// measure runs f and accounts its CPU time under kind: the CPU of the
// thread f runs on, which it keeps for the while, so that other goroutines'
// work is not counted.
func (a *cpuAccount) measure(kind string, f func()) {
	if a == nil {
		f()
		return
	}
	a.add(kind, onThread(f))
}

// onThread runs f on a thread of its own for the while and returns that
// thread's CPU time in f, so that other goroutines' work is not counted.
func onThread(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before := threadCPU()
	f()
	return threadCPU() - before
}

// accountReport is the file's content.
type accountReport struct {
	// Self is this process's CPU (all its threads): the evaluator's own
	// work, judging, the sandbox's supervisor, NVML sampling, the plugin's
	// RPCs. Children is every child it has waited for, with theirs.
	SelfUser, SelfSys         float64
	ChildrenUser, ChildrenSys float64
	// ByKind: the children by kind (their sum is at most Children; what
	// is missing ran without being accounted) and the evaluator's own
	// work where it is measured apart (kinds CPUScratch, CPUJudge).
	ByKind map[string]accountKind
}

type accountKind struct {
	Seconds float64
	N       int
}

// write rewrites the account's file (through a temporary file, so that a
// reader never sees half of one). Errors are ignored: it is a measurement.
func (a *cpuAccount) write() {
	if a == nil {
		return
	}
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	rep := accountReport{SelfUser: sec(self.Utime), SelfSys: sec(self.Stime),
		ChildrenUser: sec(kids.Utime), ChildrenSys: sec(kids.Stime), ByKind: map[string]accountKind{}}
	a.mu.Lock()
	for k, s := range a.sum {
		rep.ByKind[k] = accountKind{Seconds: s, N: a.n[k]}
	}
	data, _ := json.MarshalIndent(rep, "", "  ")
	tmp := a.path + ".tmp"
	if os.WriteFile(tmp, append(data, '\n'), 0o644) == nil {
		os.Rename(tmp, a.path)
	}
	a.mu.Unlock()
}

// toolKind is the kind of a compile or link: CUDA or C, and its product.
func toolKind(cuda bool, product string) string {
	switch {
	case cuda && filepath.Ext(product) == ".o":
		return CPUCompileCUDA
	case cuda:
		return CPULinkCUDA
	case filepath.Ext(product) == ".o":
		return CPUCompileC
	}
	return CPULinkC
}
