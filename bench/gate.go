package bench

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Gate lets several candidate processes share one GPU while no timed call
// overlaps other work: the driver holds the gate shared for its untimed
// work (context creation, copies, the seed-B call, reading outputs back)
// and exclusive for each configuration's timed calls. Candidates still run
// one per process; what overlaps is one candidate's set-up and checks with
// another's, never a timing with anything the evaluator started.
//
// The driver speaks over a socket given to it as a descriptor
// (sandbox.GateFD): it writes 'S' (shared) or 'X' (exclusive) and waits
// for one byte back; a new request first releases what it holds, and so
// does the end of the process. Time spent waiting is not charged to the
// candidate's time limit (runner.Cmd.Paused).
//
// What a gate cannot stop: GPU work that a candidate's own host code keeps
// running after it gave the gate up (a kernel left spinning on a stream of
// its own) overlaps the next timing. The report profile therefore holds the
// gate exclusive for a candidate's whole run; the RL profile accepts that
// risk for throughput (docs/sandbox.md).
//
// Timings go in phases: a pending timing blocks new shared holders (as a
// writer-preferring lock does), and when a timing ends, the timings
// already waiting go next, one after another, before shared work resumes.
// A sync.RWMutex lets the waiting shared holders in between, so every
// timing waited anew for their copies to drain: on the H200, with 8
// candidates, waits were 2.2 s of a 3.5 s process while the timings
// themselves summed to 60 ms per candidate.
type Gate struct {
	// work, when not nil, bounds the processes past their start-up: a
	// driver asks for one ('W') once its CUDA context and host buffers are
	// made, so that processes started ahead (pre-started) make theirs
	// while others work (see EvaluatorOptions.Prestart).
	work chan struct{}

	mu       sync.Mutex
	cond     sync.Cond // on mu
	readers  int       // shared holders
	writer   bool      // an exclusive holder
	waitingX int       // exclusive requests waiting
}

func (g *Gate) init() {
	if g.cond.L == nil {
		g.cond.L = &g.mu
	}
}

func (g *Gate) lockShared() {
	g.mu.Lock()
	g.init()
	for g.writer || g.waitingX > 0 {
		g.cond.Wait()
	}
	g.readers++
	g.mu.Unlock()
}

func (g *Gate) unlockShared() {
	g.mu.Lock()
	g.readers--
	if g.readers == 0 {
		g.init()
		g.cond.Broadcast()
	}
	g.mu.Unlock()
}

func (g *Gate) lockExclusive() {
	g.mu.Lock()
	g.init()
	g.waitingX++
	for g.writer || g.readers > 0 {
		g.cond.Wait()
	}
	g.waitingX--
	g.writer = true
	g.mu.Unlock()
}

// unlockExclusive wakes everyone; shared requests go back to waiting
// while another exclusive one is queued, which then takes the gate.
func (g *Gate) unlockExclusive() {
	g.mu.Lock()
	g.writer = false
	g.init()
	g.cond.Broadcast()
	g.mu.Unlock()
}

// Exclusive holds the gate for a whole run (the report profile); the
// returned function releases it.
func (g *Gate) Exclusive() func() {
	g.lockExclusive()
	return g.unlockExclusive
}

// gateConn is one candidate process's connection to a gate.
type gateConn struct {
	g       *Gate
	conn    *os.File
	paused  atomic.Int64 // nanoseconds spent waiting, finished waits
	held    atomic.Int64 // nanoseconds spent holding the gate exclusive, finished holds
	shared  atomic.Int64 // nanoseconds spent holding it shared, finished holds
	waiting atomic.Int64 // unix nanoseconds the current wait began; 0: none
	holding atomic.Int64 // unix nanoseconds the current exclusive hold began; 0: none
	// workWait is the nanoseconds spent waiting for a work slot ('W'),
	// also in paused; working says that the process holds one.
	workWait atomic.Int64
	working  atomic.Bool
	done     chan struct{}
}

// WorkWait is how long the process, started ahead, waited for a work slot.
func (c *gateConn) WorkWait() time.Duration { return time.Duration(c.workWait.Load()) }

// freeWork gives back the process's work slot, if it holds one: when its
// GPU work is over (its last record) or it has exited.
func (c *gateConn) freeWork() {
	if c.working.CompareAndSwap(true, false) {
		<-c.g.work
	}
}

// attach makes the socket pair for one process: the returned file is the
// process's end (to pass as sandbox.Policy.Gate, closed by the caller once
// the process started); serve answers on the other end until the process
// closes it (exits).
func (g *Gate) attach() (*gateConn, *os.File, error) {
	fds, err := socketPair()
	if err != nil {
		return nil, nil, fmt.Errorf("bench: GPU gate: %w", err)
	}
	c := &gateConn{g: g, conn: os.NewFile(uintptr(fds[0]), "gpu-gate"), done: make(chan struct{})}
	go c.serve()
	return c, os.NewFile(uintptr(fds[1]), "gpu-gate-candidate"), nil
}

// Paused is how long the process has waited for the gate so far.
func (c *gateConn) Paused() time.Duration {
	p := c.paused.Load()
	if w := c.waiting.Load(); w != 0 {
		p += time.Now().UnixNano() - w
	}
	return time.Duration(p)
}

// Exclusive is how long the process held the gate exclusive (its timed
// calls): the part of its run that no other candidate could overlap.
func (c *gateConn) Exclusive() time.Duration { return time.Duration(c.held.Load()) }

// Holding is how long the process has held the gate exclusive in its
// current hold (0 when it holds it shared or not at all): the GPU is
// stalled for every other candidate meanwhile.
func (c *gateConn) Holding() time.Duration {
	if h := c.holding.Load(); h != 0 {
		return time.Duration(time.Now().UnixNano() - h)
	}
	return 0
}

// Shared is how long the process held the gate shared (copies, the
// seed-B call, reading back): time that a timing of another candidate
// may have had to wait out.
func (c *gateConn) Shared() time.Duration { return time.Duration(c.shared.Load()) }

// wait closes the connection once the process has gone and serve has
// released what it held.
func (c *gateConn) wait() {
	<-c.done
	c.conn.Close()
}

func (c *gateConn) serve() {
	defer close(c.done)
	defer c.freeWork()
	held := byte(0)
	var since time.Time
	release := func() {
		switch held {
		case 'S':
			c.g.unlockShared()
			c.shared.Add(int64(time.Since(since)))
		case 'X':
			c.holding.Store(0)
			c.g.unlockExclusive()
			c.held.Add(int64(time.Since(since)))
		}
		held = 0
	}
	defer release()
	buf := make([]byte, 1)
	for {
		if n, err := c.conn.Read(buf); n == 0 || err != nil {
			return // the process exited (or closed its end, which it may not)
		}
		op := buf[0]
		if op == 'W' {
			if !c.work() {
				return
			}
			continue
		}
		release()
		if op != 'S' && op != 'X' {
			continue // 'r' (release, not answered) or noise: holds nothing
		}
		start := time.Now()
		c.waiting.Store(start.UnixNano())
		if op == 'S' {
			c.g.lockShared()
		} else {
			c.g.lockExclusive()
		}
		held, since = op, time.Now()
		if op == 'X' {
			c.holding.Store(since.UnixNano())
		}
		c.paused.Add(int64(since.Sub(start)))
		c.waiting.Store(0)
		if _, err := c.conn.Write([]byte{'g'}); err != nil {
			return
		}
	}
}

// work answers a request for a work slot ('W'): it waits for one when the
// gate bounds them (the wait is paused time, not charged to the candidate),
// once per process, and says whether the answer went out.
func (c *gateConn) work() bool {
	if c.g.work != nil && !c.working.Load() {
		start := time.Now()
		c.waiting.Store(start.UnixNano())
		c.g.work <- struct{}{}
		c.working.Store(true)
		d := int64(time.Since(start))
		c.paused.Add(d)
		c.workWait.Add(d)
		c.waiting.Store(0)
	}
	_, err := c.conn.Write([]byte{'g'})
	return err == nil
}
