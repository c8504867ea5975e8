package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/cudaperf/cudaperf/bench"
	"github.com/cudaperf/cudaperf/bench/results"
)

// Finished reports whether r is a result the harness could judge: the
// candidate ran, or failed to compile, without a harness error. A record cut
// short by a kill, or one that ended in a harness error, is not finished:
// it is measured again.
func Finished(r *bench.Result) bool { return r.Error == "" && (r.Ran || !r.Compile.OK) }

// MergeStats counts what Merge did with the records it read.
type MergeStats struct {
	Added      int // appended to the records file
	Superseded int // of Added: a later measurement of the candidate's source as it is now (another source_hash than its latest record's), which Load takes over the old record
	Duplicates int // the records file (or an earlier line) already held a finished record of the candidate's source, or a later one of another source
	Unfinished int // not finished (see Finished): left for the next run
	Recorded   int // answered from a measurements file (plugins/recorded), not measured: never a new record
}

// Merge appends to the records file into (created if missing) every
// finished result in files whose (task, candidate) into does not hold a
// finished result of yet, byte for byte as it was written; and one made
// after the candidate's latest record with another source_hash (the
// variant was edited, or reverted, and re-measured: Load takes the later
// line). An older record of another source (a run merged late) does not
// displace a newer one, and a record without a hash, on either side,
// cannot tell an edit: it counts as the same source. into is only
// appended to, never rewritten, so records are never lost; and merging
// the same files again adds nothing. A torn last line (a run killed while
// writing) is skipped, and so is a recorded answer: it repeats an earlier
// measurement of some other candidate with the same normalized source,
// and filed under this candidate's name it would count that measurement
// twice.
func Merge(into string, files ...string) (MergeStats, error) {
	var st MergeStats
	// Each candidate's latest finished record: its source hash and time.
	type latest struct{ hash, time string }
	done := map[[2]string]latest{}
	err := results.Read(into, func(line []byte) error {
		var r bench.Result
		if err := json.Unmarshal(line, &r); err != nil {
			return err
		}
		if Finished(&r) {
			done[[2]string{r.Task, r.Candidate}] = latest{r.SourceHash, r.Time}
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return st, fmt.Errorf("dataset: merge: %w", err)
	}
	var add bytes.Buffer
	for _, p := range files {
		err := results.Read(p, func(line []byte) error {
			var r bench.Result
			if err := json.Unmarshal(line, &r); err != nil {
				return err // Read skips a torn last line and reports any other
			}
			k := [2]string{r.Task, r.Candidate}
			prev, seen := done[k]
			// Another source than the latest record's, measured after it
			// (RFC 3339 UTC times order as strings).
			newer := seen && r.SourceHash != "" && prev.hash != "" && r.SourceHash != prev.hash && r.Time > prev.time
			switch {
			case r.Recorded:
				st.Recorded++
			case !Finished(&r):
				st.Unfinished++
			case seen && !newer:
				st.Duplicates++
			default:
				done[k] = latest{r.SourceHash, r.Time}
				add.Write(line)
				add.WriteByte('\n')
				st.Added++
				if newer {
					st.Superseded++
				}
			}
			return nil
		})
		if err != nil {
			return MergeStats{}, fmt.Errorf("dataset: merge: %w", err)
		}
	}
	if add.Len() == 0 {
		return st, nil
	}
	if err := dropTornTail(into); err != nil {
		return MergeStats{}, fmt.Errorf("dataset: merge: %w", err)
	}
	f, err := os.OpenFile(into, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return MergeStats{}, fmt.Errorf("dataset: merge: %w", err)
	}
	if _, err := f.Write(add.Bytes()); err != nil {
		f.Close()
		return MergeStats{}, fmt.Errorf("dataset: merge: %s: %w", into, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return MergeStats{}, fmt.Errorf("dataset: merge: %s: %w", into, err)
	}
	return st, f.Close()
}

// dropTornTail ends a records file at a newline before a merge appends to
// it. A merge killed while writing leaves a record without one; appending
// after it would glue the next record onto it and make the file
// unreadable, where the torn record alone is skipped by every reader (and,
// not being finished, is merged again): it is cut off. A whole record
// without its newline (a hand-edited file) is one every reader keeps
// (results.Read): it gets its newline (it had been cut off, and with it a
// measurement).
func dropTornTail(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	// Records are a few KB: look back at most 1 MiB for the newline.
	n := min(st.Size(), 1<<20)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, st.Size()-n); err != nil {
		return err
	}
	if buf[n-1] == '\n' {
		return nil
	}
	// No newline in the window: the whole window is the tail (the whole
	// file, when it is one).
	start := bytes.LastIndexByte(buf, '\n') + 1
	if tail := bytes.TrimSpace(buf[start:]); len(tail) > 0 && json.Valid(tail) {
		_, err := f.WriteAt([]byte{'\n'}, st.Size())
		return err
	}
	return f.Truncate(st.Size() - n + int64(start))
}
