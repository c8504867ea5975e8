#!/bin/sh
# Starts a Python cudaperf plugin installed by plugins/python/install.sh:
#   run.sh SCRIPT.py
# The SDK and the generated contract are in ./lib. The interpreter is
# $CUDAPERF_PYTHON, else the one recorded at install time (./python-path,
# e.g. the repository's .venv), else python3; it needs grpcio >= 1.84 and
# protobuf 7. exec keeps the process id, so the plugin's parent is the host.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
export PYTHONPATH="$here/lib${PYTHONPATH:+:$PYTHONPATH}"
py=${CUDAPERF_PYTHON:-}
if [ -z "$py" ] && [ -f "$here/python-path" ]; then
  IFS= read -r py < "$here/python-path" || py=
  [ -x "$py" ] || py=
fi
[ -n "$py" ] || py=python3
exec "$py" "$here/$1"
