import os
import sys

# The SDK and the generated contract are imported from the source tree.
SDK_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, SDK_ROOT)
