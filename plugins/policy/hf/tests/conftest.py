import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN_DIR = os.path.dirname(HERE)
SDK_ROOT = os.path.abspath(os.path.join(PLUGIN_DIR, "..", "..", "python"))
# The plugin's modules and the Python SDK, from the source tree.
for p in (PLUGIN_DIR, SDK_ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)

# One torch thread: the tiny model gains nothing from more, and on a shared
# machine threads spin at barriers waiting for each other (RESULTS.md).
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    """A tiny randomly initialised SmolLM2-shaped checkpoint folder (no download)."""
    import tiny
    return tiny.write(str(tmp_path_factory.mktemp("tiny") / "model"))
