package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cudaperf/cudaperf/analysis/driver"
	"github.com/cudaperf/cudaperf/analysis/pysource"
	"github.com/cudaperf/cudaperf/host/config"
)

// MaxFileSize is the largest file lint reads: the driver's limit, checked
// here before reading so that a stray huge file is never loaded into memory
// or shipped to the plugins.
const MaxFileSize = driver.DefaultMaxFileSize

// Input is one file to analyze.
type Input struct {
	Path    string
	Content []byte
	// Embedded is set for a Python file: Content is then the CUDA found in
	// its strings (load_inline's cuda_sources, __global__ kernels), and
	// findings are mapped back to the Python lines and columns.
	Embedded *pysource.Source
}

// PythonInput is the input for a Python file's source b: the CUDA in its
// strings, with the map back to the Python file; false when it holds none.
func PythonInput(path string, b []byte) (Input, bool) {
	s := pysource.Extract(b)
	if s == nil {
		return Input{}, false
	}
	return Input{Path: path, Content: s.CUDA, Embedded: s}, true
}

// InputError is a path that could not be read; it names the path and the fix.
type InputError struct {
	Path string
	Err  string
}

func (e *InputError) Error() string { return fmt.Sprintf("%s: %s", e.Path, e.Err) }

// Collect expands the command-line paths into files: directories are walked
// as driver.Collect does (.cu and .cuh files, hidden folders skipped),
// minus the paths the config excludes; files named explicitly are always
// read. An unreadable, missing or oversized path becomes an InputError
// and the other paths are still collected.
func Collect(paths []string, cfg *config.File) ([]Input, []*InputError) {
	var inputs []Input
	var errs []*InputError
	seen := map[string]bool{}
	add := func(p string, explicit bool) {
		clean := filepath.Clean(p)
		if seen[clean] || (!explicit && cfg != nil && cfg.Excluded(clean)) {
			return
		}
		seen[clean] = true
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &InputError{Path: p, Err: describe(err)})
			return
		}
		if !explicit && !st.Mode().IsRegular() {
			// Reading a named pipe found in a folder waits for a writer
			// that may never come; one named on the command line (bash's
			// <(...)) is read, as the user asked.
			errs = append(errs, &InputError{Path: p, Err: fmt.Sprintf("not a regular file (%s): skipped; name it on the command line to read it", st.Mode().Type())})
			return
		}
		if st.Size() > MaxFileSize {
			errs = append(errs, &InputError{Path: p, Err: fmt.Sprintf("file is %d MB, over the %d MB limit: lint the sources it was generated from, or exclude it in .cudaperf.yaml", st.Size()>>20, MaxFileSize>>20)})
			return
		}
		b, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, &InputError{Path: p, Err: describe(err)})
			return
		}
		if filepath.Ext(p) == ".py" {
			in, ok := PythonInput(p, b)
			if !ok {
				errs = append(errs, &InputError{Path: p, Err: "no CUDA found: cudaperf lints the strings a Python file passes to load_inline's cuda_sources (directly or through a NAME = \"\"\"...\"\"\" assignment) and strings that declare a __global__ function"})
				return
			}
			inputs = append(inputs, in)
			return
		}
		inputs = append(inputs, Input{Path: p, Content: b})
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &InputError{Path: p, Err: describe(err)})
			continue
		}
		if !st.IsDir() {
			add(p, true)
			continue
		}
		// The walk (extensions, hidden folders, order) is the driver's, so
		// lint and in-process analysis see the same files.
		found := driver.Collect([]string{p})
		if len(found) == 0 {
			errs = append(errs, &InputError{Path: p, Err: "directory holds no .cu or .cuh files: name the files to lint"})
		}
		for _, f := range found {
			add(f, false)
		}
	}
	return inputs, errs
}

func describe(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file or directory: check the path"
	case os.IsPermission(err):
		return "permission denied: make the file readable"
	}
	var pe *fs.PathError
	if e, ok := err.(*fs.PathError); ok {
		pe = e
		return pe.Err.Error()
	}
	return err.Error()
}
