package grpo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// StartFile is a run's record of the checkpoint it began from.
const StartFile = "start.json"

// Start records what a run began from. The run's config names policy.init
// by path only, and the same path can hold another adapter later (the
// ablation's SFT start was lost with a machine and made again at the same
// path on 2026-12-04: same data and settings, other weights), so the record
// holds the content's digest too.
type Start struct {
	Init string `json:"init"`
	// SHA256 is InitDigest(Init): "" for the policy's own initial weights.
	SHA256 string `json:"sha256"`
}

// InitDigest identifies a start checkpoint by its content: the SHA256 of
// every file under init (a folder, or one file) with its path relative to
// init, in path order; "" when init is "".
func InitDigest(init string) (string, error) {
	if init == "" {
		return "", nil
	}
	var paths []string
	err := filepath.WalkDir(init, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("grpo: policy.init %s: %w", init, err)
	}
	sort.Strings(paths)
	all := sha256.New()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return "", fmt.Errorf("grpo: policy.init: %w", err)
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("grpo: policy.init: %w", err)
		}
		rel, _ := filepath.Rel(init, p)
		fmt.Fprintf(all, "%s\x00%x\n", filepath.ToSlash(rel), h.Sum(nil))
	}
	return hex.EncodeToString(all.Sum(nil)), nil
}

// ReadStart is dir's start record; nil, nil when the run has none (made
// before runs recorded their start).
func ReadStart(dir string) (*Start, error) {
	b, err := os.ReadFile(filepath.Join(dir, StartFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("grpo: %w", err)
	}
	var s Start
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("grpo: %s: %w", filepath.Join(dir, StartFile), err)
	}
	return &s, nil
}

// RecordStart checks init against dir's start record, and writes the record
// when there is none and the run begins now (fresh). A run that continues
// must keep its start: a different checkpoint at policy.init is refused,
// since the run's results would be attributed to a start it did not have.
func RecordStart(dir, init string, fresh bool) error {
	sum, err := InitDigest(init)
	if err != nil {
		return err
	}
	have, err := ReadStart(dir)
	if err != nil {
		return err
	}
	if have != nil {
		if have.SHA256 != sum {
			return fmt.Errorf("grpo: %s began from %s (sha256 %s), but policy.init %s now holds %s: a run keeps its start; "+
				"put that checkpoint back at policy.init, or begin the run anew in another folder",
				dir, initName(have.Init), short(have.SHA256), initName(init), short(sum))
		}
		return nil
	}
	if !fresh {
		return nil
	}
	b, _ := json.MarshalIndent(Start{Init: init, SHA256: sum}, "", "  ")
	return writeAtomic(filepath.Join(dir, StartFile), append(b, '\n'))
}

func short(sum string) string {
	if sum == "" {
		return "the policy's own weights"
	}
	return sum[:min(12, len(sum))]
}

func initName(init string) string {
	if init == "" {
		return `"" (the policy's own weights)`
	}
	return init
}
