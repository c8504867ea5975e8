package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseStrict(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, wantErr string
	}{
		{"unknown key", "version: 1\nlint:\n  enabel: [x]\n", "field enabel not found"},
		{"wrong type", "version: 1\nlint:\n  disable: 3\n", "cannot unmarshal"},
		{"bad version", "version: 2\n", "version 2 is not supported"},
		{"missing version", "lint: {}\n", "version 0 is not supported"},
		{"bad fail-on", "version: 1\nlint:\n  fail-on: sometimes\n", "use error, warning, note or never"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("p/.cudaperf.yaml", []byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "p/.cudaperf.yaml") {
				t.Errorf("err = %v, want it to name the file and contain %q", err, tc.wantErr)
			}
		})
	}
}

func TestEnabledAndValidate(t *testing.T) {
	f, err := Parse("c.yaml", []byte("version: 1\nlint:\n  disable: [tpb]\n  settings:\n    coalescing: {min-ratio: \"2\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Lint.FailOn != "error" || !f.Enabled("coalescing") || f.Enabled("tpb") {
		t.Errorf("defaults/enabled wrong: %+v", f.Lint)
	}
	if f.Options("coalescing")["min-ratio"] != "2" {
		t.Errorf("settings not decoded: %+v", f.Lint.Settings)
	}
	if err := f.Validate([]string{"coalescing", "tpb"}); err != nil {
		t.Errorf("Validate: %v", err)
	}
	err = f.Validate([]string{"coalescing"})
	if err == nil || !strings.Contains(err.Error(), `unknown check "tpb"`) || !strings.Contains(err.Error(), "known checks: coalescing") {
		t.Errorf("Validate with unknown check: %v", err)
	}
	// A plugin's options that belong to no check are set under its name,
	// which is no check to disable.
	own, _ := Parse("c.yaml", []byte("version: 1\nlint:\n  settings:\n    optplug: {n: \"2\"}\n"))
	if err := own.Validate([]string{"coalescing"}, "optplug"); err != nil {
		t.Errorf("settings of a plugin's own options: %v", err)
	}
	owned, _ := Parse("c.yaml", []byte("version: 1\nlint:\n  disable: [optplug]\n"))
	if err := owned.Validate([]string{"coalescing"}, "optplug"); err == nil {
		t.Error("disable: [optplug], a plugin's name, was accepted as a check")
	}
	// syntax is always reported: disabling it did nothing, without a word.
	syn, _ := Parse("c.yaml", []byte("version: 1\nlint:\n  disable: [syntax]\n"))
	if err := syn.Validate([]string{"syntax"}); err == nil || !strings.Contains(err.Error(), "syntax cannot be turned off") {
		t.Errorf("disable: [syntax]: %v", err)
	}
	only, _ := Parse("c.yaml", []byte("version: 1\nlint:\n  enable: [coalescing]\n"))
	if !only.Enabled("coalescing") || only.Enabled("divergence") {
		t.Errorf("enable list not honoured")
	}
}

func TestFindAndExclude(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, FileName)
	if err := os.WriteFile(p, []byte("version: 1\nlint:\n  exclude: [\"third_party/**\", \"*.gen.cu\", \"vendor\", \"gen/\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(sub); got != p {
		t.Fatalf("Find = %q, want %q", got, p)
	}
	f, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		filepath.Join(root, "third_party", "x", "k.cu"): true,
		filepath.Join(root, "k.gen.cu"):                 true,
		filepath.Join(root, "src", "k.cu"):              false,
		filepath.Join(root, "src", "k.gen.cu"):          false,
		// Folder names exclude what is under them (they excluded nothing).
		filepath.Join(root, "vendor", "a", "k.cu"): true,
		filepath.Join(root, "gen", "k.cu"):         true,
		filepath.Join(root, "src", "vendor.cu"):    false,
		filepath.Join(root, "src", "gen", "k.cu"):  false, // anchored at the config's folder, as every pattern is
	} {
		if f.Excluded(path) != want {
			t.Errorf("Excluded(%s) = %v, want %v", path, !want, want)
		}
	}
}

func TestPluginsSection(t *testing.T) {
	f, err := Parse("c.yaml", []byte("version: 1\nplugins:\n  enable: [cudaperf-analyzer, textcount]\n  disable: [synccount-py]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Plugins.Enable) != 2 || f.Plugins.Enable[1] != "textcount" || len(f.Plugins.Disable) != 1 || f.Plugins.Disable[0] != "synccount-py" {
		t.Errorf("plugins = %+v", f.Plugins)
	}
	if _, err := Parse("c.yaml", []byte("version: 1\nplugins:\n  only: [x]\n")); err == nil || !strings.Contains(err.Error(), "only") {
		t.Errorf("unknown key under plugins: err = %v", err)
	}
}
