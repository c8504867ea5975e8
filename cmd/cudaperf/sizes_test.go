package main

import (
	"slices"
	"testing"

	"github.com/cudaperf/cudaperf/host/lint"
)

// TestUnusedSets: a --set name that no file has as a whole word is
// reported (a misspelling binds nothing); one that a file names is not,
// nor is a name that only appears inside a longer identifier taken for it.
func TestUnusedSets(t *testing.T) {
	in := []lint.Input{
		{Path: "a.cu", Content: []byte("void saxpy(int n, float a, const float *x, float *y) {}")},
		{Path: "b.cu", Content: []byte("void scale(int rows, int cols) {}")},
	}
	got := unusedSets([]string{"n", "cols", "nosuch", "row"}, in)
	if want := []string{"nosuch", "row"}; !slices.Equal(got, want) {
		t.Errorf("unusedSets = %v, want %v", got, want)
	}
}
