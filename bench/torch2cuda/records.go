package torch2cuda

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cudaperf/cudaperf/bench/verdict"
)

// Schema is the record schema runner.py writes; a record of another
// schema is refused (the runner and this package ship together).
const Schema = 1

// Compare is runner.py's comparison of one output with the reference's.
type Compare struct {
	DType      string        `json:"dtype"`
	GotDType   string        `json:"got_dtype"`
	Shape      []int         `json:"shape"`
	GotShape   []int         `json:"got_shape"`
	Elements   int64         `json:"elements"`
	Mismatches int64         `json:"mismatches"`
	MaxAbs     verdict.Float `json:"max_abs"`
	MaxRel     verdict.Float `json:"max_rel"`
	RTol       float64       `json:"rtol"`
	ATol       float64       `json:"atol"`
	FirstBad   int64         `json:"first_bad"`
	Error      string        `json:"error"`
}

// Kernel is one CUDA kernel a call launched (profiler name, device time).
type Kernel struct {
	Name  string  `json:"name"`
	Ms    float64 `json:"ms"`
	Calls int     `json:"calls"`
}

// Record is one line runner.py writes; Type says which fields are set.
type Record struct {
	Type   string `json:"type"`
	Schema int    `json:"schema"`

	OK      bool     `json:"ok"`      // validate, build
	Errors  []string `json:"errors"`  // validate
	Seconds float64  `json:"seconds"` // build

	Name    string `json:"name"` // device
	L2Bytes int64  `json:"l2_bytes"`
	Torch   string `json:"torch"`
	CUDA    string `json:"cuda"`

	Seed              uint64    `json:"seed"` // check
	Outputs           []Compare `json:"outputs"`
	Early             []Compare `json:"early"`
	InputsModified    []string  `json:"inputs_modified"`
	SameAsPrevious    *bool     `json:"same_as_previous"`
	RefSameAsPrevious *bool     `json:"ref_same_as_previous"`
	OverwrotePrevious *bool     `json:"overwrote_previous"`
	Who               string    `json:"who"`     // kernels, timing
	Kernels           []Kernel  `json:"kernels"` // kernels
	Ms                []float64 `json:"ms"`      // timing
	TailMs            []float64 `json:"tail_ms"`
	Stage             string    `json:"stage"` // error
	Error             string    `json:"error"`
	Traceback         string    `json:"traceback"`
}

// recordTypes are the types runner.py writes.
var recordTypes = map[string]bool{"validate": true, "build": true, "device": true, "check": true,
	"kernels": true, "timing": true, "done": true, "error": true}

// ParseRecords reads runner.py's JSON lines; name is used in messages. A
// truncated last line (the process was killed while writing) is dropped:
// what came before it is kept.
func ParseRecords(name string, data []byte) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			if !bytes.HasSuffix(data, []byte("\n")) && !sc.Scan() {
				break // the last, unfinished line
			}
			return nil, fmt.Errorf("%s:%d: not a runner record: %v", name, line, err)
		}
		if r.Schema != Schema {
			return nil, fmt.Errorf("%s:%d: record schema %d, want %d (runner and Go side from different builds)", name, line, r.Schema, Schema)
		}
		if !recordTypes[r.Type] {
			return nil, fmt.Errorf("%s:%d: unknown record type %q", name, line, r.Type)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}
