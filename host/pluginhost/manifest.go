package pluginhost

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/plugins/sdk"
)

// ManifestFile is the manifest's name inside a plugin folder; a manifest
// directly in a search folder is named NAME + ManifestSuffix.
const (
	ManifestFile   = "plugin.yaml"
	ManifestSuffix = ".plugin.yaml"
)

// Manifest is a parsed plugin.yaml.
type Manifest struct {
	Name        string   `yaml:"name" json:"name"`
	Kind        sdk.Kind `yaml:"kind" json:"kind"`
	Language    string   `yaml:"language" json:"language"`
	Protocol    int      `yaml:"protocol" json:"protocol"`
	Command     string   `yaml:"command" json:"command"`
	Args        []string `yaml:"args,omitempty" json:"args,omitempty"`
	Description string   `yaml:"description,omitempty" json:"description,omitempty"`

	// Path is the manifest file's absolute path (set by LoadManifest).
	Path string `yaml:"-" json:"path"`
}

// Dir is the folder relative commands and args are resolved against.
func (m *Manifest) Dir() string { return filepath.Dir(m.Path) }

var (
	nameRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)
	languageRE = regexp.MustCompile(`^[a-z0-9][a-z0-9+#._-]*$`)
)

// LoadManifest reads and validates the manifest at path. Errors name the
// file and say how to fix it.
func LoadManifest(path string) (*Manifest, error) {
	m, err := loadManifest(path)
	if err != nil {
		return m, fmt.Errorf("plugin manifest %s: %w", path, err)
	}
	return m, nil
}

// loadManifest is LoadManifest without the path in the error, for callers
// that report the path themselves. On a validation error it also returns
// what could be parsed, so the plugin can be named.
func loadManifest(path string) (*Manifest, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	m, err := parseManifest(data)
	if m != nil {
		m.Path = abs
	}
	return m, err
}

func parseManifest(data []byte) (*Manifest, error) {
	var m Manifest
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("file is empty; it needs name, kind, language, protocol and command")
		}
		return nil, fmt.Errorf("not a valid manifest: %v (keys are name, kind, language, protocol, command, args, description)", err)
	}
	var problems []string
	if !nameRE.MatchString(m.Name) {
		problems = append(problems, fmt.Sprintf("name %q must match %s", m.Name, nameRE))
	}
	if !m.Kind.Valid() {
		problems = append(problems, fmt.Sprintf("kind %q must be one of %s", m.Kind, kindList()))
	}
	if !languageRE.MatchString(m.Language) {
		problems = append(problems, fmt.Sprintf("language %q must be a lower-case word such as go or python", m.Language))
	}
	switch {
	case m.Protocol == 0:
		problems = append(problems, fmt.Sprintf("protocol is missing; plugins for this cudaperf say protocol: %d", sdk.ProtocolVersion))
	case m.Protocol != sdk.ProtocolVersion:
		problems = append(problems, fmt.Sprintf("protocol %d is not supported: this cudaperf speaks plugin protocol %d; install a build of the plugin for protocol %d, or a cudaperf that speaks %d",
			m.Protocol, sdk.ProtocolVersion, sdk.ProtocolVersion, m.Protocol))
	}
	if strings.TrimSpace(m.Command) == "" {
		problems = append(problems, "command is missing; name the plugin's executable, relative to the manifest's folder")
	}
	if len(problems) > 0 {
		return &m, errors.New(strings.Join(problems, "; "))
	}
	return &m, nil
}

func kindList() string {
	s := make([]string, len(sdk.Kinds))
	for i, k := range sdk.Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// resolveCommand finds the executable a manifest names: a path (relative to
// the manifest's folder) when it has a slash or exists in that folder, a
// name on $PATH otherwise.
func (m *Manifest) resolveCommand() (string, error) {
	c := m.Command
	if filepath.IsAbs(c) {
		return c, checkExecutable(c)
	}
	local := filepath.Join(m.Dir(), c)
	if strings.ContainsRune(c, '/') {
		return local, checkExecutable(local)
	}
	if _, err := os.Stat(local); err == nil {
		return local, checkExecutable(local)
	}
	p, err := lookPath(c)
	if err != nil {
		how := "build the plugin (make build installs the built-in plugins in bin/plugins, make examples the examples)"
		if gos, _ := filepath.Glob(filepath.Join(m.Dir(), "*.go")); len(gos) > 0 {
			// --plugin-dir at a Go plugin's source folder: make build
			// never puts a binary there.
			how = fmt.Sprintf("this is the plugin's source folder: build it there (go build -o %s .), or install it (make examples for the examples) and point --plugin-dir at the installed folder", c)
		}
		if m.Language == "python" {
			// A Python plugin's source folder has main.py, not the
			// launcher its manifest names.
			how = "install the plugin from its source with plugins/python/install.sh SRC DEST (it writes the launcher)"
		}
		return "", fmt.Errorf("command %q is neither in %s nor on $PATH; %s, or fix command in %s", c, m.Dir(), how, m.Path)
	}
	return p, nil
}

func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("command %s does not exist; build the plugin (make build) or fix command in the manifest", path)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return fmt.Errorf("command %s is not an executable file; chmod +x it or fix command in the manifest", path)
	}
	return nil
}
