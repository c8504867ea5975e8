"""The Analyzer base class and a byte-offset to line/column index."""

import bisect
import traceback

import grpc

from cudaperf.plugin.v1 import analyzer_pb2 as _apb
from cudaperf.plugin.v1 import analyzer_pb2_grpc as _agrpc
from cudaperf_plugin.jsonlog import log


class Analyzer(_agrpc.AnalyzerServiceServicer):
    """Base class for analyzer plugins.

    Override describe() and analyze_file(); analyze() calls analyze_file()
    once per file and turns an exception into that file's FileResult.error,
    so one bad file never fails the batch. Override analyze() instead when
    the files must be analyzed together.
    """

    def describe(self):
        """Return a DescribeAnalyzerResponse (plugin info, passes, features, checks)."""
        raise NotImplementedError("override describe()")

    def analyze_file(self, request, file):
        """Return a FileResult (features, diagnostics) for one SourceFile."""
        raise NotImplementedError("override analyze_file() or analyze()")

    def analyze(self, request):
        """Return an AnalyzeResponse with one FileResult per file, in order."""
        results = []
        for f in request.files:
            try:
                res = self.analyze_file(request, f)
                if res is None:
                    res = _apb.FileResult()
            except Exception as e:  # one bad file must not fail the others
                # The traceback only at debug level: a bug that hits every
                # file would otherwise print one per file at every level.
                log.debug("analyzing file failed", file=f.path, error=repr(e), stack=traceback.format_exc())
                res = _apb.FileResult(error=f"analyzer failed on this file: {e!r} (a bug in the plugin; --log-level debug shows its traceback)")
            res.path = f.path
            results.append(res)
        return _apb.AnalyzeResponse(files=results)

    # gRPC entry points: they adapt the methods above to the servicer API.
    def Describe(self, request, context):
        return _call(context, "Describe", self.describe)

    def Analyze(self, request, context):
        return _call(context, "Analyze", self.analyze, request)


def _call(context, method, fn, *args):
    try:
        return fn(*args)
    except Exception as e:
        log.debug("handler failed", method=method, error=repr(e), stack=traceback.format_exc())
        context.abort(grpc.StatusCode.INTERNAL, f"plugin failed in {method}: {e!r} (a bug in the plugin; --log-level debug shows its traceback)")


class LineIndex:
    """Converts byte offsets of one file to 1-based line and byte columns."""

    def __init__(self, content: bytes):
        self._starts = [0]
        self._size = len(content)
        i = content.find(b"\n")
        while i >= 0:
            self._starts.append(i + 1)
            i = content.find(b"\n", i + 1)

    def position(self, off: int):
        off = max(0, min(off, self._size))
        i = bisect.bisect_right(self._starts, off) - 1
        return i + 1, off - self._starts[i] + 1

    def range(self, path: str, start: int, end: int):
        sl, sc = self.position(start)
        el, ec = self.position(end)
        return _apb.Range(file=path, start_byte=start, end_byte=end,
                          start_line=sl, start_column=sc, end_line=el, end_column=ec)
