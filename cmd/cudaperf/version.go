package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/cudaperf/cudaperf/plugins/sdk"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the version of cudaperf and of its plugin protocol",
		ArgsUsage: " ",
		Flags:     []cli.Flag{formatFlag()},
		Action: func(c *cli.Context) error {
			format, err := outputFormat(c)
			if err != nil {
				return err
			}
			v := versionInfo()
			if format == "json" {
				return printJSON(c, v)
			}
			fmt.Fprintf(c.App.Writer, "cudaperf %s (%s, %s/%s", v.Version, v.Go, v.OS, v.Arch)
			if v.Revision != "" {
				fmt.Fprintf(c.App.Writer, ", revision %s", v.Revision)
				if v.Modified {
					fmt.Fprint(c.App.Writer, "+modified")
				}
			}
			fmt.Fprintf(c.App.Writer, ")\nplugin protocol %d (cudaperf.plugin.v%d)\n", v.PluginProtocol, v.PluginProtocol)
			return nil
		},
	}
}

type versionJSON struct {
	Version        string `json:"version"`
	PluginProtocol int    `json:"plugin_protocol"`
	Go             string `json:"go"`
	OS             string `json:"os"`
	Arch           string `json:"arch"`
	Revision       string `json:"revision,omitempty"`
	Modified       bool   `json:"modified,omitempty"`
}

func versionInfo() versionJSON {
	v := versionJSON{Version: version, PluginProtocol: sdk.ProtocolVersion, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}

// formatFlag is the --format flag of commands that print text or JSON.
func formatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"}
}

func outputFormat(c *cli.Context) (string, error) {
	switch f := c.String("format"); f {
	case "text", "json":
		return f, nil
	default:
		return "", usageErrorf("--format %q: use text or json", f)
	}
}

func printJSON(c *cli.Context, v any) error {
	enc := json.NewEncoder(c.App.Writer)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
