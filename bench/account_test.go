package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestCPUAccount: with EnvCPUAccount set, a run accounts its candidate
// process, the reference program, judging and the outputs' removal, and
// the file says so beside the process's own and its children's CPU; the
// children's total covers what was accounted to them. Unset, nothing is
// accounted and nothing breaks.
func TestCPUAccount(t *testing.T) {
	t.Setenv(EnvCPUAccount, "")
	var none *cpuAccount = newCPUAccount()
	if none != nil {
		t.Fatal("an account without EnvCPUAccount")
	}
	none.add(CPUCandidate, time.Second)
	none.measure(CPUJudge, func() {})
	none.write()

	path := filepath.Join(t.TempDir(), "cpu.json")
	t.Setenv(EnvCPUAccount, path)
	acct := newCPUAccount()
	s, self := fakeSession(t, Options{account: acct})
	t.Setenv(envFakeDriver, "honest")
	r := &Result{Candidate: "honest", exe: self}
	s.Run(context.Background(), r, nil)
	if r.Verdict == nil || !r.Verdict.Accepted {
		t.Fatalf("honest run: %+v %s", r.Verdict, r.Error)
	}
	acct.add(toolKind(true, "obj.o"), 2*time.Second) // as Toolchain.OnRun would
	acct.write()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep accountReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	k := rep.ByKind
	for _, kind := range []string{CPUCandidate, CPUReference, CPUJudge, CPUScratch} {
		if k[kind].N != 1 {
			t.Errorf("%s: accounted %d times, want once (%s)", kind, k[kind].N, data)
		}
	}
	if k[CPUCandidate].Seconds <= 0 || k[CPUReference].Seconds <= 0 || k[CPUCompileCUDA].Seconds != 2 {
		t.Errorf("candidate %.4f s, reference %.4f s, compiles %.1f s: want the first two above 0 and 2 s (%s)",
			k[CPUCandidate].Seconds, k[CPUReference].Seconds, k[CPUCompileCUDA].Seconds, data)
	}
	if kids := rep.ChildrenUser + rep.ChildrenSys; kids < k[CPUCandidate].Seconds+k[CPUReference].Seconds-0.01 || rep.SelfUser+rep.SelfSys <= 0 {
		t.Errorf("children %.3f s for %.3f s accounted to them; self %.3f s", kids,
			k[CPUCandidate].Seconds+k[CPUReference].Seconds, rep.SelfUser+rep.SelfSys)
	}
	if toolKind(true, "a.out") != CPULinkCUDA || toolKind(false, "obj.o") != CPUCompileC || toolKind(false, "a.out") != CPULinkC {
		t.Error("toolKind names the wrong kind")
	}
}

// TestCPUAccountParallel: the parts a comparison runs at once all run, and
// their threads' CPU is accounted to the kind without counting more items
// of it; without an account there is no runner (verdict's own goroutines).
func TestCPUAccountParallel(t *testing.T) {
	var none *cpuAccount
	if none.parallel(CPUJudge) != nil {
		t.Fatal("a runner without an account")
	}
	if runtime.GOOS != "linux" {
		t.Skip("a thread's CPU time is read on Linux only (account_linux.go)")
	}
	acct := &cpuAccount{sum: map[string]float64{}, n: map[string]int{}}
	ran := make([]bool, 4)
	acct.parallel(CPUJudge)(4, func(i int) {
		// 20 ms of this thread's CPU, however many CPUs share the parts.
		x := 0
		for start := threadCPU(); threadCPU()-start < 20*time.Millisecond; x++ {
		}
		ran[i] = x > 0
	})
	for i, ok := range ran {
		if !ok {
			t.Errorf("part %d did not run", i)
		}
	}
	if acct.sum[CPUJudge] < 0.04 || acct.n[CPUJudge] != 0 {
		t.Errorf("4 parts of 20 ms of CPU each: accounted %.3f s as %d items, want at least 0.04 s as 0", acct.sum[CPUJudge], acct.n[CPUJudge])
	}
}
