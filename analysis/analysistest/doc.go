// Package analysistest runs an analyzer on test files and checks its
// findings against expectations written in the files, in the manner of
// golang.org/x/tools/go/analysis/analysistest.
//
//	func TestOcc(t *testing.T) {
//		analysistest.Run(t, analysistest.TestData(), occupancy.Analyzer, "basic", "spills")
//	}
//
// Each case is a directory testdata/src/<case>/ holding .cu and .cuh files.
// The analyzer (with everything it requires) runs on every file through the
// in-process driver, so tests see exactly what users see. Two optional files
// configure a case:
//
//   - arch: one line naming the target, e.g. "sm_80" (default: the H200,
//     sm_90);
//   - ptxas.txt: captured `nvcc -Xptxas -v` output, given to the analyzer as
//     Pass.Ptxas for every file of the case;
//   - options: lines check.name=value, the case's lint.settings (package
//     options), e.g. coalescing.min-ratio=4.
//
// # Expectations
//
// Expectations are line comments that start with "want":
//
//	x[i * 32] = 0;  // want "stride of 32 elements" `uncoalesced`
//	__global__ void k(float *x) {  // want kernel=k occ:"0.5" tpb:"256"
//
// A quoted string (Go syntax, "..." or `...`) expects one diagnostic on that
// line whose message matches it as a regular expression (any check: the
// analyzer's own, or the driver's "syntax"). Two strings expect two
// diagnostics. Every diagnostic must be expected and every expectation
// met; otherwise the test fails and says which.
//
// kernel=NAME selects the kernel for the feature expectations after it in
// the same comment (kernel:"NAME" is accepted too); NAME is the name the
// analyzer reports, e.g. relu or ops::relu. Without it, features are
// file-level. name:"value" expects the feature name to be reported with that
// value, compared with a tolerance of 1e-3 absolute or 1e-3 relative,
// whichever is larger (so write three decimals: occ:"0.333"); "value±tol"
// (or "value+-tol") sets the tolerance explicitly, and "none" expects the
// feature not to be reported for that kernel. Features have no position, so
// the line a feature expectation is written on does not matter;
// conventionally it is the kernel's first line. Only features named in
// expectations are checked.
package analysistest
