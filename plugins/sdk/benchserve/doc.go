// Package benchserve serves a benchmarker written with cudaperf's bench
// types as BenchmarkerService: it is the one place on the plugin side where
// RunRequest becomes a bench.Job and a bench.Result becomes the Run stream
// (a compiled event, one event per configuration, and a summary carrying
// the full record as JSON). host/pluginhost does the reverse on the host
// side, so a result crosses the process boundary unchanged.
//
// The built-in benchmarker (the bench.Evaluator) and the `recorded`
// benchmarker both implement Backend; a plugin author with a Go
// benchmarker can do the same and get the same contract.
package benchserve
