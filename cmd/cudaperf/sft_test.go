package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A second sft into a folder that holds one is refused (exit 2) before it
// replaces any epoch, with the way on: another --out, or --load of the
// last saved epoch. Without the refusal, epoch-1 and epoch-2 and sft.jsonl
// were replaced and the first run's epoch-3 left beside them.
func TestSFTRefusesAFolderWithARun(t *testing.T) {
	dir := t.TempDir() // exists and is empty: accepted
	args := []string{"sft", "--policy", "replay", "--task", "gelu", "--batch", "4", "--out", dir}
	if out, errOut, code := rlRun(t, append(args, "--epochs", "3")...); code != 0 {
		t.Fatalf("first sft: exit %d\n%s\n%s", code, out, errOut)
	}
	before, err := os.ReadFile(filepath.Join(dir, "sft.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := rlRun(t, append(args, "--epochs", "2")...)
	if code != 2 {
		t.Fatalf("second sft into %s: exit %d, want 2\n%s\n%s", dir, code, out, errOut)
	}
	for _, want := range []string{dir, "already holds an SFT run", "--out", "--load " + filepath.Join(dir, "epoch-3")} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, errOut)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "sft.jsonl")); !bytes.Equal(before, after) {
		t.Error("the refused run rewrote sft.jsonl")
	}
}

// Bad flags are usage errors found before anything starts: no output
// folder made, no plugin loaded (the missing policy is never looked up).
func TestSFTChecksFlagsFirst(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--epochs", "0"}, "epochs 0"},
		{[]string{"--batch", "0"}, "batch 0"},
		{[]string{"--weighting", "fast", "--policy", "no-such-policy"}, `weighting "fast": use speed or uniform`},
		{[]string{"--curriculum", "long", "--policy", "no-such-policy"}, `curriculum "long": use short-first or shuffle`},
	} {
		out := filepath.Join(root, "out")
		stdout, errOut, code := rlRun(t, append([]string{"sft", "--task", "gelu", "--out", out}, c.flags...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("sft %v: exit %d, want 2 and %q\n%s\n%s", c.flags, code, c.want, stdout, errOut)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("sft %v made %s", c.flags, out)
			os.RemoveAll(out)
		}
	}
}

// Interrupted, sft says which epochs it saved and how to start from one,
// and that checkpoint is there.
func TestSFTInterruptSaysWhatWasSaved(t *testing.T) {
	dir := t.TempDir()
	cmd := rlCommand(t, "sft", "--policy", "replay", "--task", "gelu", "--batch", "4", "--epochs", "1000000", "--out", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(dir, "epoch-2")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("epoch 2 never began saving\n%s\n%s", &stdout, &stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	m := regexp.MustCompile(`stopped with (\d+) of 1000000 epochs saved .*--load (\S+) starts a new run`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("the interrupted run did not say which epochs were saved and how to go on:\n%s", &stderr)
	}
	n, _ := strconv.Atoi(m[1])
	if want := filepath.Join(dir, "epoch-"+m[1]); n < 1 || m[2] != want {
		t.Errorf("--load %s after %d epochs; want %s", m[2], n, want)
	}
	for e := 1; e <= n; e++ {
		if _, err := os.Stat(filepath.Join(dir, "epoch-"+strconv.Itoa(e), "replay.json")); err != nil {
			t.Errorf("epoch %d was reported saved: %v", e, err)
		}
	}
}
