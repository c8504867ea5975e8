package bench

import (
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pollable makes a candidate's end usable with read deadlines (the real
// candidate gets it blocking).
func pollable(t *testing.T, f *os.File) *os.File {
	t.Helper()
	fd, err := unix.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := unix.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(fd), "gpu-gate-candidate")
}

// attachN attaches n candidate processes' connections to g.
func attachN(t *testing.T, g *Gate, n int) ([]*gateConn, []*os.File) {
	t.Helper()
	var conns []*gateConn
	var ends []*os.File
	for range n {
		c, f, err := g.attach()
		if err != nil {
			t.Fatal(err)
		}
		conns, ends = append(conns, c), append(ends, pollable(t, f))
	}
	return conns, ends
}

// ask writes op on a candidate's end of the gate and reports whether the
// grant came within d.
func ask(t *testing.T, f *os.File, op byte, d time.Duration) bool {
	t.Helper()
	if _, err := f.Write([]byte{op}); err != nil {
		t.Fatal(err)
	}
	return granted(t, f, d)
}

func granted(t *testing.T, f *os.File, d time.Duration) bool {
	t.Helper()
	f.SetReadDeadline(time.Now().Add(d))
	defer f.SetReadDeadline(time.Time{})
	b := make([]byte, 1)
	n, err := f.Read(b)
	return n == 1 && err == nil && b[0] == 'g'
}

// TestGateTimingIsExclusive plays three candidate processes: shared
// holders run together; a timing waits for them and then has the GPU
// alone; the wait is not charged; a process that exits releases the gate.
func TestGateTimingIsExclusive(t *testing.T) {
	g := &Gate{}
	conns, ends := attachN(t, g, 3)
	a, b, c := ends[0], ends[1], ends[2]
	if !ask(t, a, 'S', 5*time.Second) || !ask(t, b, 'S', 5*time.Second) {
		t.Fatal("two candidates' untimed work could not share the GPU")
	}
	// c's timing must wait for both shared holders.
	if ask(t, c, 'X', 100*time.Millisecond) {
		t.Fatal("a timing started while other candidates held the GPU")
	}
	if _, err := a.Write([]byte{'r'}); err != nil {
		t.Fatal(err)
	}
	if granted(t, c, 100*time.Millisecond) {
		t.Fatal("a timing started while one candidate still held the GPU")
	}
	// b exits while holding the gate: that releases it.
	b.Close()
	if !granted(t, c, 5*time.Second) {
		t.Fatal("a timing never started after the other holders left")
	}
	if p := conns[2].Paused(); p < 150*time.Millisecond {
		t.Errorf("the timing waited about 200 ms, but %s was counted as paused", p)
	}
	// While c times, nobody else gets the GPU, not even shared.
	if ask(t, a, 'S', 100*time.Millisecond) {
		t.Fatal("untimed work ran during a timing")
	}
	if _, err := c.Write([]byte{'S'}); err != nil { // c's timing ends: back to shared
		t.Fatal(err)
	}
	if !granted(t, a, 5*time.Second) || !granted(t, c, 5*time.Second) {
		t.Fatal("shared work did not resume after the timing")
	}
	a.Close()
	c.Close()
	for _, cn := range conns {
		cn.wait()
	}
	// c held the GPU alone at least while a's 100 ms request waited; a and
	// b never did.
	if x := conns[2].Exclusive(); x < 80*time.Millisecond {
		t.Errorf("the timing held the gate exclusive for over 100 ms, but %s was counted", x)
	}
	if x := conns[0].Exclusive() + conns[1].Exclusive(); x != 0 {
		t.Errorf("shared holders were counted %s of exclusive hold", x)
	}
	// Every holder is gone: the gate is free for a whole report-profile run.
	done := make(chan struct{})
	go func() { g.Exclusive()(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the gate stayed held after every process exited")
	}
}

// TestGateTimingsGoInPhases: when a timing ends and others are waiting,
// they go next, before the shared work that queued meanwhile; so a phase of
// waiting timings pays for one drain of shared holders, not one each.
func TestGateTimingsGoInPhases(t *testing.T) {
	g := &Gate{}
	var ends []*os.File
	for range 4 {
		_, f, err := g.attach()
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, pollable(t, f))
	}
	s1, x1, x2, s2 := ends[0], ends[1], ends[2], ends[3]
	if !ask(t, s1, 'S', 5*time.Second) {
		t.Fatal("a shared hold on a free gate was not granted")
	}
	if ask(t, x1, 'X', 100*time.Millisecond) || ask(t, x2, 'X', 100*time.Millisecond) {
		t.Fatal("a timing started beside a shared holder")
	}
	if ask(t, s2, 'S', 100*time.Millisecond) {
		t.Fatal("shared work started while timings were waiting")
	}
	s1.Write([]byte{'r'}) // the drain ends: one of the timings goes
	var first, second *os.File
	for deadline := time.Now().Add(5 * time.Second); first == nil; {
		if granted(t, x1, 50*time.Millisecond) {
			first, second = x1, x2
		} else if granted(t, x2, 50*time.Millisecond) {
			first, second = x2, x1
		} else if time.Now().After(deadline) {
			t.Fatal("no timing started once the shared holder left")
		}
	}
	if granted(t, second, 100*time.Millisecond) || granted(t, s2, 50*time.Millisecond) {
		t.Fatal("something ran beside a timing")
	}
	first.Write([]byte{'r'})
	// The other timing goes next; the shared work still waits.
	if !granted(t, second, 5*time.Second) {
		t.Fatal("the second waiting timing did not follow the first")
	}
	if granted(t, s2, 100*time.Millisecond) {
		t.Fatal("shared work got in between two waiting timings")
	}
	second.Write([]byte{'r'})
	if !granted(t, s2, 5*time.Second) {
		t.Fatal("shared work did not resume after the timings")
	}
	for _, f := range ends {
		f.Close()
	}
}

// TestGateHolding: Holding measures the current exclusive hold only.
func TestGateHolding(t *testing.T) {
	g := &Gate{}
	c, f, err := g.attach()
	if err != nil {
		t.Fatal(err)
	}
	end := pollable(t, f)
	if !ask(t, end, 'S', 5*time.Second) {
		t.Fatal("shared hold not granted")
	}
	if h := c.Holding(); h != 0 {
		t.Errorf("holding %s while shared, want 0", h)
	}
	if !ask(t, end, 'X', 5*time.Second) {
		t.Fatal("exclusive hold not granted")
	}
	time.Sleep(50 * time.Millisecond)
	if h := c.Holding(); h < 40*time.Millisecond {
		t.Errorf("holding %s after 50 ms exclusive", h)
	}
	if !ask(t, end, 'S', 5*time.Second) {
		t.Fatal("back to shared not granted")
	}
	if h := c.Holding(); h != 0 {
		t.Errorf("holding %s after the exclusive hold ended", h)
	}
	end.Close()
	c.wait()
}

// TestGateWorkSlots plays three processes started ahead on a gate with two
// work slots: two start work at once, the third waits (paused, not
// charged) until one's GPU work is over, and a process that exits gives
// its slot back; the gate's holds go on as without work slots.
func TestGateWorkSlots(t *testing.T) {
	g := &Gate{work: make(chan struct{}, 2)}
	conns, ends := attachN(t, g, 3)
	if !ask(t, ends[0], 'W', 5*time.Second) || !ask(t, ends[1], 'W', 5*time.Second) {
		t.Fatal("the first two processes were not given work slots")
	}
	if !ask(t, ends[0], 'S', 5*time.Second) {
		t.Fatal("a working process was not given the gate shared")
	}
	if ask(t, ends[2], 'W', 200*time.Millisecond) {
		t.Fatal("a third process got a work slot while both were taken")
	}
	conns[0].freeWork() // its last record: GPU work over
	if !granted(t, ends[2], 5*time.Second) {
		t.Fatal("the waiting process did not get the freed work slot")
	}
	if w := conns[2].WorkWait(); w < 150*time.Millisecond || conns[2].Paused() < w {
		t.Errorf("work wait %v, paused %v: want at least the 0.2 s waited, counted as paused", w, conns[2].Paused())
	}
	// Process 0 still holds the gate shared: a timing waits for it.
	if ask(t, ends[1], 'X', 200*time.Millisecond) {
		t.Fatal("a timing started while another process held the gate shared")
	}
	ends[0].Close() // exits: its shared hold goes, and the timing may start
	if !granted(t, ends[1], 5*time.Second) {
		t.Fatal("the timing did not start once the shared holder exited")
	}
	conns[0].wait()
	ends[1].Close()
	conns[1].wait()
	// Both remaining slots are free again once process 1 exited: process 2
	// holds one, and one is free.
	select {
	case g.work <- struct{}{}:
	case <-time.After(5 * time.Second):
		t.Fatal("the exited process kept its work slot")
	}
	ends[2].Close()
	conns[2].wait()
}
