package main

import "flag"

// update is the package's one -update flag: golden tests of every command
// rewrite their testdata/*.golden files with it (go test ./cmd/cudaperf -update).
var update = flag.Bool("update", false, "rewrite testdata/*.golden files")
