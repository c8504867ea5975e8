package buildctx

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	got := Split(`nvcc -DNAME="a b" -I 'inc dir' -DX=\"s\" -c k.cu`)
	want := []string{"nvcc", "-DNAME=a b", "-I", "inc dir", `-DX="s"`, "-c", "k.cu"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Split = %q, want %q", got, want)
	}
}

func TestPreprocessor(t *testing.T) {
	got := Preprocessor([]string{"nvcc", "-arch=sm_90", "-DWARP_SIZE=32", "-D", "USE_FAST", "--define-macro=TILE=16",
		"-Iinc", "-I", "/abs", "--include-path", "rel", "-isystem", "sys", "-UOLD", "-O3", "-o", "k.o", "-c", "k.cu"}, "/build")
	want := []string{"-DWARP_SIZE=32", "-DUSE_FAST", "-DTILE=16", "-I/build/inc", "-I/abs", "-I/build/rel", "-I/build/sys", "-UOLD"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Preprocessor = %q, want %q", got, want)
	}
}

func TestFindAndLoad(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src", "kernels")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	db := `[{"directory": "` + root + `/build", "file": "../src/kernels/k.cu", "command": "nvcc -DWARP_SIZE=32 -I../include -c ../src/kernels/k.cu"},
	        {"directory": "` + root + `", "file": "` + root + `/src/kernels/j.cu", "arguments": ["nvcc", "-D", "TILE=8", "-c", "src/kernels/j.cu"]}]`
	if err := os.WriteFile(filepath.Join(root, "build", FileName), []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	// Found from the source folder, in build/ of an ancestor, as clangd does.
	p := Find(src)
	if p != filepath.Join(root, "build", FileName) {
		t.Fatalf("Find = %q", p)
	}
	d, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Flags(filepath.Join(src, "k.cu")), []string{"-DWARP_SIZE=32", "-I" + filepath.Join(root, "include")}; !reflect.DeepEqual(got, want) {
		t.Errorf("k.cu flags = %q, want %q", got, want)
	}
	if got := d.Flags(filepath.Join(src, "j.cu")); !reflect.DeepEqual(got, []string{"-DTILE=8"}) {
		t.Errorf("j.cu flags = %q", got)
	}
	if got := d.Flags(filepath.Join(src, "other.cu")); got != nil {
		t.Errorf("a file outside the database got %q", got)
	}
	if Find(t.TempDir()) != "" {
		t.Error("found a database where there is none")
	}
	bad := filepath.Join(root, "bad.json")
	os.WriteFile(bad, []byte("{"), 0o644)
	if _, err := Load(bad); err == nil {
		t.Error("a malformed database loaded")
	}
}

func TestAbsolute(t *testing.T) {
	got := Absolute([]string{"nvcc", "-Iinc", "-I", "b", "-I/abs", "-isystemsys", "--include-path=p", "-arch=sm_90", "-o", "out"}, "/w")
	want := []string{"nvcc", "-I/w/inc", "-I", "/w/b", "-I/abs", "-isystem/w/sys", "--include-path=/w/p", "-arch=sm_90", "-o", "out"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Absolute = %q, want %q", got, want)
	}
}

// TestRelativeDirectory: an entry whose directory is relative (some
// generators write "." or "build") is taken against the database's folder,
// as clang's reader does; it matched no file before, so its flags were
// silently lost.
func TestRelativeDirectory(t *testing.T) {
	root := t.TempDir()
	db := `[{"directory": ".", "file": "../src/k.cu", "command": "nvcc -DTILE=16 -I../include -c ../src/k.cu"}]`
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "build", FileName)
	if err := os.WriteFile(p, []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Flags(filepath.Join(root, "src", "k.cu")), []string{"-DTILE=16", "-I" + filepath.Join(root, "include")}; !reflect.DeepEqual(got, want) {
		t.Errorf("flags = %q, want %q", got, want)
	}
}
