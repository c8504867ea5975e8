package bench

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// fakeGPUs is a device list for the tests only: no GPU is needed.
func fakeGPUs(n int) []*device.Info {
	var out []*device.Info
	for i := range n {
		out = append(out, &device.Info{Index: i, Name: "Fake H200", UUID: "GPU-" + string(rune('a'+i)) + "bcd", CC: device.CC{Major: 9}})
	}
	return out
}

func visibleNames(ws []*Worker) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Visible)
	}
	return out
}

func TestVisibleWorkers(t *testing.T) {
	gpus := fakeGPUs(4)
	for _, c := range []struct {
		env  string
		set  bool
		want []string
		idx  []int
	}{
		{"", false, []string{"0", "1", "2", "3"}, []int{0, 1, 2, 3}},
		{"", true, nil, nil},                           // set but empty: no GPU, as CUDA reads it
		{"2,0", true, []string{"2", "0"}, []int{2, 0}}, // CUDA's order
		{"GPU-c", true, []string{"GPU-c"}, []int{2}},   // a UUID prefix
		{"1,-1,3", true, []string{"1"}, []int{1}},      // CUDA stops at an invalid ordinal
		{"MIG-xyz", true, []string{"MIG-xyz"}, []int{-1}},
	} {
		ws, err := VisibleWorkers(gpus, c.env, c.set)
		if err != nil {
			t.Fatalf("%q: %v", c.env, err)
		}
		var idx []int
		for _, w := range ws {
			idx = append(idx, w.Index)
		}
		if !slices.Equal(visibleNames(ws), c.want) || !slices.Equal(idx, c.idx) {
			t.Errorf("%s=%q: workers %v indices %v, want %v %v", EnvVisibleDevices, c.env, visibleNames(ws), idx, c.want, c.idx)
		}
	}
	if _, err := VisibleWorkers(gpus, "7", true); err == nil || !strings.Contains(err.Error(), "has 4") {
		t.Errorf("GPU 7 of 4: %v", err)
	}
	if _, err := VisibleWorkers(gpus, "1,1", true); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("1,1: %v", err)
	}
	// Each candidate sees its worker's GPU alone.
	ws, _ := VisibleWorkers(gpus, "", false)
	env := ws[3].env()
	if n := slices.Index(env, EnvVisibleDevices+"=3"); n < 0 {
		t.Errorf("worker 3's environment lacks %s=3", EnvVisibleDevices)
	}
}

// TestPoolSpreadsWork runs 64 fake candidates over 3 fake GPUs of 2 slots
// each: every GPU takes work, none runs more than its slots at once, and
// all six slots run at once when there is work for them.
func TestPoolSpreadsWork(t *testing.T) {
	const slots = 2
	ws, _ := VisibleWorkers(fakeGPUs(3), "", false)
	p := newPool(ws, slots, 0)
	var mu sync.Mutex
	busy := map[*Worker]int{}
	ran := map[string]int{}
	peak := 0
	all := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := p.acquire(context.Background(), nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			if busy[w]++; busy[w] > slots {
				t.Errorf("%s runs %d candidates at once, more than its %d slots", w, busy[w], slots)
			}
			ran[w.Visible]++
			n := 0
			for _, b := range busy {
				n += b
			}
			peak = max(peak, n)
			if n == 3*slots {
				once.Do(func() { close(all) })
			}
			mu.Unlock()
			<-all // hold the slot until all six are busy once
			mu.Lock()
			busy[w]--
			mu.Unlock()
			p.release(w)
		}()
	}
	wg.Wait()
	if peak != 3*slots || len(ran) != 3 {
		t.Errorf("peak %d slots busy, runs per GPU %v; want all %d used", peak, ran, 3*slots)
	}
	for _, w := range ws {
		if w.Gate == nil {
			t.Errorf("%s has no gate", w)
		}
	}
	// A cancelled wait gives up instead of blocking.
	for range 3 * slots {
		_, _ = p.acquire(context.Background(), nil)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.acquire(ctx, nil); err == nil {
		t.Error("acquire on a busy pool with a cancelled context succeeded")
	}
}

// TestCandidateEnv: the RL profile gives candidates one hardware queue
// unless the user chose a number; the report profile leaves CUDA's default;
// the worker's GPU filter is kept either way.
func TestCandidateEnv(t *testing.T) {
	w := &Worker{Visible: "1"}
	has := func(env []string, kv string) bool { return slices.Contains(env, kv) }
	t.Setenv(EnvMaxConnections, "")
	os.Unsetenv(EnvMaxConnections)
	if env := candidateEnv(w, ProfileRL); !has(env, EnvMaxConnections+"=1") || !has(env, EnvVisibleDevices+"=1") {
		t.Errorf("RL profile: %s=1 and %s=1 wanted in the candidate's environment", EnvMaxConnections, EnvVisibleDevices)
	}
	if env := candidateEnv(nil, ProfileRL); !has(env, EnvMaxConnections+"=1") || len(env) < 2 {
		t.Errorf("RL profile without a worker: want the inherited environment plus %s=1, got %d entries", EnvMaxConnections, len(env))
	}
	if env := candidateEnv(w, ProfileReport); slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, EnvMaxConnections+"=") }) {
		t.Errorf("report profile: %s must stay CUDA's default", EnvMaxConnections)
	}
	t.Setenv(EnvMaxConnections, "4")
	if env := candidateEnv(nil, ProfileRL); env != nil {
		t.Errorf("RL profile with %s=4 set by the user: want the environment inherited as it is", EnvMaxConnections)
	}
}

// TestEnvInt: an unset setting is -1, one in range its value, and a bad
// one an error that names it and what to give.
func TestEnvInt(t *testing.T) {
	const name = "CUDAPERF_TEST_ENVINT"
	for _, c := range []struct {
		v    string
		want int
		bad  bool
	}{{"", -1, false}, {"0", 0, false}, {"19", 19, false}, {"20", -1, true}, {"-1", -1, true}, {"ten", -1, true}} {
		t.Setenv(name, c.v)
		n, err := envInt(name, 0, 19, "a niceness")
		if n != c.want || (err != nil) != c.bad {
			t.Errorf("%s=%q: %d, %v; want %d, error %v", name, c.v, n, err, c.want, c.bad)
		}
		if err != nil && (!strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "give a niceness")) {
			t.Errorf("error %q does not name the setting and what to give", err)
		}
	}
}

// TestSettingsFromEnv: options set by the caller win, the environment fills
// the rest, defaults the unset, and a malformed setting (which used to be
// silently replaced by the default for the GPU slots and compile jobs) makes
// NewEvaluator fail naming it, before it opens anything.
func TestSettingsFromEnv(t *testing.T) {
	t.Setenv(EnvSlots, "12")
	t.Setenv(EnvJobs, "")
	t.Setenv(EnvPrestart, "")
	t.Setenv(EnvCompileNice, "5")
	opt := EvaluatorOptions{Prestart: 3}
	nice, err := settingsFromEnv(&opt)
	if err != nil || opt.Slots != 12 || opt.Prestart != 3 || opt.Jobs != 0 || nice != 5 {
		t.Errorf("slots=12 nice=5 in the environment, prestart 3 in the options: got %+v nice %d, %v", opt, nice, err)
	}
	// 0 turns the default niceness off.
	t.Setenv(EnvCompileNice, "0")
	if nice, err := settingsFromEnv(&EvaluatorOptions{}); err != nil || nice != 0 || DefaultCompileNice == 0 {
		t.Errorf("nice=0 in the environment: got nice %d, %v (default %d)", nice, err, DefaultCompileNice)
	}
	opt = EvaluatorOptions{Slots: 2}
	t.Setenv(EnvCompileNice, "")
	if nice, err := settingsFromEnv(&opt); err != nil || opt.Slots != 2 || opt.Prestart != DefaultPrestart || nice != DefaultCompileNice {
		t.Errorf("slots 2 in the options: got %+v nice %d, %v", opt, nice, err)
	}
	opt = EvaluatorOptions{}
	t.Setenv(EnvSlots, "")
	if _, err := settingsFromEnv(&opt); err != nil || opt.Slots != DefaultSlots {
		t.Errorf("nothing set: slots %d, %v; want %d", opt.Slots, err, DefaultSlots)
	}
	for name, bad := range map[string]string{EnvSlots: "eight", EnvJobs: "0", EnvPrestart: "-2", EnvCompileNice: "20", EnvCompileIdle: "sometimes"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, bad)
			_, err := NewEvaluator(EvaluatorOptions{NoGPU: true, CacheDir: t.TempDir(), NVCC: "/nonexistent/nvcc"})
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "give") {
				t.Errorf("%s=%q: NewEvaluator: %v; want an error naming the setting and what to give", name, bad, err)
			}
		})
	}
}

// TestCompileBackground: with EnvCompileIdle's backlog, compiles go to the
// idle class exactly while as many built candidates wait for a GPU slot as
// there are slots (2 GPUs of 2 here), and stop as soon as the waiters are
// served; always and never do not look at the slots.
func TestCompileBackground(t *testing.T) {
	ws, _ := VisibleWorkers(fakeGPUs(2), "", false)
	p := newPool(ws, 2, 0)
	if compileBackground(CompileIdleNever, p) != nil || !compileBackground(CompileIdleAlways, p)() {
		t.Fatal("never must leave compiles at their niceness, always must let every one go")
	}
	for env, want := range map[string]string{"": DefaultCompileIdle, "backlog": CompileIdleBacklog, "never": CompileIdleNever} {
		t.Setenv(EnvCompileIdle, env)
		if got, err := compileIdleFromEnv(); got != want || err != nil {
			t.Errorf("%s=%q: %q, %v; want %q", EnvCompileIdle, env, got, err, want)
		}
	}
	bg := compileBackground(CompileIdleBacklog, p)
	var held []*Worker
	for range p.size() { // every slot busy
		w, _ := p.acquire(context.Background(), nil)
		held = append(held, w)
	}
	waitFor := func(n int64) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); p.waiting.Load() != n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d candidates waiting, want %d", p.waiting.Load(), n)
			}
		}
	}
	got := make(chan *Worker)
	for i := 1; i <= p.size(); i++ {
		if bg() {
			t.Fatalf("%d of %d slots' candidates waiting: compiles let go already", i-1, p.size())
		}
		go func() { w, _ := p.acquire(context.Background(), nil); got <- w }()
		waitFor(int64(i))
	}
	if !bg() {
		t.Fatalf("a candidate waiting for each of the %d slots: compiles held back", p.size())
	}
	p.release(held[0]) // one waiter served
	held[0] = <-got
	waitFor(int64(p.size() - 1))
	if bg() {
		t.Error("a waiter served, fewer waiting than slots: compiles still let go")
	}
	for _, w := range held {
		p.release(w)
	}
	for range p.size() - 1 {
		p.release(<-got)
	}
}

// TestAcquireWorksAheadOneRound: the work a waiting candidate does ahead
// (its output files) is done by at most as many waiters as there are
// slots, first come first served, and the next waiter's starts once one
// of them is served; a cancelled waiter gives up without doing it.
func TestAcquireWorksAheadOneRound(t *testing.T) {
	ws, _ := VisibleWorkers(fakeGPUs(1), "", false)
	p := newPool(ws, 2, 0)
	var held []*Worker
	for range p.size() { // every slot busy
		w, _ := p.acquire(context.Background(), nil)
		held = append(held, w)
	}
	var mu sync.Mutex
	var order []int
	started := make(chan int, 8)
	got := make(chan *Worker, 8)
	for i := range 3 {
		go func() {
			w, _ := p.acquire(context.Background(), func() {
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				started <- i
			})
			got <- w
		}()
		// In order: the queues serve the first to come first.
		for deadline := time.Now().Add(5 * time.Second); p.waiting.Load() != int64(i+1); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waiter %d never waited", i)
			}
		}
	}
	for range p.size() {
		<-started
	}
	select {
	case i := <-started:
		t.Fatalf("waiter %d worked ahead while %d others already had, with %d slots", i, p.size(), p.size())
	case <-time.After(50 * time.Millisecond):
	}
	p.release(held[0])
	held[0] = <-got
	if i := <-started; i != 2 {
		t.Errorf("waiter %d worked ahead next, want 2 (the third to come)", i)
	}
	mu.Lock()
	if fmt.Sprint(order) != "[0 1 2]" {
		t.Errorf("worked ahead in the order %v, want [0 1 2]", order)
	}
	mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.acquire(ctx, func() { t.Error("a cancelled waiter worked ahead") }); err == nil {
		t.Error("acquire with a cancelled context on a busy pool succeeded")
	}
	for _, w := range held {
		p.release(w)
	}
	p.release(<-got)
	p.release(<-got)
}
