package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// MaxOutput bounds the captured stdout+stderr; the tail is kept.
const MaxOutput = 64 << 10

// outputGrace is how long output is still read after the program exited
// (a variable for the test).
var outputGrace = 5 * time.Second

// Cmd is a program to run.
type Cmd struct {
	Path    string
	Args    []string
	Dir     string
	Env     []string      // nil: inherit
	Timeout time.Duration // wall-time limit; 0 means none
	// Paused, if set, says how long the program has waited so far for
	// something outside its control (the GPU gate); that time does not
	// count towards Timeout.
	Paused func() time.Duration
	// Stop, when closed, kills the program as the time limit does (the
	// outcome says TimedOut): for a caller with a finer limit than Timeout.
	// StopWhy, if set, says which limit that was (Outcome.Why).
	Stop    <-chan struct{}
	StopWhy func() string
	// ExtraFiles become the program's fds 3, 4, ... (bench/sandbox passes
	// its records pipe and control socket this way).
	ExtraFiles []*os.File
}

// Outcome is how the program ended.
type Outcome struct {
	ExitCode int           // -1 when killed by a signal
	Signal   string        // the signal that ended it, if any
	TimedOut bool          // killed at the wall-time limit
	Wall     time.Duration // time from start to exit
	Paused   time.Duration // of Wall, the time not counted (Cmd.Paused)
	Why      string        // for a program stopped through Cmd.Stop: the limit it exceeded (Cmd.StopWhy)
	// StartMono and EndMono are CLOCK_MONOTONIC just before the start and
	// just after the end, the clock a C program reads with clock_gettime:
	// with a time the program reports, they split Wall into what came
	// before the program's main and after its last word.
	StartMono, EndMono time.Duration
	// UserCPU and SysCPU are the CPU time the program (and the children it
	// waited for) spent in user space and in the kernel: what one candidate
	// costs a machine whose cores are shared with compiles.
	UserCPU, SysCPU time.Duration
	Output          string // tail of stdout and stderr, interleaved
}

// OK reports whether the program exited 0 by itself.
func (o *Outcome) OK() bool { return o.ExitCode == 0 && !o.TimedOut }

// Describe says in words how the program ended.
func (o *Outcome) Describe() string {
	switch {
	case o.TimedOut && o.Why != "":
		return o.Why
	case o.TimedOut:
		if o.Paused > 0 {
			return fmt.Sprintf("killed after the %s wall-time limit (not counting %s waiting for the GPU)", (o.Wall - o.Paused).Round(time.Millisecond), o.Paused.Round(time.Millisecond))
		}
		return fmt.Sprintf("killed after the %s wall-time limit", o.Wall.Round(time.Millisecond))
	case o.Signal != "":
		return "crashed: " + o.Signal
	case o.ExitCode != 0:
		return fmt.Sprintf("exited with status %d", o.ExitCode)
	}
	return "ok"
}

// Run starts c and waits for it. The error is only for a program that
// could not be started; a crash or a timeout is in the Outcome.
func Run(ctx context.Context, c Cmd) (*Outcome, error) {
	if c.Timeout > 0 && c.Paused == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Dir, cmd.Env, cmd.ExtraFiles = c.Dir, c.Env, c.ExtraFiles
	out := &tailBuffer{max: MaxOutput}
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group, so that killing it reaches every child.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A child that left the group (setsid) and still holds the output
	// pipe would keep Wait, and so the caller, waiting as long as it
	// lives: once the program has exited, its output is read for at
	// most this long.
	cmd.WaitDelay = outputGrace
	startMono := monotonic()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("runner: start %s: %w", c.Path, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	timedOut, why := false, ""
	// With Paused, the limit moves by the time paused: the timer is
	// re-armed for what is left until the time counted reaches Timeout.
	var expired chan struct{}
	if c.Timeout > 0 && c.Paused != nil {
		expired = make(chan struct{})
		stop := make(chan struct{})
		defer close(stop)
		left := func() time.Duration { return c.Timeout - (time.Since(start) - c.Paused()) }
		go func() {
			t := time.NewTimer(left())
			defer t.Stop()
			for {
				select {
				case <-t.C:
					if l := left(); l > 0 {
						t.Reset(l)
						continue
					}
					close(expired)
					return
				case <-stop:
					return
				}
			}
		}()
	}
	select {
	case err = <-done:
	case <-expired:
		timedOut = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	case <-c.Stop:
		timedOut = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
		if c.StopWhy != nil {
			why = c.StopWhy()
		}
	case <-ctx.Done():
		timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	// Reap helpers the program left behind in its group.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	o := &Outcome{Wall: time.Since(start), TimedOut: timedOut, Why: why, Output: out.String(), StartMono: startMono, EndMono: monotonic()}
	if c.Paused != nil {
		o.Paused = c.Paused()
	}
	if cmd.ProcessState != nil {
		o.ExitCode = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			o.Signal = ws.Signal().String()
		}
		o.UserCPU, o.SysCPU = cmd.ProcessState.UserTime(), cmd.ProcessState.SystemTime()
	}
	var exitErr *exec.ExitError
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // it exited (ProcessState says how); only its leftover output was cut
	}
	if err != nil && !errors.As(err, &exitErr) {
		return o, fmt.Errorf("runner: wait %s: %w", c.Path, err)
	}
	if !timedOut && ctx.Err() != nil {
		return o, fmt.Errorf("runner: %s: %w", c.Path, ctx.Err())
	}
	return o, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped bool
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.buf.Len() > 2*t.max {
		b := t.buf.Bytes()
		keep := append([]byte(nil), b[len(b)-t.max:]...)
		t.buf.Reset()
		t.buf.Write(keep)
		t.dropped = true
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf.Bytes()
	if len(b) > t.max {
		b = b[len(b)-t.max:]
		t.dropped = true
	}
	if t.dropped {
		return "[... earlier output dropped ...]\n" + string(b)
	}
	return string(b)
}

// monotonic reads CLOCK_MONOTONIC (0 where it cannot).
func monotonic() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
