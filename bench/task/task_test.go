package task

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMalformed checks that each file under testdata/bad is rejected with
// the error its first line ("# want: ...") names, including the file path.
func TestMalformed(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(data), "\n")
			want, ok := strings.CutPrefix(first, "# want: ")
			if !ok {
				t.Fatalf("first line must be '# want: <error text>'")
			}
			folder := strings.TrimSuffix(filepath.Base(path), ".yaml")
			tk, err := Parse(path, data)
			if err == nil {
				err = tk.Validate(path, folder)
			}
			if err == nil {
				t.Fatalf("accepted; want error containing %q", want)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, want)
			}
			if !strings.Contains(err.Error(), path+": ") {
				t.Errorf("error does not name the file %s:\n%v", path, err)
			}
		})
	}
}

func TestLoadSelftest(t *testing.T) {
	tk, err := Load("../suites/selftest/saxpy")
	if err != nil {
		t.Fatal(err)
	}
	if tk.Suite != "selftest" || len(tk.Variants) != 2 || tk.Primary() != 4 {
		t.Errorf("suite %q, %d variants, primary %d; want selftest, 2, 4", tk.Suite, len(tk.Variants), tk.Primary())
	}
	r, err := tk.Resolve(1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len["z"] != 31 || r.Scalars["alpha"] != "-1.5f" || r.Scalars["n"] != "31" || r.Bytes != 3*4*31 || r.Flops != 62 {
		t.Errorf("resolved %+v", r)
	}
	if d := r.Dists["y"]; d.Kind != "normal" || d.A != 0 || d.B != 1 {
		t.Errorf("dist of y = %+v, want normal(0, 1)", d)
	}

	h, err := Load("../suites/selftest/histogram")
	if err != nil {
		t.Fatal(err)
	}
	r, err = h.Resolve(1) // few: nbins 7, randint max "nbins-1"
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Dists["data"]; d.Kind != "randint" || d.A != 0 || d.B != 6 {
		t.Errorf("dist of data = %+v, want randint [0, 6]", d)
	}
}

func TestLoadMissingFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "saxpy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../suites/selftest/saxpy/task.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, File), data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir)
	for _, want := range []string{"reference.c: missing", "variants: no variants/*.cu"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load without files: %v; want %q", err, want)
		}
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "task.yaml: missing") {
		t.Errorf("Load of an empty folder: %v", err)
	}
}

func TestExpr(t *testing.T) {
	env := map[string]int64{"n": 10, "m": 3, "bins": 256}
	for src, want := range map[string]int64{
		"n":            10,
		"3*4*n":        120,
		"n/m":          3,
		"-n/m":         -3,
		"n%m":          1,
		"(n+2)*(m-1)":  24,
		"min(n, m)":    3,
		"max(n,m*4)":   12,
		"bins-1":       255,
		"n - -m":       13,
		"2*max(1,n/4)": 4,
	} {
		e, err := ParseExpr(src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if got, err := e.Eval(env); err != nil || got != want {
			t.Errorf("%q = %d, %v; want %d", src, got, err, want)
		}
	}
	for src, want := range map[string]string{
		"":                      "empty",
		"n +":                   "unexpected end",
		"n ** 2":                "unexpected \"*\"",
		"min(n)":                "two arguments",
		"(n":                    "missing )",
		"n/0":                   "division by zero",
		"q":                     "unknown name q",
		"9223372036854775807+1": "overflow",
		"4294967296*4294967296": "overflow",
		"n 3":                   "unexpected \"3\"",
	} {
		e, err := ParseExpr(src)
		if err == nil {
			_, err = e.Eval(env)
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

func TestSignature(t *testing.T) {
	tk := &Task{Entry: "f", Params: []Param{
		{Name: "a", Type: Uint8, Role: In}, {Name: "b", Type: Int64, Role: InOut},
		{Name: "c", Type: Uint32, Role: Out}, {Name: "s", Type: Float64, Role: Scalar},
	}}
	want := "void f(const unsigned char *a, long long *b, unsigned int *c, double s)"
	if got := tk.GenerateSignature(); got != want {
		t.Errorf("GenerateSignature = %q, want %q", got, want)
	}
	if normalizeSignature("void  f( const unsigned char* a,long long * b, unsigned int *c , double s );") != normalizeSignature(want) {
		t.Error("whitespace variants of the signature should compare equal")
	}
}

func TestCLiteral(t *testing.T) {
	for _, c := range []struct {
		d    DType
		raw  string
		want string
	}{
		{Float32, "3", "3.0f"}, {Float32, "0.1", "0.1f"}, {Float64, "1e-7", "1e-07"},
		{Int64, "5", "5LL"}, {Uint32, "7", "7u"}, {Int32, "-2", "-2"},
	} {
		f, _ := Number(c.raw).Float()
		got, err := cLiteral(c.d, Number(c.raw), f)
		if err != nil || got != c.want {
			t.Errorf("cLiteral(%s, %s) = %q, %v; want %q", c.d, c.raw, got, err, c.want)
		}
	}
	if _, err := cLiteral(Uint8, "300", 300); err == nil {
		t.Error("300 accepted as uint8")
	}
}
