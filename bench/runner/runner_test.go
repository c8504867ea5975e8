package runner

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestExit(t *testing.T) {
	o, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "echo out; echo err >&2; exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.OK() || o.ExitCode != 3 || !strings.Contains(o.Output, "out") || !strings.Contains(o.Output, "err") {
		t.Errorf("outcome %+v", o)
	}
	if o.Describe() != "exited with status 3" {
		t.Errorf("Describe = %q", o.Describe())
	}
	// The monotonic stamps bracket the run (a C program's clock_gettime
	// reading inside it falls between them).
	if o.StartMono <= 0 || o.EndMono-o.StartMono < o.Wall {
		t.Errorf("monotonic stamps %v..%v do not bracket the %v run", o.StartMono, o.EndMono, o.Wall)
	}
}

// TestTimeoutKillsGroup checks that a hung program and the child it forked
// are both killed at the limit, and that the next run is unaffected.
func TestTimeoutKillsGroup(t *testing.T) {
	start := time.Now()
	o, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "sleep 30 & sleep 30; echo never"}, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !o.TimedOut || o.OK() || strings.Contains(o.Output, "never") {
		t.Errorf("outcome %+v", o)
	}
	// Wait would block on the background sleep's open stdout if the group
	// survived; returning at all shows it was killed.
	if time.Since(start) > 20*time.Second {
		t.Errorf("Run returned after %s; the child outlived the kill", time.Since(start))
	}
	o, err = Run(context.Background(), Cmd{Path: "/bin/true"})
	if err != nil || !o.OK() {
		t.Errorf("next run: %v %+v", err, o)
	}
}

// TestEscapedChildDoesNotHoldRun: a program that exits leaving a child in
// a session of its own (out of reach of the group kill) with the output
// pipe open is over once outputGrace has passed, not when the child ends.
func TestEscapedChildDoesNotHoldRun(t *testing.T) {
	defer func(g time.Duration) { outputGrace = g }(outputGrace)
	outputGrace = 200 * time.Millisecond
	start := time.Now()
	o, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "setsid sleep 20 & echo left"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Run returned after %s: the escaped child held it", took)
	}
	if o == nil || o.TimedOut || !strings.Contains(o.Output, "left") {
		t.Errorf("outcome %+v; want the program's own exit and output", o)
	}
}

func TestCrash(t *testing.T) {
	o, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "kill -SEGV $$"}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Signal == "" || !strings.HasPrefix(o.Describe(), "crashed") {
		t.Errorf("outcome %+v", o)
	}
}

func TestMissingProgram(t *testing.T) {
	if _, err := Run(context.Background(), Cmd{Path: "/nonexistent/prog"}); err == nil {
		t.Error("no error for a missing program")
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 10}
	for i := 0; i < 100; i++ {
		b.Write([]byte("0123456789"))
	}
	b.Write([]byte("END"))
	s := b.String()
	if !strings.HasSuffix(s, "3456789END") || !strings.HasPrefix(s, "[...") {
		t.Errorf("tail = %q", s)
	}
}

// TestPausedTimeIsNotCounted checks that time the program spends waiting
// for the GPU gate (Cmd.Paused) extends its limit, and that the limit still
// applies to the rest.
func TestPausedTimeIsNotCounted(t *testing.T) {
	start := time.Now()
	// Paused for everything but the first 100 ms: only 0.1 s counts.
	paused := func() time.Duration { return max(0, time.Since(start)-100*time.Millisecond) }
	o, err := Run(context.Background(), Cmd{Path: "/bin/sleep", Args: []string{"0.8"}, Timeout: 400 * time.Millisecond, Paused: paused})
	if err != nil {
		t.Fatal(err)
	}
	if !o.OK() || o.Paused < 500*time.Millisecond {
		t.Errorf("a program that waited most of its time was judged on it: %+v (%s)", o, o.Describe())
	}
	// Nothing paused: the same program is killed at the limit.
	o, err = Run(context.Background(), Cmd{Path: "/bin/sleep", Args: []string{"5"}, Timeout: 300 * time.Millisecond,
		Paused: func() time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	if !o.TimedOut || o.Wall > 3*time.Second {
		t.Errorf("not killed at the limit: %+v", o)
	}
}

// TestStop: closing Cmd.Stop kills the program as the time limit would.
func TestStop(t *testing.T) {
	stop := make(chan struct{})
	time.AfterFunc(100*time.Millisecond, func() { close(stop) })
	o, err := Run(context.Background(), Cmd{Path: "/bin/sleep", Args: []string{"30"}, Timeout: time.Minute, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if !o.TimedOut || o.OK() || o.Wall > 20*time.Second {
		t.Errorf("outcome %+v: want killed as timed out, long before the sleep ends", o)
	}
}

// TestStopWhy: a caller's StopWhy becomes the outcome's description.
func TestStopWhy(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	o, err := Run(context.Background(), Cmd{Path: "/bin/sleep", Args: []string{"30"}, Stop: stop,
		StopWhy: func() string { return "configuration large did not finish within its 6s" }})
	if err != nil {
		t.Fatal(err)
	}
	if !o.TimedOut || o.Describe() != "configuration large did not finish within its 6s" {
		t.Errorf("outcome %+v, description %q", o, o.Describe())
	}
}

// TestCPUTime checks that a program's CPU time is reported: a busy loop
// spends user time, and sleeping adds none (CPU is not wall time).
func TestCPUTime(t *testing.T) {
	o, err := Run(context.Background(), Cmd{Path: "/bin/sh", Args: []string{"-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 0.3"}})
	if err != nil {
		t.Fatal(err)
	}
	cpu := o.UserCPU + o.SysCPU
	if o.UserCPU <= 0 || cpu >= o.Wall {
		t.Errorf("user %v sys %v over a %v run: want some user time and less CPU than wall time (it slept 0.3 s)", o.UserCPU, o.SysCPU, o.Wall)
	}
}
