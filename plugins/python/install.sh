#!/bin/sh
# Installs a Python plugin folder as a self-contained cudaperf plugin:
#   plugins/python/install.sh SRC DEST [PYTHON]
# SRC holds plugin.yaml and main.py (plus any other .py files). DEST gets
# them, run.sh (the launcher the manifest names), lib/ with the SDK and the
# generated contract, and python-path naming PYTHON (default: the
# repository's .venv/bin/python, when it exists). DEST can be copied to
# another machine; there run.sh falls back to python3.
set -eu
src=$1
dest=$2
sdk=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
py=${3:-$sdk/../../.venv/bin/python}
rm -rf "$dest"
mkdir -p "$dest/lib"
cp "$src"/plugin.yaml "$src"/*.py "$dest"/
cp "$sdk/run.sh" "$dest/run.sh"
(cd "$sdk" && find cudaperf_plugin cudaperf -name '*.py' -print) | while read -r f; do
  mkdir -p "$dest/lib/$(dirname "$f")"
  cp "$sdk/$f" "$dest/lib/$f"
done
if [ -x "$py" ]; then
  (cd "$(dirname "$py")" && printf '%s\n' "$(pwd)/$(basename "$py")") > "$dest/python-path"
fi
echo "installed $src -> $dest"
