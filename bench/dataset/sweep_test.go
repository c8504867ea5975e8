package dataset

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestTemplateInstancesFollowDeclarationsAndConstraints(t *testing.T) {
	tp, err := ParseTemplate("testdata/sweep/ok/sweeps/tiled.cu")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tp.Instances()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		got = append(got, in.File)
	}
	// 3 × 3 combinations minus 256×4 (1024 > 512), first parameter slowest.
	want := []string{
		"sw_tiled_block64_items1.cu", "sw_tiled_block64_items2.cu", "sw_tiled_block64_items4.cu",
		"sw_tiled_block128_items1.cu", "sw_tiled_block128_items2.cu", "sw_tiled_block128_items4.cu",
		"sw_tiled_block256_items1.cu", "sw_tiled_block256_items2.cu",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("instances:\n got %v\nwant %v", got, want)
	}
}

func TestInstanceSourceGolden(t *testing.T) {
	tp, err := ParseTemplate("testdata/sweep/ok/sweeps/tiled.cu")
	if err != nil {
		t.Fatal(err)
	}
	ins, _ := tp.Instances()
	var in Instance
	for _, x := range ins {
		if x.File == "sw_tiled_block128_items4.cu" {
			in = x
		}
	}
	got := in.Source()
	golden := "testdata/sweep/sw_tiled_block128_items4.cu.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("instance differs from %s (go test -run Golden -update to accept):\n%s", golden, got)
	}
	// Deterministic: a second parse gives the same bytes.
	tp2, _ := ParseTemplate("testdata/sweep/ok/sweeps/tiled.cu")
	ins2, _ := tp2.Instances()
	if string(ins2[5].Source()) != string(got) {
		t.Error("second instantiation differs from the first")
	}
	p := Params(got)
	if p["BLOCK"] != "128" || p["ITEMS"] != "4" || len(p) != 2 {
		t.Errorf("Params = %v, want BLOCK=128 ITEMS=4", p)
	}
	if Params([]byte("__global__ void k() {}\n")) != nil {
		t.Error("a hand-written file has no parameters")
	}
}

func TestBadTemplatesAreRejectedWithTheFix(t *testing.T) {
	for file, want := range map[string]string{
		"unused.cu":      "parameter PAD is declared but the code never uses it",
		"badvalue.cu":    `value "12 8" of BLOCK`,
		"norequireop.cu": "no comparison",
		"unknownname.cu": "names ITEMS, which is not a declared parameter",
		"excludesall.cu": "exclude every combination",
		"redefined.cu":   "the body #defines BLOCK",
		"typo.cu":        "unknown directive",
		"typeparam.cu":   "whose values are not all integers",
		"nostrategy.cu":  "first line must be",
	} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("testdata/sweep/bad", file)
			tp, err := ParseTemplate(path)
			if err == nil {
				_, err = tp.Instances()
			}
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error = %v, want one naming %s and saying %q", err, path, want)
			}
		})
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

func TestExpandWritesChecksAndRemovesStaleInstances(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, "testdata/sweep/ok", dir)
	plan, err := Expand(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Written) != 8 || plan.Unchanged != 0 {
		t.Fatalf("check on a fresh task: %+v, want 8 to write", plan)
	}
	if _, err := os.Stat(filepath.Join(dir, "variants", "sw_tiled_block64_items1.cu")); err == nil {
		t.Fatal("check mode wrote a file")
	}
	if _, err := Expand(dir, false); err != nil {
		t.Fatal(err)
	}
	plan, err = Expand(dir, true)
	if err != nil || plan.Changed() || plan.Unchanged != 8 {
		t.Fatalf("after expand: %+v, %v; want nothing to change", plan, err)
	}
	// A hand edit of an instance is undone; the hand-written variant stays.
	inst := filepath.Join(dir, "variants", "sw_tiled_block64_items1.cu")
	os.WriteFile(inst, []byte("// strategy: x\n"+generatedMarker+" (edited)\n"), 0o644)
	if plan, _ = Expand(dir, true); len(plan.Written) != 1 {
		t.Fatalf("edited instance not detected: %+v", plan)
	}
	// Narrowing the template removes the instances it no longer makes.
	tmpl := filepath.Join(dir, "sweeps", "tiled.cu")
	src, _ := os.ReadFile(tmpl)
	os.WriteFile(tmpl, []byte(strings.Replace(string(src), "BLOCK = 64, 128, 256", "BLOCK = 128, 256", 1)), 0o644)
	plan, err = Expand(dir, false)
	if err != nil || len(plan.Removed) != 3 {
		t.Fatalf("narrowed template: %+v, %v; want the 3 BLOCK=64 instances removed", plan, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "variants", "naive.cu")); err != nil {
		t.Fatal("hand-written variant was touched")
	}
	// A hand-written file with a generated name is never overwritten.
	os.WriteFile(filepath.Join(dir, "variants", "sw_tiled_block128_items1.cu"), []byte("// mine\n"), 0o644)
	if _, err := Expand(dir, false); err == nil || !strings.Contains(err.Error(), "hand-written variant has the name") {
		t.Fatalf("collision with a hand-written file: %v", err)
	}
}

// TestSuiteInstancesAreUpToDate fails when a committed sweep template and
// its committed instances disagree: run `cudaperf dataset expand`.
func TestSuiteInstancesAreUpToDate(t *testing.T) {
	dirs := TaskDirs("../suites/c2cuda")
	if len(dirs) == 0 {
		t.Fatal("no tasks found in ../suites/c2cuda")
	}
	for _, d := range dirs {
		plan, err := Expand(d, true)
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		if plan.Changed() {
			t.Errorf("%s: instances out of date with sweeps/ (write %v, remove %v): run `bin/cudaperf dataset expand bench/suites/c2cuda`", d, plan.Written, plan.Removed)
		}
	}
}

// The c2cuda templates use identifier values (types), % and products in
// constraints; the rich template has each.
func richInstances(t *testing.T) (*Template, []Instance) {
	t.Helper()
	tp, err := ParseTemplate("testdata/sweep/rich/sweeps/reduce.cu")
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tp.Instances()
	if err != nil {
		t.Fatal(err)
	}
	return tp, ins
}

func TestTemplateWithTypeValuesAndDivisibility(t *testing.T) {
	_, ins := richInstances(t)
	// (BLOCK, VEC, ACC) meeting BLOCK % (VEC*ACC) == 0 and BLOCK*VEC*ACC <= 256,
	// counted by hand: BLOCK 32: VEC*ACC in {1, 2, 4, 4, 8} (ACC 3 never divides);
	// BLOCK 64: VEC*ACC <= 4: {1, 2, 4, 4}; BLOCK 128: VEC*ACC <= 2: {1, 2}.
	// 11 triples, each with ACCT float and double.
	if len(ins) != 22 {
		var got []string
		for _, in := range ins {
			got = append(got, in.File)
		}
		t.Fatalf("%d instances, want 22: %v", len(ins), got)
	}
	for _, in := range ins {
		src := string(in.Source())
		p := Params(in.Source())
		b, v, a := atoi(t, p["BLOCK"]), atoi(t, p["VEC"]), atoi(t, p["ACC"])
		if b%(v*a) != 0 || b*v*a > 256 || a == 3 {
			t.Errorf("%s violates a sweep-require", in.File)
		}
		// Every parameter reaches the code as a #define of its value.
		for _, name := range []string{"BLOCK", "VEC", "ACC", "ACCT"} {
			if !strings.Contains(src, "\n#define "+name+" "+p[name]+"\n") {
				t.Errorf("%s: no `#define %s %s`", in.File, name, p[name])
			}
		}
		if p["ACCT"] != "float" && p["ACCT"] != "double" {
			t.Errorf("%s: ACCT = %q", in.File, p["ACCT"])
		}
		if !strings.Contains(in.File, "_acct"+p["ACCT"]) {
			t.Errorf("file name %s does not carry ACCT=%s", in.File, p["ACCT"])
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not an integer", s)
	}
	return n
}

func TestSampleKeepsCornersAndExtremesAndIsStable(t *testing.T) {
	tp, ins := richInstances(t)
	s := Sample(ins, 4)
	if s[0].File != ins[0].File || s[len(s)-1].File != ins[len(ins)-1].File {
		t.Errorf("sample %v lacks the first or last instance", files(s))
	}
	for p, param := range tp.Params {
		for _, v := range []string{param.Values[0], param.Values[len(param.Values)-1]} {
			found := false
			for _, in := range s {
				found = found || in.Values[p] == v
			}
			if !found {
				t.Errorf("sample %v has no instance with %s = %s", files(s), param.Name, v)
			}
		}
	}
	if len(s) < 4 || len(s) > len(ins) {
		t.Errorf("sample of %d", len(s))
	}
	_, again := richInstances(t)
	if strings.Join(files(Sample(again, 4)), " ") != strings.Join(files(s), " ") {
		t.Error("the sample differs between two runs")
	}
	if len(Sample(ins, 0)) != len(ins) || len(Sample(ins, len(ins))) != len(ins) {
		t.Error("k <= 0 or k >= len must keep every instance")
	}
	big := Sample(ins, 12)
	if len(big) != 12 {
		t.Errorf("Sample(22 instances, 12) kept %d", len(big))
	}
	for _, in := range s {
		if !slices.Contains(files(big), in.File) {
			t.Errorf("%s is in the sample of 4 but not of 12: the fill order is not by hash", in.File)
		}
	}
}

func files(ins []Instance) []string {
	var out []string
	for _, in := range ins {
		out = append(out, in.File)
	}
	return out
}

func TestSampleFilesCoversEveryTemplate(t *testing.T) {
	all, err := SampleFiles("testdata/sweep/ok", 0)
	if err != nil || len(all) != 8 {
		t.Fatalf("SampleFiles(all) = %d files, %v; want the 8 instances", len(all), err)
	}
	some, err := SampleFiles("testdata/sweep/ok", 2)
	if err != nil || len(some) < 2 || len(some) >= 8 || !some["sw_tiled_block64_items1.cu"] || !some["sw_tiled_block256_items2.cu"] {
		t.Fatalf("SampleFiles(2) = %v, %v; want the corners and the extremes only", some, err)
	}
	if Generated([]byte("// strategy: x\n__global__ void k() {}\n")) {
		t.Error("a hand-written file counts as generated")
	}
}

// TestAsExample: a generated instance loses exactly its generator note and
// parameter line; a hand-written file is unchanged.
func TestAsExample(t *testing.T) {
	src, err := os.ReadFile("testdata/sweep/sw_tiled_block128_items4.cu.golden")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	want := lines[0] + strings.Join(lines[3:], "")
	got := string(AsExample(src))
	if got != want {
		t.Errorf("AsExample:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "cudaperf") || !strings.Contains(got, "#define BLOCK 128") || !Generated(src) {
		t.Errorf("AsExample kept a bookkeeping line or lost a #define:\n%s", got)
	}
	hand := []byte("// strategy: naive\n// Code generated by hand, not by the tool\n__global__ void k() {}\n")
	if string(AsExample(hand)) != string(hand) || Generated(hand) {
		t.Errorf("a hand-written file changed or counts as generated")
	}
}
