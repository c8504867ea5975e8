package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// OpenNew creates a run folder of its own under root, NewRunDir's name or,
// when that is taken (another run started in the same second: two shards
// on one host), the name with -2, -3, ... (os.Mkdir either makes a folder
// or fails, so two runs never share one), and opens its results file.
func OpenNew(root string, now time.Time) (*Writer, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	base := NewRunDir(root, now)
	for i := 1; i <= 1000; i++ {
		dir := base
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", base, i)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return Open(dir)
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("results: %w", err)
		}
	}
	return nil, fmt.Errorf("results: %s: a thousand runs this second; name another --runs-dir", base)
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

// CloseDropEmpty closes the file and, if it is empty (a run that failed
// before its first result, e.g. on a machine without a GPU), removes it
// and its folder when nothing else is there, so that failed attempts do
// not leave empty run folders behind.
func (w *Writer) CloseDropEmpty() error {
	err := w.f.Close()
	if st, serr := os.Stat(w.Path); serr == nil && st.Size() == 0 {
		if os.Remove(w.Path) == nil {
			os.Remove(filepath.Dir(w.Path)) // fails, as it should, unless empty
		}
	}
	return err
}

// Read decodes every line of a results file with decode, which is called
// once per line with the raw JSON. Blank lines are skipped. A last line
// without its newline that does not decode is a write cut short (the run
// was killed while appending) and is skipped: what was written before it
// is kept, and a resumed run measures that candidate again.
func Read(path string, decode func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("results: %s: %w", path, err)
		}
		torn := err == io.EOF
		if body := bytes.TrimRight(line, "\r\n"); len(body) > 0 {
			if derr := decode(body); derr != nil && !torn {
				return fmt.Errorf("results: %s:%d: %w", path, n, derr)
			}
		}
		if torn {
			return nil
		}
	}
}
