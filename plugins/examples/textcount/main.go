package main

import (
	"github.com/cudaperf/cudaperf/plugins/sdk"
)

func main() { sdk.ServeAnalyzer(plugin) }
