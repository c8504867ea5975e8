// Package options is the one mechanism for per-check settings, shared by
// cudaperf's built-in passes and by plugins.
//
// A check declares its options as Defs (name, type, default, doc, and for
// numbers optional inclusive bounds), like the flags of a
// golang.org/x/tools/go/analysis Analyzer: a built-in pass in
// analysis.Analyzer.Options, a plugin in Describe's OptionInfo (the
// built-in analyzer plugin turns its passes' Defs into OptionInfo, so the
// host sees both alike). Users set them in .cudaperf.yaml:
//
//	lint:
//	  settings:
//	    coalescing: {min-ratio: 4}
//	    TC001: {accept-syncwarp: true}
//
// Validate checks those settings against every declared option before
// anything runs: an unknown check or key, a value of the wrong type or
// outside the option's bounds, is a configuration error that names the
// known options. Each plugin then receives exactly the options it
// declared, as "<check>.<name>" keys with the user's value or the default
// (host/pluginhost), and a pass reads its own through Values
// (Pass.Options).
package options
