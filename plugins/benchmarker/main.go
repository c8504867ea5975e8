package main

import "github.com/cudaperf/cudaperf/plugins/sdk"

// version is set by the linker (-X main.version=...), like the CLI's.
var version = "dev"

func main() {
	srv := newServer()
	defer srv.close()
	sdk.ServeBenchmarker(srv)
}
