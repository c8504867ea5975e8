package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// EnvVisibleDevices is CUDA's device filter; the evaluator honours it.
const EnvVisibleDevices = "CUDA_VISIBLE_DEVICES"

// Worker is one GPU that runs candidates: Slots candidate processes at a
// time, whose timed calls its Gate keeps apart.
type Worker struct {
	Index   int          // NVML index, for device records and clock sampling; -1 when unknown
	Visible string       // what the candidate's CUDA_VISIBLE_DEVICES is set to, so it sees this GPU alone
	Info    *device.Info // nil when NVML does not know the device
	Gate    *Gate        // set by the evaluator
}

// env is the candidate process's environment: this worker's GPU only.
// A nil worker inherits the evaluator's environment.
func (w *Worker) env() []string {
	if w == nil || w.Visible == "" {
		return nil
	}
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, EnvVisibleDevices+"=") {
			out = append(out, kv)
		}
	}
	return append(out, EnvVisibleDevices+"="+w.Visible)
}

// candidateEnv is the environment of a candidate process on worker w in
// profile p (nil: inherit this process's).
func candidateEnv(w *Worker, p Profile) []string {
	env := w.env()
	if _, set := os.LookupEnv(EnvMaxConnections); p != ProfileRL || set {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	return append(env, EnvMaxConnections+"=1")
}

func (w *Worker) String() string {
	if w.Info != nil {
		return fmt.Sprintf("GPU %d (%s)", w.Index, w.Info.Name)
	}
	return "GPU " + w.Visible
}

// VisibleWorkers returns one worker per GPU the process may use: every GPU
// NVML lists, or those CUDA_VISIBLE_DEVICES names (by index or UUID
// prefix, as CUDA reads it; set but empty means none). A name NVML does not
// know (a MIG instance, or a GPU hidden from NVML) is kept as a worker
// without device information: CUDA decides what it is.
func VisibleWorkers(gpus []*device.Info, visible string, set bool) ([]*Worker, error) {
	if !set {
		out := make([]*Worker, len(gpus))
		for i, g := range gpus {
			out[i] = &Worker{Index: g.Index, Visible: strconv.Itoa(g.Index), Info: g}
		}
		return out, nil
	}
	var out []*Worker
	seen := map[string]bool{}
	for _, tok := range strings.Split(visible, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			continue
		}
		if seen[tok] {
			return nil, fmt.Errorf("bench: %s=%q names %s twice", EnvVisibleDevices, visible, tok)
		}
		seen[tok] = true
		w := &Worker{Index: -1, Visible: tok}
		if n, err := strconv.Atoi(tok); err == nil {
			if n < 0 {
				break // CUDA stops at the first invalid ordinal
			}
			for _, g := range gpus {
				if g.Index == n {
					w.Index, w.Info = n, g
				}
			}
			if w.Info == nil && len(gpus) > 0 {
				return nil, fmt.Errorf("bench: %s=%q names GPU %d, but this machine has %d (numbered from 0)", EnvVisibleDevices, visible, n, len(gpus))
			}
		} else {
			for _, g := range gpus {
				if g.UUID != "" && strings.HasPrefix(g.UUID, tok) {
					w.Index, w.Info = g.Index, g
				}
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// EnvSlots sets how many candidate processes share one GPU at a time when
// the evaluator's options leave it at 0.
const EnvSlots = "CUDAPERF_GPU_SLOTS"

// DefaultSlots is the candidate processes per GPU: enough that one's
// context creation, copies and checks hide behind the others' (measured
// on the H200 machine: bench/RESULTS.md).
const DefaultSlots = 8

// EnvPrestart sets EvaluatorOptions.Prestart when the options leave it
// at 0.
const EnvPrestart = "CUDAPERF_GPU_PRESTART"

// DefaultPrestart is the candidate processes per GPU started ahead of a
// free slot.
const DefaultPrestart = 0

// pool hands out worker slots: a candidate takes a free one, runs, and
// gives it back, so candidates spread over every GPU, each GPU running up
// to its slot count at once; the worker's Gate serializes their timings.
// With prestart, each GPU has that many more process slots, and its Gate
// lets only slots of the processes past their start-up work at once.
type pool struct {
	free chan *Worker
	// ahead bounds the candidates that have done acquire's work ahead
	// and wait for a slot: one per slot, the next round of processes.
	ahead   chan struct{}
	waiting atomic.Int64 // candidates in acquire: built, their reference done
}

func newPool(ws []*Worker, slots, prestart int) *pool {
	if slots <= 0 {
		slots = 1
	}
	prestart = max(prestart, 0)
	n := len(ws) * (slots + prestart)
	p := &pool{free: make(chan *Worker, n), ahead: make(chan struct{}, n)}
	for _, w := range ws {
		if w.Gate == nil {
			w.Gate = &Gate{}
		}
		if prestart > 0 {
			w.Gate.work = make(chan struct{}, slots)
		}
	}
	// Round-robin, so that a few candidates still spread over every GPU.
	for range slots + prestart {
		for _, w := range ws {
			p.free <- w
		}
	}
	return p
}

// size is the number of slots.
func (p *pool) size() int { return cap(p.free) }

// backlogged reports whether as many candidates wait for a slot as there
// are slots: the GPUs' next round of processes is built and ready, and the
// compiles behind it are not yet needed (EnvCompileIdle's backlog).
func (p *pool) backlogged() bool { return p.waiting.Load() >= int64(p.size()) }

// acquire waits for a free slot. ahead, if not nil, is work to do before
// the candidate's process can start that need not hold a slot (writing its
// output files, Session.prepareOutDir): acquire does it while the
// candidate waits, once the candidate is among the next size() to be
// served (both queues are first come, first served), so that no more than
// a round of processes' worth of it is done ahead.
func (p *pool) acquire(ctx context.Context, ahead func()) (*Worker, error) {
	p.waiting.Add(1)
	defer p.waiting.Add(-1)
	if ahead != nil {
		select {
		case p.ahead <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		defer func() { <-p.ahead }()
		ahead()
	}
	select {
	case w := <-p.free:
		return w, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pool) release(w *Worker) { p.free <- w }
