package bench

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
	"github.com/cudaperf/cudaperf/bench/verdict"
)

// TestMapFile checks that a mapped file reads as its bytes, an empty one
// as no bytes, and a missing one as an error.
func TestMapFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	want := []byte("0123456789abcdef")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	got, unmap, err := mapFile(p)
	if err != nil || string(got) != string(want) {
		t.Fatalf("mapFile = %q, %v", got, err)
	}
	unmap()
	empty := filepath.Join(dir, "empty.bin")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, unmap, err := mapFile(empty); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q, %v", got, err)
	} else {
		unmap()
	}
	if _, _, err := mapFile(filepath.Join(dir, "missing.bin")); err == nil {
		t.Error("missing file: no error")
	}
}

// BenchmarkJudgeOutput compares one 128 MiB float32 output (vector_add's
// large configuration is 134 MB) with its reference, read into the heap as
// the judge did, and mapped as it does now. Results in bench/RESULTS.md.
func BenchmarkJudgeOutput(b *testing.B) {
	const n = 32 << 20
	ref := make([]byte, 4*n)
	got := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		v := float32(i%1000) * 0.5
		binary.LittleEndian.PutUint32(ref[4*i:], math.Float32bits(v))
		binary.LittleEndian.PutUint32(got[4*i:], math.Float32bits(v*(1+1e-7))) // within tolerance, not identical
	}
	p := filepath.Join(b.TempDir(), "out.bin")
	if err := os.WriteFile(p, got, 0o644); err != nil {
		b.Fatal(err)
	}
	tol := task.Tolerance{ATol: 1e-5, RTol: 1e-5}
	check := func(b *testing.B, data []byte) {
		c, err := verdict.Compare(task.Float32, tol, ref, data, 0xff)
		if err != nil || c.Mismatches != 0 {
			b.Fatalf("compare: %+v %v", c, err)
		}
	}
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(4 * n)
		for b.Loop() {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			check(b, data)
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(4 * n)
		for b.Loop() {
			data, unmap, err := mapFile(p)
			if err != nil {
				b.Fatal(err)
			}
			check(b, data)
			unmap()
		}
	})
}
