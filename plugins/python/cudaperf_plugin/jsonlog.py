"""JSON-lines logging on stderr, in the shape go-plugin's host understands.

The host reads a plugin's stderr and re-logs each JSON line with its
@level, @message and @timestamp (other keys become fields), so a plugin's
logs show up at the right level under the plugin's name. stdout is never
used: it carries the handshake.
"""

import datetime
import json
import os
import sys
import threading

_LEVELS = {"trace": 0, "debug": 1, "info": 2, "warn": 3, "warning": 3, "error": 4}


class Logger:
    def __init__(self, stream=None):
        self._stream = stream
        self._lock = threading.Lock()
        self.level = _LEVELS.get(os.environ.get("CUDAPERF_PLUGIN_LOG_LEVEL", "info").lower(), 2)

    def _emit(self, level, message, fields):
        if _LEVELS[level] < self.level:
            return
        rec = {
            "@level": level,
            "@message": message,
            "@timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds"),
        }
        rec.update({k: v if isinstance(v, (str, int, float, bool)) or v is None else repr(v) for k, v in fields.items()})
        line = json.dumps(rec) + "\n"
        stream = self._stream or sys.__stderr__
        with self._lock:
            try:
                stream.write(line)
                stream.flush()
            except (OSError, ValueError):
                pass  # stderr closed (the host is gone): logging must never kill the plugin

    def trace(self, message, **fields):
        self._emit("trace", message, fields)

    def debug(self, message, **fields):
        self._emit("debug", message, fields)

    def info(self, message, **fields):
        self._emit("info", message, fields)

    def warn(self, message, **fields):
        self._emit("warn", message, fields)

    def error(self, message, **fields):
        self._emit("error", message, fields)


log = Logger()
