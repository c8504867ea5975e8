package sandbox

import "testing"

// TestPathRules checks the allow list the supervisor applies (Landlock is
// given the same lists).
func TestPathRules(t *testing.T) {
	a := &paths{out: "/s/cudaperf-1/out-1", read: []string{"/s/cudaperf-1/data", "/usr", "/etc"},
		exec: []string{"/cache/c/exe", "/lib64/ld-linux-x86-64.so.2"}, dev: []string{"/dev/null", "/dev/nvidia0", "/dev/nvidia-caps"}, pid: 42}
	for _, c := range []struct {
		path        string
		read, write bool
	}{
		{"/s/cudaperf-1/out-1/out_c0_a_p2.bin", true, true},
		{"/s/cudaperf-1/out-1", true, true},
		{"/s/cudaperf-1/out-10/x", false, false}, // a sibling whose name starts the same
		{"/s/cudaperf-1/out-1/../out-2/x", false, false},
		{"/s/cudaperf-1/data/in_c0_a_p0.bin", true, false},
		{"/s/cudaperf-1", false, false},
		{"/cache/c/exe", true, false},
		{"/cache/c/other", false, false},
		{"/usr/lib/x86_64-linux-gnu/libcuda.so.1", true, false},
		{"/dev/nvidia0", true, true},
		{"/dev/nvidia-caps/nvidia-cap1", true, true},
		{"/dev/nvidia1", false, false},
		{"/dev/shm/cudaperf-2/data/in.bin", false, false},
		{"/proc/self/maps", true, false},
		{"/proc/42/status", true, false},
		{"/proc/42/task/43/comm", true, true},
		{"/proc/thread-self/comm", true, true},
		{"/proc/1/environ", false, false},
		{"/proc/self/environ", false, false},
		{"/proc/self/root/etc/shadow", false, false},
		{"/proc/self/fd/3", false, false},
		{"/proc/self/task/43/fd/3", false, false},
		{"/proc/cpuinfo", true, false},
		{"/proc/driver/nvidia/params", true, false},
		{"/proc/kcore", false, false},
		{"/root/.cache/cudaperf/compile", false, false},
	} {
		if got := a.mayRead(c.path); got != c.read {
			t.Errorf("mayRead(%s) = %v, want %v", c.path, got, c.read)
		}
		if got := a.mayWrite(c.path); got != c.write {
			t.Errorf("mayWrite(%s) = %v, want %v", c.path, got, c.write)
		}
	}
}
