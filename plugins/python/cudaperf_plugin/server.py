"""serve(): the go-plugin handshake and lifecycle for Python plugins."""

import importlib
import os
import signal
import sys
import threading
import time
from concurrent import futures

import grpc

from cudaperf_plugin.jsonlog import log

# The handshake every cudaperf plugin must do; the Go SDK (plugins/sdk)
# defines the same values, and the host rejects anything else.
MAGIC_COOKIE_KEY = "CUDAPERF_PLUGIN"
MAGIC_COOKIE_VALUE = "b7c4e0f2-cudaperf-plugin-v1"
PROTOCOL_VERSION = 1
# go-plugin's own core protocol version (first field of the handshake line).
_CORE_PROTOCOL_VERSION = 1
# gRPC message limit, raised from the 4 MiB default as on the host side.
MAX_MESSAGE_BYTES = 64 << 20
# Set by the host to its process id.
HOST_PID_ENV = "CUDAPERF_HOST_PID"
# How often to check that the host is still alive (see _exit_with_parent).
_PARENT_POLL_SECONDS = 0.2


# The services by the name of their generated servicer class, so that only
# the served kind's generated modules are imported (start-up time).
_SERVICES = {
    "AnalyzerServiceServicer": ("analyzer", "cudaperf.plugin.v1.analyzer_pb2_grpc", "add_AnalyzerServiceServicer_to_server"),
    "BenchmarkerServiceServicer": ("benchmarker", "cudaperf.plugin.v1.benchmarker_pb2_grpc", "add_BenchmarkerServiceServicer_to_server"),
    "PolicyServiceServicer": ("policy", "cudaperf.plugin.v1.policy_pb2_grpc", "add_PolicyServiceServicer_to_server"),
}


def _register(impl, server):
    for cls in type(impl).__mro__:
        entry = _SERVICES.get(cls.__name__)
        if entry and cls.__module__ == entry[1]:
            kind, module, add = entry
            getattr(importlib.import_module(module), add)(impl, server)
            return kind
    raise TypeError(f"serve: {type(impl).__name__} is not an Analyzer, Benchmarker or Policy; subclass one of them")


# grpc.health.v1 is implemented by hand because the GPU machine has no
# grpcio-health-checking package, and vendoring its generated module would
# clash in the descriptor pool with a real install. The messages are tiny:
# HealthCheckRequest{string service = 1}, HealthCheckResponse{enum status = 1}.
_SERVING, _SERVICE_UNKNOWN = 1, 3


def _parse_health_request(data: bytes) -> str:
    i, service = 0, ""
    while i < len(data):
        key, i = _varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            _, i = _varint(data, i)
        elif wire == 2:
            n, i = _varint(data, i)
            if field == 1:
                service = data[i:i + n].decode("utf-8", "replace")
            i += n
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        else:
            raise ValueError("malformed HealthCheckRequest")
    return service


def _varint(data: bytes, i: int):
    shift = result = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7


def _health_response(status: int) -> bytes:
    return bytes([0x08, status])


def _health_handler():
    def check(service, context):
        if service in ("", "plugin"):
            return _SERVING
        context.abort(grpc.StatusCode.NOT_FOUND, f"unknown service {service!r}")

    return grpc.method_handlers_generic_handler("grpc.health.v1.Health", {
        "Check": grpc.unary_unary_rpc_method_handler(
            check, request_deserializer=_parse_health_request, response_serializer=_health_response),
    })


def _controller_handler(stop):
    # go-plugin's host calls plugin.GRPCController/Shutdown (Empty → Empty)
    # when it is done with a plugin; answering it lets the host skip its
    # 2-second wait before killing the process.
    # (grpc treats a None request or response as a failure, hence the bytes.)
    def shutdown(_request, _context):
        stop.set()
        return b""

    return grpc.method_handlers_generic_handler("plugin.GRPCController", {
        "Shutdown": grpc.unary_unary_rpc_method_handler(
            shutdown, request_deserializer=bytes, response_serializer=bytes),
    })


def _host_pid():
    """The host's pid: from CUDAPERF_HOST_PID (set by the host), else the parent's."""
    try:
        pid = int(os.environ.get(HOST_PID_ENV, ""))
        if pid > 0:
            return pid
    except ValueError:
        pass
    return os.getppid()


def _process_alive(pid):
    """Whether pid is a live process; a zombie counts as dead (needs /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        i = stat.rfind(b")")
        return stat[i + 2:i + 3] not in (b"Z", b"X")
    except FileNotFoundError:
        if os.path.exists("/proc/self/stat"):
            return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
        return True
    except PermissionError:
        return True
    except OSError:
        return False


def _exit_with_host(host):
    # The host may die without stopping us (SIGKILL). It is gone when we
    # have been re-parented and it is dead or a zombie; knowing its pid from
    # the environment also covers a host that died while we were importing.
    while True:
        if os.getppid() != host and not _process_alive(host):
            # Take down what the plugin started too, but only when we lead
            # our process group (the cudaperf host starts plugins that way).
            if os.getpgrp() == os.getpid():
                os.killpg(os.getpid(), signal.SIGKILL)
            log.warn("host process is gone; exiting", host_pid=host)
            os._exit(0)
        time.sleep(_PARENT_POLL_SECONDS)


def serve(impl, max_workers=8):
    """Serve impl (an Analyzer, Benchmarker or Policy) until the host stops it.

    Exits the process: 0 after a normal stop, 1 when not started by the host.
    """
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        sys.stderr.write(
            "This program is a cudaperf plugin and is started by cudaperf, not by hand.\n"
            "Install it in a plugin folder (see `cudaperf plugins list`) and run cudaperf.\n")
        sys.exit(1)
    versions = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", "")
    if versions and str(PROTOCOL_VERSION) not in versions.split(","):
        # Still answer with our version: the host reports the mismatch with
        # the plugin's name and what to do.
        log.error("host speaks other plugin protocols", host_versions=versions, plugin_version=PROTOCOL_VERSION)

    threading.Thread(target=_exit_with_host, args=(_host_pid(),), daemon=True).start()

    stop = threading.Event()
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ],
    )
    kind = _register(impl, server)
    server.add_generic_rpc_handlers((_health_handler(), _controller_handler(stop)))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    log.debug("serving", kind=kind, port=port)

    sys.stdout.write(f"{_CORE_PROTOCOL_VERSION}|{PROTOCOL_VERSION}|tcp|127.0.0.1:{port}|grpc\n")
    sys.stdout.flush()
    # From now on stdout is not ours: send stray prints to stderr.
    sys.stdout = sys.stderr

    stop.wait()
    log.debug("host asked to stop")
    # The Shutdown call itself is still in flight: a short grace lets its
    # answer go out, then the process ends without waiting for the
    # executor's threads (the host kills plugins that take over 2 s).
    server.stop(grace=0.1).wait()
    sys.stderr.flush()
    os._exit(0)
