"""The Benchmarker base class."""

from cudaperf.plugin.v1 import benchmarker_pb2_grpc as _bgrpc


class Benchmarker(_bgrpc.BenchmarkerServiceServicer):
    """Base class for benchmarker plugins: override Describe, Devices, Compile, Run.

    Methods take (request, context) as in any grpc servicer; a compile error
    is a CompileResponse with ok=False, not an exception.
    """
