// Package pluginhost is the cudaperf plugin manager: it finds plugins,
// starts them, calls them, and stops them.
//
// # Discovery
//
// Plugins are searched, in order, in the --plugin-dir folders, the folders of
// $CUDAPERF_PLUGIN_PATH (colon-separated), and <folder of the cudaperf
// binary>/plugins (see SearchPath). In each folder, a plugin is either a
// sub-folder holding plugin.yaml or a file NAME.plugin.yaml. The manifest is
// small and strictly checked (unknown keys are errors):
//
//	name: textcount          # [a-z0-9][a-z0-9._-]*, unique; the first in search order wins
//	kind: analyzer           # analyzer, benchmarker or policy
//	language: go             # informational: go, python, ...
//	protocol: 1              # contract major version (cudaperf.plugin.v1)
//	command: textcount       # relative to the manifest's folder, absolute, or a name on $PATH
//	args: []                 # optional
//	description: one line    # optional
//
// # Lifecycle
//
// Plugins start lazily and in parallel (Host.Start), each through the
// go-plugin handshake within Options.StartTimeout, followed by a Describe
// call that proves it answers and whose result is cached. Every request runs
// under Options.RequestTimeout. A plugin that fails to start, crashes, hangs
// or breaks the handshake fails only its own requests, with a *PluginError
// that names it, says what happened (with the tail of its stderr) and what to
// do; other plugins keep answering. A crashed or hung plugin is stopped and
// stays failed for the life of the Host, except within an analyzer batch
// (Host.AnalyzeWith), which restarts it for the files it had not answered
// and names the file it died or hung on (a hang at most twice a batch:
// each costs the timeout).
//
// Plugin processes run in their own process group, so a Ctrl-C at the
// terminal reaches only the host, which then stops them (KillAll, or
// Host.Close); a plugin whose host dies without cleaning up (SIGKILL) exits
// by itself, because the SDKs watch the parent process.
package pluginhost
