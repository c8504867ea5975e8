package driver

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// SourceExts are the file extensions Collect takes from directories.
var SourceExts = []string{".cu", ".cuh"}

// Collect expands the paths a user named: a directory becomes the CUDA
// sources under it (SourceExts, sorted, skipping hidden directories), and
// every other path is kept as given, so that a missing path reaches
// RunFiles and is reported there next to the files that were analysed. A
// directory that cannot be walked is kept too, for the same reason.
func Collect(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.IsDir() {
			add(p)
			continue
		}
		var found []string
		walkErr := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				found = append(found, path) // reported by RunFile
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != p && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			for _, ext := range SourceExts {
				if strings.HasSuffix(path, ext) {
					found = append(found, path)
					break
				}
			}
			return nil
		})
		if walkErr != nil {
			add(p)
		}
		sort.Strings(found)
		for _, f := range found {
			add(f)
		}
	}
	return out
}
