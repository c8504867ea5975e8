package ablation

import (
	"testing"
	"time"
)

type fakeNow struct{ t time.Time }

func (f *fakeNow) now() time.Time          { return f.t }
func (f *fakeNow) advance(d time.Duration) { f.t = f.t.Add(d) }

func TestClock(t *testing.T) {
	f := &fakeNow{t: time.Unix(1000, 0)}
	k := newClock(100*time.Second, f.now)
	if !k.fits("step", true) || !k.fits("eval", false) {
		t.Fatal("nothing measured yet: the work should start")
	}
	f.advance(60 * time.Second)
	k.took("step", true, 60*time.Second) // a new process's first step
	// A later step with only a first measured: guessed at half, 30 s.
	if !k.fits("step", false) {
		t.Error("at 60 s a 30 s step fits a 100 s budget")
	}
	f.advance(25 * time.Second)
	k.took("step", false, 25*time.Second)
	// At 85 s: a later step needs 25 s (no), a first step 60 s (no).
	if k.fits("step", false) || k.fits("step", true) {
		t.Error("at 85 s neither a 25 s step nor a 60 s first step fits")
	}
	if k.spent() {
		t.Error("85 s of 100 is not spent")
	}
	// The longest is kept, not the last.
	k.took("step", false, 10*time.Second)
	if k.need("step", false) != 25*time.Second {
		t.Errorf("need %v, want the longest, 25 s", k.need("step", false))
	}
	// A first evaluation with only a later one measured: twice it.
	k.took("eval", false, 40*time.Second)
	if k.need("eval", true) != 80*time.Second {
		t.Errorf("first eval need %v, want 80 s", k.need("eval", true))
	}
	f.advance(16 * time.Second)
	if !k.spent() {
		t.Error("101 s of 100 is spent")
	}
	if !newClock(0, f.now).fits("step", true) {
		t.Error("no budget: everything fits")
	}
}
