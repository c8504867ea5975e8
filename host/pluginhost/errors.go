package pluginhost

import (
	"fmt"
	"google.golang.org/grpc/codes"
	"strings"
	"sync"
)

// PluginError is a failure of one plugin: it could not be found, started or
// called. It names the plugin and its manifest, the operation, what happened
// and what to do about it.
type PluginError struct {
	Plugin   string // plugin name (or folder name when the manifest is unreadable)
	Kind     string // plugin kind, when known
	Manifest string // manifest path
	Op       string // "start", "Describe", "Analyze", ...
	Err      error
	Hint     string     // what the user can do
	Stderr   string     // the last lines the plugin wrote to stderr, if any
	Code     codes.Code // the gRPC status the plugin answered with; OK when it did not answer
	// Crash is set when the plugin's process died during a request: a
	// restart (Plugin.Restart) can bring it back.
	Crash bool
	// Hang is set when the plugin gave no answer within the request
	// timeout and was stopped. Restart brings it back too; an analyzer
	// batch does so a bounded number of times (maxHangs), since each try
	// costs the timeout again.
	Hang bool
}

func (e *PluginError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plugin %q", e.Plugin)
	if e.Kind != "" || e.Manifest != "" {
		b.WriteString(" (")
		b.WriteString(strings.TrimPrefix(strings.Join(nonEmpty(e.Kind, e.Manifest), ", "), ", "))
		b.WriteString(")")
	}
	if e.Op != "" {
		fmt.Fprintf(&b, ": %s", e.Op)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	if e.Hint != "" {
		fmt.Fprintf(&b, "; %s", e.Hint)
	}
	if e.Stderr != "" {
		fmt.Fprintf(&b, "\n  last stderr lines of the plugin:\n    %s", strings.ReplaceAll(e.Stderr, "\n", "\n    "))
	}
	return b.String()
}

func (e *PluginError) Unwrap() error { return e.Err }

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// tailBuffer keeps the last max bytes written to it, for showing the end of
// a plugin's stderr in an error.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func newTailBuffer(max int) *tailBuffer {
	return &tailBuffer{max: max}
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

// lines returns the last n non-empty lines, or, when a Go panic or fatal
// error is among the kept bytes, the lines from its start (at most 3n).
func (t *tailBuffer) lines(n int) string {
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	var out []string
	for _, l := range all {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	start := max(0, len(out)-n)
	for i := len(out) - 1; i >= 0; i-- {
		if strings.HasPrefix(out[i], "panic: ") || strings.HasPrefix(out[i], "fatal error: ") {
			start = i
			break
		}
	}
	out = out[start:]
	if len(out) > 3*n {
		out = out[:3*n]
	}
	return strings.Join(out, "\n")
}
