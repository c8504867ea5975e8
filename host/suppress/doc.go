// Package suppress implements inline suppressions of lint findings:
//
//	x = a[i * stride]; // cudaperf:ignore coalescing the stride is 1 at run time
//
//	// cudaperf:ignore coalescing,bankconflicts measured: not the bottleneck
//	x = a[i * stride];
//
// A directive names one or more checks (comma-separated, or "all") and must
// give a reason: a suppression without one is itself reported, as staticcheck
// does, so that every silenced finding says why. A directive at the end of a
// line covers that line; a directive alone on its line covers the next line
// that is not a comment. Directives that silence nothing are reported too, so
// stale ones are found and removed.
package suppress
