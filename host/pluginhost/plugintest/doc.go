// Package plugintest builds and installs real plugins for tests: Go plugins
// compiled from their packages, Python plugins laid out by
// plugins/python/install.sh, and manifests written next to them. Tests of
// the host, the CLI and of plugins themselves (an analyzer's end-to-end
// test) use it to run plugins as processes, never as mocks.
package plugintest
