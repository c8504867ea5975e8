// Package report prints lint diagnostics and feature vectors in the formats
// people and machines read: GCC-style text, JSON, SARIF 2.1.0 (accepted by
// GitHub code scanning) and Checkstyle XML for diagnostics; JSON and CSV for
// features.
//
// All printers take the same Diagnostic type, which the host builds from
// every analyzer plugin's answers, so a check looks the same whichever plugin
// reported it. Printers are deterministic: they sort by file, position and
// check, so outputs can be diffed and golden-tested.
package report
