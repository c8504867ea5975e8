package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the configuration file cudaperf looks for.
const FileName = ".cudaperf.yaml"

// File is the decoded configuration.
type File struct {
	Version int     `yaml:"version"`
	Lint    Lint    `yaml:"lint"`
	Plugins Plugins `yaml:"plugins"`

	// Path is where the file was read from ("" for the defaults); Dir its folder.
	Path string `yaml:"-"`
}

// Lint configures `cudaperf lint`.
type Lint struct {
	Enable   []string                     `yaml:"enable"`
	Disable  []string                     `yaml:"disable"`
	FailOn   string                       `yaml:"fail-on"`
	Exclude  []string                     `yaml:"exclude"`
	Settings map[string]map[string]string `yaml:"settings"`
	// FailOnSet says the file gave fail-on (FailOn is "error" by default):
	// machine formats fail only when asked.
	FailOnSet bool `yaml:"-"`
}

// Plugins chooses the plugins every command uses, by name (as `cudaperf
// plugins list` shows them): with Enable, only those; never those in
// Disable. A plugin left out is not started. --plugins and --no-plugins
// override Enable and add to Disable.
type Plugins struct {
	Enable  []string `yaml:"enable"`
	Disable []string `yaml:"disable"`
}

// Default is the configuration used when no file exists.
func Default() *File { return &File{Version: 1, Lint: Lint{Enable: []string{"all"}, FailOn: "error"}} }

// Find walks up from dir to the filesystem root and returns the first
// .cudaperf.yaml, or "" when there is none.
func Find(dir string) string {
	dir, _ = filepath.Abs(dir)
	for {
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Load reads and strictly decodes a configuration file.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(path, b)
}

// Parse decodes configuration bytes; path is used in error messages.
func Parse(path string, b []byte) (*File, error) {
	f := Default()
	f.Version, f.Lint.Enable = 0, nil
	f.Lint.FailOn = ""
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("config: %s: %v (see `cudaperf lint --help` for the file's keys)", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	f.Path = path
	if f.Version != 1 {
		return nil, fmt.Errorf("config: %s: version %d is not supported: write `version: 1` at the top", path, f.Version)
	}
	if len(f.Lint.Enable) == 0 {
		f.Lint.Enable = []string{"all"}
	}
	f.Lint.FailOnSet = f.Lint.FailOn != ""
	if f.Lint.FailOn == "" {
		f.Lint.FailOn = "error"
	}
	switch f.Lint.FailOn {
	case "error", "warning", "note", "never":
	default:
		return nil, fmt.Errorf("config: %s: lint.fail-on is %q: use error, warning, note or never", path, f.Lint.FailOn)
	}
	for _, g := range f.Lint.Exclude {
		if _, err := filepath.Match(strings.ReplaceAll(g, "**", "*"), "x"); err != nil {
			return nil, fmt.Errorf("config: %s: lint.exclude pattern %q: %v", path, g, err)
		}
	}
	return f, nil
}

// Validate checks every check id the file names against the checks the
// installed analyzers provide. owners are the other names lint.settings
// may use: a plugin whose options belong to no check is keyed by its own
// name (plugins describe shows them as PLUGIN.NAME), which is no check to
// enable or disable.
func (f *File) Validate(known []string, owners ...string) error {
	check := func(field, id string) error {
		if id == "all" && field == "enable" {
			return nil
		}
		if slices.Contains(known, id) || field == "settings" && slices.Contains(owners, id) {
			return nil
		}
		sorted := slices.Clone(known)
		sort.Strings(sorted)
		return fmt.Errorf("config: %s: lint.%s names unknown check %q; known checks: %s (see `cudaperf explain`)",
			f.where(), field, id, strings.Join(sorted, ", "))
	}
	for _, id := range f.Lint.Enable {
		if err := check("enable", id); err != nil {
			return err
		}
	}
	for _, id := range f.Lint.Disable {
		if id == "syntax" {
			// Always reported (a file that does not parse has findings
			// nobody should trust); accepted here, it did nothing.
			return fmt.Errorf("config: %s: lint.disable: syntax cannot be turned off: a file that does not parse has no findings to trust; fix the file, or leave it out with lint.exclude", f.where())
		}
		if err := check("disable", id); err != nil {
			return err
		}
	}
	for id := range f.Lint.Settings {
		if err := check("settings", id); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) where() string {
	if f.Path == "" {
		return "defaults"
	}
	return f.Path
}

// Enabled reports whether a check's findings are reported.
func (f *File) Enabled(check string) bool {
	if slices.Contains(f.Lint.Disable, check) {
		return false
	}
	return slices.Contains(f.Lint.Enable, "all") || slices.Contains(f.Lint.Enable, check)
}

// Excluded reports whether a path is excluded from linting. Patterns are
// relative to the configuration file's folder; "**" matches any number of
// folders; a pattern that matches a folder ("third_party", "gen/" or
// "vendor/*") excludes everything under it, as it would in .gitignore
// (such a pattern excluded nothing).
func (f *File) Excluded(path string) bool {
	if len(f.Lint.Exclude) == 0 {
		return false
	}
	base := "."
	if f.Path != "" {
		base = filepath.Dir(f.Path)
	}
	abs, _ := filepath.Abs(path)
	absBase, _ := filepath.Abs(base)
	rel, err := filepath.Rel(absBase, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	parts := strings.Split(rel, "/")
	for _, g := range f.Lint.Exclude {
		g = strings.TrimSuffix(g, "/")
		// The path itself, then each folder above it.
		for i := len(parts); i >= 1; i-- {
			if globMatch(g, strings.Join(parts[:i], "/")) {
				return true
			}
		}
	}
	return false
}

// globMatch matches slash-separated paths where "**" spans folders.
func globMatch(pattern, path string) bool {
	if !strings.Contains(pattern, "**") {
		ok, _ := filepath.Match(pattern, path)
		return ok
	}
	pre, post, _ := strings.Cut(pattern, "**")
	if !strings.HasPrefix(path, pre) {
		return false
	}
	rest := strings.TrimPrefix(path, pre)
	post = strings.TrimPrefix(post, "/")
	if post == "" {
		return true
	}
	parts := strings.Split(rest, "/")
	for i := range parts {
		if globMatch(post, strings.Join(parts[i:], "/")) {
			return true
		}
	}
	return false
}

// Options flattens the settings for one check into the string map analyzer
// plugins receive ("min-ratio" → "2").
func (f *File) Options(check string) map[string]string { return f.Lint.Settings[check] }
