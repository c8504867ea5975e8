package verdict

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cudaperf/cudaperf/bench/task"
)

// caseFile is a recorded run in testdata/cases: reference and candidate
// outputs per configuration and seed, as numbers, "poison" (the bytes the
// harness wrote before the call) or "nan", plus the recorded timings.
type caseFile struct {
	Doc           string          `json:"doc"`
	WantAccepted  bool            `json:"want_accepted"`
	WantReasons   []string        `json:"want_reasons"`
	WantWarnings  []string        `json:"want_warnings"`
	WantSpeedup   float64         `json:"want_speedup"`
	PeakBandwidth float64         `json:"peak_bandwidth"`
	SharedGPU     bool            `json:"shared_gpu"`
	Tolerance     *task.Tolerance `json:"tolerance"`
	Configs       []struct {
		Name    string `json:"name"`
		Primary bool   `json:"primary"`
		Bytes   int64  `json:"bytes"`
		Error   string `json:"error"`
		NotRun  bool   `json:"not_run"`
		Outputs []struct {
			Type task.DType         `json:"type"`
			Ref  [2][]any           `json:"ref"`
			Got  [2]json.RawMessage `json:"got"`
		} `json:"outputs"`
		Ms     []float64 `json:"ms"`
		TailMs []float64 `json:"tail_ms"`
		RefMs  []float64 `json:"ref_ms"`
		// Modified names inputs the driver found changed after the calls.
		Modified []string `json:"modified_inputs"`
		Leak     int64    `json:"leak_bytes"`
	} `json:"configs"`
}

func encode(t *testing.T, d task.DType, poison byte, vals []any) []byte {
	t.Helper()
	var out []byte
	for _, v := range vals {
		b := make([]byte, d.Size())
		switch v := v.(type) {
		case string:
			switch v {
			case "poison":
				for i := range b {
					b[i] = poison
				}
			case "nan":
				if d == task.Float32 {
					binary.LittleEndian.PutUint32(b, math.Float32bits(float32(math.NaN())))
				} else {
					binary.LittleEndian.PutUint64(b, math.Float64bits(math.NaN()))
				}
			default:
				t.Fatalf("unknown value %q", v)
			}
		case float64:
			switch d {
			case task.Float32:
				binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
			case task.Float64:
				binary.LittleEndian.PutUint64(b, math.Float64bits(v))
			case task.Int32, task.Uint32:
				binary.LittleEndian.PutUint32(b, uint32(int64(v)))
			case task.Int64:
				binary.LittleEndian.PutUint64(b, uint64(int64(v)))
			case task.Uint8:
				b[0] = byte(v)
			}
		}
		out = append(out, b...)
	}
	return out
}

func TestRecordedCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.json")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var c caseFile
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			var runs []ConfigRun
			for _, cf := range c.Configs {
				r := ConfigRun{Name: cf.Name, Primary: cf.Primary, Bytes: cf.Bytes, Error: cf.Error, NotRun: cf.NotRun, Ms: cf.Ms, TailMs: cf.TailMs, RefMs: cf.RefMs, ModifiedInputs: cf.Modified, Leak: cf.Leak}
				for i, o := range cf.Outputs {
					poison := byte(0xA5)
					if o.Type.IsFloat() {
						poison = 0xFF
					}
					tol := task.DefaultTolerance[o.Type]
					if c.Tolerance != nil {
						tol = *c.Tolerance
					}
					out := Output{Name: "out" + string(rune('0'+i)), Type: o.Type, Tol: tol, Poison: poison}
					for k := 0; k < 2; k++ {
						out.Ref[k] = encode(t, o.Type, poison, o.Ref[k])
						var got any
						if err := json.Unmarshal(o.Got[k], &got); err != nil {
							t.Fatal(err)
						}
						if s, ok := got.(string); ok && s == "poison" {
							got = slices.Repeat([]any{"poison"}, len(o.Ref[k]))
						}
						out.Got[k] = encode(t, o.Type, poison, got.([]any))
					}
					r.Outputs = append(r.Outputs, out)
				}
				runs = append(runs, r)
			}
			v, err := Judge(runs, Options{PeakBandwidth: c.PeakBandwidth, SharedGPU: c.SharedGPU})
			if err != nil {
				t.Fatal(err)
			}
			// Verdicts go to results.jsonl: they must encode, NaN and Inf errors too.
			if b, err := json.Marshal(v); err != nil {
				t.Errorf("verdict does not encode: %v", err)
			} else {
				var back Verdict
				if err := json.Unmarshal(b, &back); err != nil || len(back.Configs) != len(v.Configs) {
					t.Errorf("verdict does not decode: %v", err)
				}
			}
			ids := func(rs []Reason) []string {
				var s []string
				for _, r := range rs {
					s = append(s, r.ID)
				}
				slices.Sort(s)
				return s
			}
			want := slices.Sorted(slices.Values(c.WantReasons))
			wantW := slices.Sorted(slices.Values(c.WantWarnings))
			if v.Accepted != c.WantAccepted || !slices.Equal(ids(v.Reasons), want) || !slices.Equal(ids(v.Warnings), wantW) {
				t.Errorf("%s\naccepted=%v reasons=%v warnings=%v\nwant accepted=%v reasons=%v warnings=%v", c.Doc, v.Accepted, v.Reasons, v.Warnings, c.WantAccepted, want, wantW)
			}
			if c.WantSpeedup != 0 && math.Abs(v.Speedup-c.WantSpeedup) > 1e-9 {
				t.Errorf("speedup %v, want %v", v.Speedup, c.WantSpeedup)
			}
		})
	}
}

func TestCompareTolerance(t *testing.T) {
	tol := task.Tolerance{RTol: 1e-3, ATol: 1e-6}
	want := encode(t, task.Float32, 0xFF, []any{100.0, 0.0, -1.0})
	got := encode(t, task.Float32, 0xFF, []any{100.09, 0.0000009, -1.002})
	c, err := Compare(task.Float32, tol, want, got, 0xFF)
	if err != nil {
		t.Fatal(err)
	}
	// 100.09 is within 1e-6+0.1; 9e-7 within atol; -1.002 is 2e-3 off, over 1e-3+1e-6.
	if c.Mismatches != 1 || c.FirstBad != 2 || math.Abs(c.MaxAbsErr-0.09) > 1e-4 {
		t.Errorf("comparison %+v", c)
	}
	if _, err := Compare(task.Float32, tol, want, got[:8], 0xFF); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2})
	if s.Median != 2.5 || s.Min != 1 || s.Max != 4 || math.Abs(s.CV-math.Sqrt(5.0/3)/2.5) > 1e-12 {
		t.Errorf("Summarize = %+v", s)
	}
	if Summarize(nil) != nil {
		t.Error("Summarize(nil) should be nil")
	}
}

func TestFloatJSON(t *testing.T) {
	for _, v := range []float64{1.5, 0, math.Inf(1), math.Inf(-1), math.NaN()} {
		b, err := json.Marshal(Float(v))
		if err != nil {
			t.Fatal(err)
		}
		var back Float
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !(float64(back) == v || (math.IsNaN(v) && math.IsNaN(float64(back)))) {
			t.Errorf("%v -> %s -> %v", v, b, back)
		}
	}
}

// TestCompareHalf: float16 and bfloat16 outputs are decoded (normal,
// subnormal, negative), compared with the type's tolerance, and a 0xFFFF
// poison left in place is a NaN that fails and is counted as poison.
func TestCompareHalf(t *testing.T) {
	for _, c := range []struct {
		bits uint16
		want float64
	}{{0x3C00, 1}, {0xC000, -2}, {0x0001, math.Ldexp(1, -24)}, {0x7BFF, 65504}, {0x3555, 0.333251953125}} {
		if got := HalfValue(c.bits); got != c.want {
			t.Errorf("HalfValue(%#04x) = %v, want %v", c.bits, got, c.want)
		}
	}
	if !math.IsNaN(HalfValue(0xFFFF)) {
		t.Error("0xFFFF (the poison) is not a NaN")
	}
	le := func(vs ...uint16) []byte {
		b := make([]byte, 2*len(vs))
		for i, v := range vs {
			binary.LittleEndian.PutUint16(b[2*i:], v)
		}
		return b
	}
	tol := task.DefaultTolerance[task.Float16]
	// 1.0 vs 1.0 + 1 ulp (2^-10, within 2e-3); 1.0 vs 1 + 4 ulp (fails); poison.
	c, err := Compare(task.Float16, tol, le(0x3C00, 0x3C00, 0x3C00), le(0x3C01, 0x3C04, 0xFFFF), 0xFF)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mismatches != 2 || c.FirstBad != 1 || c.PoisonLeft != 1 {
		t.Errorf("float16 comparison %+v, want 2 mismatches from index 1, 1 poison", c)
	}
	// bfloat16 0x3F80 = 1.0; 0x3F81 = 1 + 2^-7 passes rtol 1.6e-2, 0x3F84 does not.
	c, err = Compare(task.BFloat16, task.DefaultTolerance[task.BFloat16], le(0x3F80, 0x3F80), le(0x3F81, 0x3F84), 0xFF)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mismatches != 1 || c.FirstBad != 1 || math.Abs(c.MaxAbsErr-4.0/128) > 1e-9 {
		t.Errorf("bfloat16 comparison %+v", c)
	}
}

func TestCaughtAlternatives(t *testing.T) {
	v := Rejected(WrongResult, "fails every configuration it ran")
	for expect, want := range map[string]bool{
		"wrong_result": true, "partially_correct|wrong_result": true,
		"partially_correct": false, "": false, "timeout|runtime_error": false,
	} {
		if got := v.Caught(expect); got != want {
			t.Errorf("Caught(%q) = %v, want %v", expect, got, want)
		}
	}
	if (&Verdict{Accepted: true}).Caught("wrong_result") {
		t.Error("an accepted candidate counts as caught")
	}
}
