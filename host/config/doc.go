// Package config loads .cudaperf.yaml, the project configuration that
// `cudaperf lint`, `features` and the compiler launcher read:
//
//	version: 1
//	lint:
//	  enable: [all]                 # or a list of check ids; default all
//	  disable: [tpb, gmem]          # checks to turn off
//	  fail-on: warning              # error | warning | note | never (default error)
//	  exclude: ["third_party/**"]   # paths (globs, relative to this file) not linted
//	  settings:                     # per-check options (package analysis/options)
//	    coalescing: {min-ratio: 2}
//	plugins:
//	  enable: [cudaperf-analyzer, textcount]  # only these plugins (default: all installed)
//	  disable: [synccount-py]                 # never start these
//
// Decoding is strict: an unknown key, a wrong type, or a check id no
// installed analyzer knows is an error naming the file, the line and the fix;
// settings are checked against the options the checks declare.
// The file is found by walking up from the working directory; --config
// names one explicitly.
package config
