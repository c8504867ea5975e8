package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func sample() []Diagnostic {
	ds := []Diagnostic{
		{File: "/repo/src/b.cu", Line: 9, Column: 5, EndLine: 9, EndColumn: 20, Severity: Error, Check: "syncdivergence",
			Message: "__syncthreads() under a thread-dependent branch: move it out of the `if`", Kernel: "reduce"},
		{File: "/repo/src/a.cu", Line: 12, Column: 3, EndLine: 12, EndColumn: 30, Severity: Warning, Check: "coalescing",
			Message: "global load a[i*stride] touches 32 sectors per warp (ideal 4): make threadIdx.x the fastest-varying index", Kernel: "k"},
		{File: "/repo/src/a.cu", Line: 3, Column: 1, EndLine: 3, EndColumn: 9, Severity: Note, Check: "blocksize",
			Message: "block size 100 is not a multiple of 32 & wastes <lanes>"},
	}
	Sort(ds)
	return ds
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, d)
	}
}

func TestSortOrdersByFileThenLine(t *testing.T) {
	ds := sample()
	if ds[0].File != "/repo/src/a.cu" || ds[0].Line != 3 || ds[2].File != "/repo/src/b.cu" {
		t.Errorf("unexpected order: %+v", ds)
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "diags.txt.golden", b.Bytes())
}

func TestJSONHasRequiredKeys(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sample(), nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "diags.json.golden", b.Bytes())
	var arr []map[string]any
	if err := json.Unmarshal(b.Bytes(), &arr); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"file", "line", "column", "end_line", "end_column", "severity", "check", "message"} {
		if _, ok := arr[0][k]; !ok {
			t.Errorf("JSON diagnostic lacks key %q", k)
		}
	}
	b.Reset()
	_ = WriteJSON(&b, nil, nil)
	if got := bytes.TrimSpace(b.Bytes()); string(got) != "[]" {
		t.Errorf("empty run printed %s, want []", got)
	}
}

func TestCheckstyleIsValidXMLGroupedByFile(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCheckstyle(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "diags.checkstyle.golden", b.Bytes())
	var res csResult
	if err := xml.Unmarshal(b.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 2 || len(res.Files[0].Errors) != 2 || res.Files[0].Errors[0].Severity != "info" {
		t.Errorf("unexpected checkstyle structure: %+v", res)
	}
}

func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	rules := []Rule{{ID: "coalescing", Title: "global accesses should be coalesced", Doc: "long doc", URL: "https://cudaperf.dev/checks/coalescing", Severity: Warning}}
	if err := WriteSARIF(&b, sample(), SARIFOptions{ToolVersion: "1.2.3", BaseDir: "/repo", Rules: rules}); err != nil {
		t.Fatal(err)
	}
	golden(t, "diags.sarif.golden", b.Bytes())
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || len(run.Results) != 3 {
		t.Fatalf("version %q, %d results", log.Version, len(run.Results))
	}
	for _, r := range run.Results {
		rule := run.Tool.Driver.Rules[r.RuleIndex]
		if rule.ID != r.RuleID {
			t.Errorf("result %s points at rule %s", r.RuleID, rule.ID)
		}
		if rule.FullDescription.Text == "" || rule.Help.Text == "" {
			t.Errorf("rule %s lacks fullDescription or help (GitHub requires them)", rule.ID)
		}
		al := r.Locations[0].PhysicalLocation.ArtifactLocation
		if al.URIBaseID != "%SRCROOT%" || al.URI[0] == '/' {
			t.Errorf("artifact %+v is not relative to %%SRCROOT%%", al)
		}
	}
}

func TestSARIFFingerprintIgnoresLineMoves(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "k.cu")
	d := Diagnostic{File: f, Line: 2, Column: 1, Severity: Warning, Check: "c", Message: "m"}
	print := func(src string, line int) string {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		d.Line = line
		var b bytes.Buffer
		if err := WriteSARIF(&b, []Diagnostic{d}, SARIFOptions{BaseDir: dir}); err != nil {
			t.Fatal(err)
		}
		var log sarifLog
		_ = json.Unmarshal(b.Bytes(), &log)
		return log.Runs[0].Results[0].PartialFingerprints["primaryLocationLineHash"]
	}
	a := print("x\n  a[i*32] = 0;\n", 2)
	b := print("// new comment\nx\n  a[i*32] = 0;\n", 3)
	c := print("x\n  a[i] = 0;\n", 2)
	if a != b {
		t.Errorf("fingerprint changed when the line moved: %s vs %s", a, b)
	}
	if a == c {
		t.Errorf("fingerprint did not change when the flagged line changed")
	}
}

func TestFeaturesCSVColumnOrder(t *testing.T) {
	rows := []KernelFeatures{
		{File: "a.cu", Kernel: "k", Features: map[string]float64{"coal": 1, "occ": 0.5, "zeta": 2, "alpha": 3}},
		{File: "a.cu", Kernel: "k2", Features: map[string]float64{"coal": 0.25}},
	}
	var b bytes.Buffer
	if err := WriteFeaturesCSV(&b, rows, []string{"coal", "occ"}); err != nil {
		t.Fatal(err)
	}
	want := "file,kernel,coal,occ,alpha,zeta\na.cu,k,1,0.5,3,2\na.cu,k2,0.25,,,\n"
	if b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestFailuresAreVisibleToMachines: a plugin failure is an element of the
// JSON array (check "plugin") and makes the SARIF invocation unsuccessful,
// with one notification each; without failures the invocation succeeded.
func TestFailuresAreVisibleToMachines(t *testing.T) {
	failures := []Failure{{Plugin: "p", Message: "plugin p crashed"}, {Plugin: "q", File: "/repo/a.cu", Message: "q died on a.cu"}}
	var b bytes.Buffer
	if err := WriteJSON(&b, sample(), failures); err != nil {
		t.Fatal(err)
	}
	var arr []Diagnostic
	if err := json.Unmarshal(b.Bytes(), &arr); err != nil {
		t.Fatal(err)
	}
	got := arr[len(arr)-2:]
	if got[0].Check != FailureCheck || got[0].Plugin != "p" || got[0].File != "" || got[0].Line != 0 || got[0].Severity != Error ||
		got[1].File != "/repo/a.cu" || got[1].Line != 1 || got[1].Message != "q died on a.cu" {
		t.Errorf("failures in JSON = %+v", got)
	}
	for _, tc := range []struct {
		failures []Failure
		ok       bool
	}{{nil, true}, {failures, false}} {
		b.Reset()
		if err := WriteSARIF(&b, sample(), SARIFOptions{BaseDir: "/repo", Failures: tc.failures}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Invocations []struct {
					ExecutionSuccessful        bool `json:"executionSuccessful"`
					ToolExecutionNotifications []struct {
						Level     string `json:"level"`
						Message   struct{ Text string }
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct{ URI string }
							}
						}
					} `json:"toolExecutionNotifications"`
				}
			}
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		inv := log.Runs[0].Invocations
		if len(inv) != 1 || inv[0].ExecutionSuccessful != tc.ok || len(inv[0].ToolExecutionNotifications) != len(tc.failures) {
			t.Fatalf("invocations = %+v, want successful=%v with %d notifications", inv, tc.ok, len(tc.failures))
		}
		if !tc.ok {
			n := inv[0].ToolExecutionNotifications
			if n[0].Level != "error" || n[0].Message.Text != "plugin p crashed" || len(n[0].Locations) != 0 ||
				n[1].Locations[0].PhysicalLocation.ArtifactLocation.URI != "a.cu" {
				t.Errorf("notifications = %+v", n)
			}
		}
	}
}

// An unknown feature has an empty cell, and its column exists even when no
// row knows it.
func TestFeaturesCSVUnknownCells(t *testing.T) {
	rows := []KernelFeatures{
		{File: "a.cu", Kernel: "k", Features: map[string]float64{"coal": 1}, Status: map[string]string{"coal": StatusExact, "blocks": StatusUnknown}},
	}
	var b bytes.Buffer
	if err := WriteFeaturesCSV(&b, rows, []string{"coal"}); err != nil {
		t.Fatal(err)
	}
	if want := "file,kernel,coal,blocks\na.cu,k,1,\n"; b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestSARIFColumnsAndEmptyRules: SARIF counts columns in UTF-16 code units
// (findings carry bytes: "é漢字" before a finding moved it 5 columns
// right) and says so; rules is an array when none is known (null failed
// the schema when a plugin failed before describing its checks).
func TestSARIFColumnsAndEmptyRules(t *testing.T) {
	dir := t.TempDir()
	src := "int x;\n  /* é漢字𝔸 */ if (i < n) out[i] = in[i * 32];\n"
	path := filepath.Join(dir, "utf.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Split(src, "\n")[1]
	byteCol := strings.Index(line, "in[i") + 1
	d := Diagnostic{File: path, Line: 2, Column: byteCol, EndLine: 2, EndColumn: byteCol + 10, Severity: Warning, Check: "coalescing", Message: "m"}
	var b bytes.Buffer
	if err := WriteSARIF(&b, []Diagnostic{d}, SARIFOptions{BaseDir: dir}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	// é, 漢, 字: one unit each (2, 3, 3 bytes); 𝔸: two units (4 bytes).
	want := byteCol - (1 + 2 + 2) - (4 - 2)
	if r := run.Results[0].Locations[0].PhysicalLocation.Region; run.ColumnKind != "utf16CodeUnits" || r.StartColumn != want || r.EndColumn != want+10 {
		t.Errorf("columnKind %q, columns %d-%d; want utf16CodeUnits, %d-%d", run.ColumnKind, r.StartColumn, r.EndColumn, want, want+10)
	}
	b.Reset()
	if err := WriteSARIF(&b, nil, SARIFOptions{BaseDir: dir}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"rules": []`) {
		t.Errorf("rules of a run without any is not an empty array:\n%s", b.String())
	}
}
