package main

import (
	"testing"

	"github.com/cudaperf/cudaperf/plugins/sdk/sdktest"
)

func TestTextcount(t *testing.T) {
	sdktest.Run(t, "testdata", plugin)
}

func TestTextcountAcceptSyncwarp(t *testing.T) {
	sdktest.RunOptions(t, "testdata/syncwarp", plugin, map[string]string{"TC001.accept-syncwarp": "true"})
}
