"""The Policy base class."""

from cudaperf.plugin.v1 import policy_pb2_grpc as _pgrpc


class Policy(_pgrpc.PolicyServiceServicer):
    """Base class for policy plugins: override Describe, Generate, Update, Save, Load.

    Methods take (request, context) as in any grpc servicer. A policy that
    cannot train says can_update=False in Describe and leaves Update as is
    (it answers UNIMPLEMENTED).
    """
