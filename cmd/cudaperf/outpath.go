package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cudaperf/cudaperf/analysis/device"
)

// checkOutFile refuses, before any work starts, an output path that the
// command could not write at the end: a folder, or a file in a folder that
// is missing or not writable. Without it an evaluation or a training run
// of minutes to hours did all its work and then lost it to a typo.
func checkOutFile(flag, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageErrorf("--%s %s is a folder: give a file name, e.g. --%s %s", flag, path, flag, filepath.Join(path, "out"+filepath.Ext(path)))
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return usageErrorf("--%s %s: folder %s does not exist: create it (mkdir -p %s) or write elsewhere", flag, path, dir, dir)
	}
	f, err := os.CreateTemp(dir, ".cudaperf-write-check-*")
	if err != nil {
		return usageErrorf("--%s %s: cannot write in %s: %v", flag, path, dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath is err without its *PathError's path (the message names it).
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// isNoGPU reports whether err says the benchmarker found no GPU. It
// reaches the host as a plugin's message, so the text is what is compared.
func isNoGPU(err error) bool {
	return err != nil && strings.Contains(err.Error(), device.ErrNoGPU.Error())
}

// noGPUHint adds to an error that says the benchmarker found no GPU how to
// go on without one (fix names the flag or key that picks the recorded
// benchmarker); other errors are returned unchanged.
func noGPUHint(err error, fix string) error {
	if !isNoGPU(err) {
		return err
	}
	return fmt.Errorf("%w; on a machine without a GPU, %s answers from recorded measurements", err, fix)
}
