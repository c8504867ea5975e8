package grpo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// groupName names the group of a step's b-th task at a turn in the
// records: TASK:sSTEP:bB:tTURN. The members of one trajectory share it
// but for the turn (trajectoryName).
func groupName(task string, step int64, b, turn int) string {
	return fmt.Sprintf("%s:s%d:b%d:t%d", task, step, b, turn)
}

// trajectoryName is a group's name without its turn: the (step, task)
// group whose members' turns make trajectories.
func trajectoryName(group string) string {
	if i := strings.LastIndex(group, ":t"); i >= 0 {
		return group[:i]
	}
	return group
}

// ReadRollouts reads one file of a run's rollouts, rollouts/step-N.jsonl
// (gzipped when the name ends in .gz, as the trainer writes them).
func ReadRollouts(path string) ([]RolloutRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("grpo: rollouts: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("grpo: rollouts %s: %w (a run's rollouts/step-N.jsonl.gz is expected)", path, err)
		}
		defer gz.Close()
		r = gz
	}
	var out []RolloutRecord
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l RolloutRecord
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("grpo: rollouts %s:%d: %v (a line of a run's rollouts/step-N.jsonl is expected)", path, n, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("grpo: rollouts %s: %w", path, err)
	}
	return out, nil
}

// RunRollouts reads every step's rollouts of the run in dir, in step
// order; none (and no error) when the run has no rollouts folder yet.
func RunRollouts(dir string) ([]RolloutRecord, error) {
	files, err := filepath.Glob(filepath.Join(dir, "rollouts", "step-*.jsonl*"))
	if err != nil {
		return nil, err
	}
	// step-NNNNNN is zero-padded, so the names sort in step order.
	sort.Strings(files)
	var out []RolloutRecord
	for _, f := range files {
		recs, err := ReadRollouts(f)
		if err != nil {
			return nil, err
		}
		out = append(out, recs...)
	}
	return out, nil
}
