#!/usr/bin/env python3
"""Does the evaluator compile a failed lean compile again with the full
headers? bench/nvcc's leanMissed, for bench/lean-parity.sh, which runs
where the rule must be asked per source from a shell. The regular
expressions are read from nvcc.go; the rule's lines are a copy of
leanMissed's, held equal to it by TestLeanRetryScript (bench/nvcc).

Usage: lean_retry.py NVCC_GO SOURCE LOG   exit 0: retried, 1: not, 2: usage
"""
import os
import re
import sys


def regexes(nvcc_go):
    """leanRE, leanSpecRE and errorAt as nvcc.go declares them."""
    text = open(nvcc_go).read()
    out = []
    for name in ("leanRE", "leanSpecRE", "errorAt"):
        m = re.search(r"^var %s = regexp\.MustCompile\(`(.*)`\)$" % name, text, re.M)
        if not m:
            sys.exit("lean_retry: no %s in %s" % (name, nvcc_go))
        out.append(re.compile(m.group(1)))
    return out


def missed(log, source, text, lean, spec, at):
    """leanMissed(log, [basename(source)], text)."""
    if spec.search(log):
        return True
    if not lean.search(log):
        return False
    if re.search(r"\bstd\b", text):
        return True
    ms = list(at.finditer(log))
    for i, m in enumerate(ms):
        end = ms[i + 1].start() if i + 1 < len(ms) else len(log)
        if lean.search(log[m.start():end]) and os.path.basename(m.group(1)) != os.path.basename(source):
            return True
    return not ms or bool(lean.search(log[:ms[0].start()]))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    nvcc_go, source, log = argv
    lean, spec, at = regexes(nvcc_go)
    text = open(source, errors="replace").read() + "\n"
    return 0 if missed(open(log, errors="replace").read(), source, text, lean, spec, at) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
