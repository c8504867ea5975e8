package results

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"
)

func TestAppendRead(t *testing.T) {
	dir := NewRunDir(t.TempDir(), time.Date(2026, 11, 29, 16, 5, 0, 0, time.UTC))
	if filepath.Base(dir) != "bench-20261129T160500Z" {
		t.Errorf("run dir %s", dir)
	}
	for i := 0; i < 2; i++ { // a second Open appends
		w, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Append(map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	var got []int
	err := Read(filepath.Join(dir, File), func(b []byte) error {
		var m map[string]int
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		got = append(got, m["i"])
		return nil
	})
	if err != nil || len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("read %v, %v", got, err)
	}
}
