package nvcc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// schedPolicy is field 41 of a /proc stat line, the scheduling policy
// (0 SCHED_OTHER, 5 SCHED_IDLE).
func schedPolicy(t *testing.T, stat string) int {
	t.Helper()
	i := strings.LastIndex(stat, ")")
	f := strings.Fields(stat[i+1:]) // from field 3, the state
	if i < 0 || len(f) < 39 {
		t.Fatalf("no stat line in %q", stat)
	}
	n, err := strconv.Atoi(f[38])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBackground: an ordinary compile that Background lets go runs in the
// idle scheduling class, with what nvcc starts later, and says so in its
// result; an urgent one, or one Background holds back, runs as before (at
// Nice), and no thread of the caller is put in the idle class (one that
// forked there stalled the whole runtime on a busy machine).
func TestBackground(t *testing.T) {
	const schedIdle = 5
	dir := t.TempDir()
	tc, _ := fakeToolchain(t, filepath.Join(dir, "nvcc"), "sleep 0.5\ncat /proc/self/stat\nexit 1")
	tc.Nice = 7
	background := true
	tc.Background = func() bool { return background }
	for _, c := range []struct {
		name       string
		ctx        context.Context
		background bool
		want       int
	}{
		{"let go", context.Background(), true, schedIdle},
		{"urgent", Urgent(context.Background()), true, 0},
		{"held back", context.Background(), false, 0},
	} {
		background = c.background
		src := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".cu")
		if err := os.WriteFile(src, []byte("// "+c.name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := tc.CompileCUDA(c.ctx, src, "sm_90")
		if err != nil {
			t.Fatal(err)
		}
		if got := schedPolicy(t, res.Log); got != c.want || res.Idle != (c.want == schedIdle) {
			t.Errorf("%s compile: a child of nvcc ran with scheduling policy %d (result says idle: %v), want %d", c.name, got, res.Idle, c.want)
		}
		// Idle or not, an ordinary compile keeps the niceness its group
		// was given (field 19): one that outlived its class would keep it.
		i := strings.LastIndex(res.Log, ")")
		if f := strings.Fields(res.Log[i+1:]); len(f) > 16 && (f[16] == "7") == (c.name == "urgent") {
			t.Errorf("%s compile: a child of nvcc ran at niceness %s; want 7 for ordinary compiles only", c.name, f[16])
		}
	}
	var idle []string
	stats, _ := filepath.Glob("/proc/self/task/*/stat")
	for _, p := range stats {
		if b, err := os.ReadFile(p); err == nil && schedPolicy(t, string(b)) == schedIdle {
			idle = append(idle, p)
		}
	}
	if len(idle) > 0 {
		t.Errorf("threads of the caller in the idle class: %v", idle)
	}
}

// TestIdleCompileLimit: an idle compile that the limit stops may only have
// been starved of CPUs, so it is compiled again as ordinary work, whose
// outcome is the verdict; a compile that runs past the limit either way
// still fails naming it, after both attempts.
func TestIdleCompileLimit(t *testing.T) {
	dir := t.TempDir()
	// Stands in for a compile that gets no CPU while idle: in the idle
	// class (field 41 of its stat line is 5) it waits past any limit.
	out := "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n"
	// It looks after a moment, as nvcc's tools start after nvcc has: the
	// class is set once nvcc has started.
	starved := "sleep 0.1\n[ \"$(cut -d' ' -f41 /proc/$$/stat)\" = 5 ] && { touch \"$TMPDIR/tmpxft_first.ii\"; sleep 600 & wait; }\n" + out + "echo obj > \"$out\"\n"
	for _, c := range []struct {
		name, body string
		ok         bool
		limits     time.Duration // limits reached: both attempts' time is counted
	}{
		{"starved while idle", starved, true, 1},
		{"too long either way", "sleep 600 &\nwait", false, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc, cache := fakeToolchain(t, filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")), c.body)
			tc.Limit = 300 * time.Millisecond
			tc.Background = func() bool { return true }
			res, err := tc.CompileCUDA(context.Background(), "testdata/broken.cu", "sm_90")
			if err != nil {
				t.Fatal(err)
			}
			stopped := strings.Contains(res.Log, "was stopped after")
			if res.OK != c.ok || stopped == c.ok || res.Idle || res.Duration < c.limits*tc.Limit {
				t.Errorf("result OK %v (want %v), log names the limit: %v, idle %v, took %v (want at least %d limits): %s",
					res.OK, c.ok, stopped, res.Idle, res.Duration, c.limits, res.Log)
			}
			// What the cache keeps is the second attempt's, not the
			// killed one's intermediates.
			if left, _ := filepath.Glob(filepath.Join(cache.Dir, "compile", "*", "*", "tmpxft_*")); len(left) != 0 {
				t.Errorf("the cache holds the killed attempt's %v", left)
			}
		})
	}
}
