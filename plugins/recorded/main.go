package main

import "github.com/cudaperf/cudaperf/plugins/sdk/benchserve"

// version is set by the linker (-X main.version=...), like the CLI's.
var version = "dev"

func main() { benchserve.Serve(newBackend()) }
