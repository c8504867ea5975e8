import os
import sys

# The SDK and the generated contract are imported from the source tree.
SDK_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, SDK_ROOT)

import shutil
import subprocess

import pytest

REPO_ROOT = os.path.abspath(os.path.join(SDK_ROOT, "..", ".."))


@pytest.fixture(scope="session")
def cudaperf_bin(tmp_path_factory):
    """The cudaperf binary the harness parses testdata with: $CUDAPERF_BIN,
    else one built from this tree (go build, cached by Go)."""
    exe = os.environ.get("CUDAPERF_BIN")
    if exe:
        return exe
    go = shutil.which("go")
    if go is None:
        pytest.skip("no go toolchain to build cudaperf and no $CUDAPERF_BIN: the harness needs the host's parser")
    out = str(tmp_path_factory.mktemp("bin") / "cudaperf")
    subprocess.run([go, "build", "-o", out, "./cmd/cudaperf"], cwd=REPO_ROOT, check=True)
    return out
