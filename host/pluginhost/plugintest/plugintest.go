package plugintest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/cudaperf/cudaperf/host/pluginhost"
)

var (
	rootOnce sync.Once
	root     string
	rootErr  error
)

// ModuleRoot returns the repository root (the folder of go.mod).
func ModuleRoot(t testing.TB) string {
	t.Helper()
	rootOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			rootErr = err
			return
		}
		root = filepath.Dir(strings.TrimSpace(string(out)))
	})
	if rootErr != nil || root == "" || root == "." {
		t.Fatalf("plugintest: cannot find the module root (go env GOMOD): %v", rootErr)
	}
	return root
}

// BuildGo builds the Go main package pkg (a path relative to the module
// root, e.g. "plugins/examples/textcount") into dir and returns the
// executable's path.
func BuildGo(t testing.TB, pkg, dir string) string {
	t.Helper()
	r := ModuleRoot(t)
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, "./"+pkg)
	cmd.Dir = r
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("plugintest: go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// WriteManifest writes m as dir/plugin.yaml (creating dir).
func WriteManifest(t testing.TB, dir string, m pluginhost.Manifest) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, pluginhost.ManifestFile)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// InstallGo builds the Go plugin package pkg (which has a plugin.yaml) into
// pluginsDir/<base of pkg>/, as `make build` does.
func InstallGo(t testing.TB, pkg, pluginsDir string) string {
	t.Helper()
	dest := filepath.Join(pluginsDir, filepath.Base(pkg))
	if err := os.MkdirAll(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	BuildGo(t, pkg, dest)
	data, err := os.ReadFile(filepath.Join(ModuleRoot(t), pkg, pluginhost.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dest, pluginhost.ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dest
}

// Python returns the interpreter for Python plugins ($CUDAPERF_PYTHON or
// the repository's .venv), skipping the test when it lacks grpcio.
func Python(t testing.TB) string {
	t.Helper()
	py := os.Getenv("CUDAPERF_PYTHON")
	if py == "" {
		py = filepath.Join(ModuleRoot(t), ".venv", "bin", "python")
	}
	if err := exec.Command(py, "-c", "import grpc, google.protobuf").Run(); err != nil {
		t.Skipf("no Python with grpcio at %s (%v): run .ci/setup to test Python plugins", py, err)
	}
	return py
}

// InstallPython installs the Python plugin folder src (relative to the
// module root, e.g. "plugins/python/examples/synccount") into
// pluginsDir/<base of src>/ with plugins/python/install.sh.
func InstallPython(t testing.TB, src, pluginsDir string) string {
	t.Helper()
	py := Python(t)
	r := ModuleRoot(t)
	dest := filepath.Join(pluginsDir, filepath.Base(src))
	cmd := exec.Command(filepath.Join(r, "plugins/python/install.sh"), filepath.Join(r, src), dest, py)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("plugintest: install %s: %v\n%s", src, err, b)
	}
	return dest
}

// Children lists the live processes whose parent is pid, from /proc (Linux);
// it skips the test elsewhere.
func Children(t testing.TB, pid int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var out []int
	for _, e := range entries {
		q, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(q); ok && ppid == pid {
			out = append(out, q)
		}
	}
	return out
}

// parentOf reads the parent pid of a live (not zombie) process.
func parentOf(pid int) (int, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: state ppid ...
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 || f[0] == "Z" {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// Alive reports whether pid is a live process (zombies count as dead).
func Alive(pid int) bool {
	_, ok := parentOf(pid)
	return ok
}

// WaitGone waits up to d for pid to die and reports whether it did.
func WaitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if !Alive(pid) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return !Alive(pid)
}
