"""cudaperf_plugin: the Python SDK for writing cudaperf plugins.

Subclass one class and call serve(). Plugin (cudaperf_plugin.plugin) is the
easy way for analyzers: it receives each file with the host's syntax tree,
kernels and launches, and cudaperf_plugin.testing.run tests it against
`// want` comments. The lower-level Analyzer works on raw requests::

    from cudaperf_plugin import Analyzer, serve, pb

    class Counter(Analyzer):
        def describe(self):
            return pb.DescribeAnalyzerResponse(plugin=pb.PluginInfo(name="counter", version="0.1.0"))

        def analyze_file(self, request, file):
            n = file.content.count(b"__syncthreads")
            return pb.FileResult(features=[pb.Feature(name="sync", value=n, unit="count")])

    if __name__ == "__main__":
        serve(Counter())

serve() does what the host expects from any plugin: it checks the magic
cookie, serves gRPC on 127.0.0.1 with a free port, answers the gRPC health
check for service "plugin", prints the go-plugin handshake line
(1|1|tcp|127.0.0.1:PORT|grpc) on stdout, logs JSON lines on stderr, stops when
the host asks it to, and exits when the host process dies.

Benchmarker and Policy are the generated servicers under friendlier names:
override their RPC methods (request, context) directly.
"""

import importlib

from cudaperf_plugin import pb
from cudaperf_plugin.jsonlog import log
from cudaperf_plugin.server import (
    MAGIC_COOKIE_KEY,
    MAGIC_COOKIE_VALUE,
    PROTOCOL_VERSION,
    MAX_MESSAGE_BYTES,
    serve,
)

# The base classes load their generated service modules; import each only
# when a plugin asks for it (an analyzer never loads the policy's).
_LAZY = {"Analyzer": "analyzer", "LineIndex": "analyzer", "Benchmarker": "benchmarker", "Policy": "policy",
         "Plugin": "plugin", "Pass": "plugin", "parse": "parsed"}


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"cudaperf_plugin.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'cudaperf_plugin' has no attribute {name!r}")


__all__ = [
    "Analyzer",
    "Benchmarker",
    "LineIndex",
    "Pass",
    "Plugin",
    "Policy",
    "MAGIC_COOKIE_KEY",
    "MAGIC_COOKIE_VALUE",
    "PROTOCOL_VERSION",
    "MAX_MESSAGE_BYTES",
    "log",
    "parse",
    "pb",
    "serve",
]
