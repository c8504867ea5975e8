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
	benchConfinedAndNot(b, "honest")
}

// BenchmarkOpens measures what the supervisor adds to each open (every
// open is a seccomp notification it answers): a program that opens its
// input 1,000 times, confined and not. ns/op is per run of 1,000 opens.
func BenchmarkOpens(b *testing.B) {
	benchConfinedAndNot(b, "opens", "1000")
}

// benchConfinedAndNot runs testdata/escapes/prog (given its input and
// args) with the sandbox off and on.
func benchConfinedAndNot(b *testing.B, prog string, args ...string) {
	for _, mode := range []string{"off", "on"} {
		b.Run(mode, func(b *testing.B) {
			if mode == "off" {
				b.Setenv(EnvSandbox, "off")
			}
			w := newWorld(b)
			exe := w.compile(b, prog)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				o, _ := w.run(b, exe, append([]string{w.input}, args...)...)
				if !o.OK() {
					b.Fatalf("%s: %s\n%s", prog, o.Describe(), o.Output)
				}
			}
		})
	}
}
