// Package transfers defines the transfers analyzer, which counts the
// host–device memory copies of a file and flags the ones inside loops.
//
// # Analyzer transfers
//
// host–device transfers: cudaMemcpy-family calls weighted by loops
//
// Transfers are calls of the cudaMemcpy family — cudaMemcpy,
// cudaMemcpyAsync, cudaMemcpy2D/3D (and Async), cudaMemcpyToSymbol,
// cudaMemcpyFromSymbol, cudaMemcpyPeer (and Async) — and of the driver
// API's cuMemcpy* functions, anywhere in the file (host code included).
//
// Feature, per file: xfer, the number of transfer calls, each weighted by
// the trip counts of the loops around it in its function (package
// tripcount). Unit: calls; range [0, +inf). Every copy pays a fixed latency
// (microseconds) and, when synchronous, stalls the host until the device is
// idle.
//
// Diagnostic: a host–device transfer inside a loop, which repeats the copy
// and its latency every iteration. Copy once before (or after) the loop,
// batch the pieces into one buffer, or overlap with cudaMemcpyAsync on a
// stream. Only copies that could be hoisted or batched are reported: not
// device-to-device or peer copies (or a kind the source does not name),
// not a different buffer, device or stream each iteration (plan[i].d),
// not an async copy already on a stream, not a copy under a condition in
// the loop (if (i == 0)), not a read-back the loop's conditions use, and
// not a timing loop (nreps, iterations) in a function that reads a timer.
//
// Bad (one small copy per row):
//
//	for (int r = 0; r < rows; r++)
//	  cudaMemcpy(d + r * cols, h + r * cols, cols * sizeof(float), cudaMemcpyHostToDevice);
//
// Good (one copy):
//
//	cudaMemcpy(d, h, rows * cols * sizeof(float), cudaMemcpyHostToDevice);
package transfers
