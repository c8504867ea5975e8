"""How many tokens of the default policy model the c2cuda variants take, by
length in characters: the basis of bench/rl/gpu-rl.sh's `--max-chars`
default (SFT should teach answers that fit the sampling limit).

Usage: .venv/bin/python bench/rl/token-lengths.py [LIMIT_TOKENS ...]
(default 768 1024). Loads only the GGUF's tokenizer (a few seconds); counts
each variant as the SFT answer wraps it (a ```cuda block).
"""
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "policy", "hf"))
import settings  # noqa: E402
from transformers import AutoTokenizer  # noqa: E402

limits = [int(a) for a in sys.argv[1:]] or [768, 1024]
gguf = settings.default_gguf()
tok = AutoTokenizer.from_pretrained(os.path.dirname(gguf), gguf_file=os.path.basename(gguf))
root = os.path.join(os.path.dirname(__file__), "..", "suites", "c2cuda")
rows = []
for f in sorted(glob.glob(os.path.join(root, "*", "variants", "*.cu"))):
    src = open(f).read()
    rows.append((len(src), len(tok("```cuda\n" + src + "```")["input_ids"]), not os.path.basename(f).startswith("sw_")))
ratios = sorted(c / t for c, t, _ in rows)
print("%d variants; characters per token: median %.2f, lowest %.2f" % (len(rows), ratios[len(ratios) // 2], ratios[0]))
print("| max chars | kept | hand-written | longest (tokens) | " + " | ".join("over %d" % L for L in limits) + " |")
print("|---" * (4 + len(limits)) + "|")
for c in (1200, 1500, 1800, 2000, 2500, 0):
    sel = [r for r in rows if c == 0 or r[0] <= c]
    print("| %s | %d | %d | %d | " % (c or "all", len(sel), sum(r[2] for r in sel), max(r[1] for r in sel))
          + " | ".join(str(sum(r[1] > L for r in sel)) for L in limits) + " |")
