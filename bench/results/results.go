package results

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// File is the results file name inside a run folder.
const File = "results.jsonl"

// Writer appends records to a JSONL file.
type Writer struct {
	Path string
	mu   sync.Mutex
	f    *os.File
}

// NewRunDir returns root/bench-<UTC time>, not yet created.
func NewRunDir(root string, now time.Time) string {
	return filepath.Join(root, "bench-"+now.UTC().Format("20060102T150405Z"))
}

// Open creates dir if needed and opens dir/results.jsonl for append.
func Open(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	p := filepath.Join(dir, File)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	return &Writer{Path: p, f: f}, nil
}

// Append writes v as one line.
func (w *Writer) Append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("results: encode: %w", err)
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(b); err != nil {
		return fmt.Errorf("results: write %s: %w", w.Path, err)
	}
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }

// Read decodes every line of a results file with decode, which is called
// once per line with the raw JSON. Blank lines are skipped.
func Read(path string, decode func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			continue
		}
		if err := decode(sc.Bytes()); err != nil {
			return fmt.Errorf("results: %s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}
