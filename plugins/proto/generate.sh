#!/usr/bin/env bash
# Regenerates the committed code for the plugin contract:
#   Go:     plugins/proto/cudaperf/plugin/v1/*.pb.go      (protoc + protoc-gen-go v1.36.12 + protoc-gen-go-grpc v1.6.2)
#   Python: plugins/python/cudaperf/plugin/v1/*_pb2*.py   (grpcio-tools 1.84 from .venv, the
#           newest gencode the GPU machine's grpcio 1.84 / protobuf 7 runtime accepts)
#
# Usage: plugins/proto/generate.sh [GO_OUT PY_OUT]
# With arguments it writes into those folders instead (the staleness test
# regenerates into a temporary folder and compares).
#
# Needs: protoc (Debian: apt-get install -y protobuf-compiler), the two Go
# plugins (go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
# google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2; found in $(go env GOPATH)/bin),
# and .venv (.ci/setup).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
go_out=${1:-$root/plugins/proto}
py_out=${2:-$root/plugins/python}
py=${CUDAPERF_GEN_PYTHON:-$root/.venv/bin/python}

export PATH="$(go env GOPATH)/bin:$PATH"
for tool in protoc protoc-gen-go protoc-gen-go-grpc; do
  if ! command -v "$tool" >/dev/null; then
    echo "generate.sh: $tool not found; install it as described at the top of $0" >&2
    exit 2
  fi
done
if ! "$py" -c 'import grpc_tools' 2>/dev/null; then
  echo "generate.sh: $py has no grpc_tools; run .ci/setup" >&2
  exit 2
fi

cd "$root/plugins/proto"
protos=(cudaperf/plugin/v1/*.proto)
mkdir -p "$go_out" "$py_out"
protoc -I . \
  --go_out="$go_out" --go_opt=paths=source_relative \
  --go-grpc_out="$go_out" --go-grpc_opt=paths=source_relative \
  "${protos[@]}"
"$py" -m grpc_tools.protoc -I . \
  --python_out="$py_out" --pyi_out="$py_out" --grpc_python_out="$py_out" \
  "${protos[@]}"
