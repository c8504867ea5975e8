package sandbox

import (
	"testing"
)

// BenchmarkStart measures what the sandbox adds to starting a candidate:
// the honest test program run confined (launcher re-exec, Landlock,
// seccomp, notifications for its opens) and with CUDAPERF_SANDBOX=off.
// The launcher here is the test binary; cudaperf, a larger binary, starts
// a little slower. docs/sandbox.md has the numbers and the command.
func BenchmarkStart(b *testing.B) {
	for _, mode := range []string{"off", "on"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "off" {
				b.Setenv(EnvSandbox, "off")
			}
			w := newWorld(b)
			exe := w.compile(b, "honest")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o, _ := w.run(b, exe, w.input)
				if !o.OK() {
					b.Fatalf("honest program: %s\n%s", o.Describe(), o.Output)
				}
			}
		})
	}
}
