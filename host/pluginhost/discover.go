package pluginhost

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// PathEnv is the environment variable holding extra plugin folders.
const PathEnv = "CUDAPERF_PLUGIN_PATH"

var lookPath = exec.LookPath

// SearchPath returns the folders to search for plugins, in priority order:
// flagDirs (from --plugin-dir; each must exist), the colon-separated
// folders of envPath ($CUDAPERF_PLUGIN_PATH), and <folder of exe>/plugins.
// Folders from the environment or the default that do not exist are
// skipped; duplicates (after resolving symlinks) are dropped.
func SearchPath(flagDirs []string, envPath, exe string) ([]string, error) {
	var dirs []string
	seen := map[string]bool{}
	add := func(d string) {
		abs, err := filepath.Abs(d)
		if err != nil {
			return
		}
		key := abs
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			key = r
		}
		if !seen[key] {
			seen[key] = true
			dirs = append(dirs, abs)
		}
	}
	for _, d := range flagDirs {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("--plugin-dir %s: not a folder; give a folder that holds plugins (for example bin/plugins after make build)", d)
		}
		add(d)
	}
	for _, d := range strings.Split(envPath, string(os.PathListSeparator)) {
		if d == "" {
			continue
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			add(d)
		}
	}
	if exe != "" {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		d := filepath.Join(filepath.Dir(exe), "plugins")
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			add(d)
		}
	}
	return dirs, nil
}

// candidate is one plugin found on disk before its manifest is read.
type candidate struct {
	label    string // name used when the manifest cannot give one
	manifest string // path of the manifest, which may not exist
}

// scan lists the plugin candidates of one folder, sorted by name. A folder
// that holds a plugin.yaml is one plugin's own folder (--plugin-dir
// pointing at a plugin under development): it is that plugin alone, and
// its sub-folders (a Python plugin's lib/) are not plugins.
func scan(dir string) ([]candidate, error) {
	if own := filepath.Join(dir, ManifestFile); fileExists(own) {
		abs, _ := filepath.Abs(dir)
		return []candidate{{label: filepath.Base(abs), manifest: own}}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("plugin folder %s: %w", dir, err)
	}
	var out []candidate
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err == nil {
				isDir = fi.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, candidate{label: name, manifest: filepath.Join(p, ManifestFile)})
		case strings.HasSuffix(name, ManifestSuffix):
			out = append(out, candidate{label: strings.TrimSuffix(name, ManifestSuffix), manifest: p})
		}
		// Other files (a plugin's binary next to a NAME.plugin.yaml, notes)
		// are not plugins by themselves.
	}
	sort.Slice(out, func(i, j int) bool { return out[i].label < out[j].label })
	return out, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
