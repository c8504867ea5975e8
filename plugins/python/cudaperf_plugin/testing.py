"""A test harness for analyzer plugins, like Go's analysistest and the Go SDK's sdktest.

In a pytest test::

    from cudaperf_plugin.testing import run

    def test_my_plugin():
        run(MyPlugin(), "testdata")

Every .cu and .cuh file of the folder goes to the plugin's analyze() with
what the host would send: each file's parse when describe() sets
wants_parsed_files (made by the cudaperf binary, `cudaperf plugins request`),
and every declared option at its default unless ``options`` sets it (keys
"<check>.<name>"). The results are checked against the files' want comments:

    __syncthreads();          // want "inside an if"
    __global__ void k(...) {  // want kernel=k syncthreads:"2"

A quoted regular expression expects a diagnostic on that line whose message
it matches; kernel=NAME name:"value" expects the plugin's feature (its own
name) for that kernel ("value±tol" sets a tolerance, else 1e-3 absolute or
relative; "none" expects no value). Every diagnostic must be expected, every
expectation met, every reported check and feature declared, and no file may
fail; run() raises AssertionError listing every mismatch.

The cudaperf binary is $CUDAPERF_BIN, else bin/cudaperf in a folder above
the current one (after `make build`), else `cudaperf` on $PATH.
"""

import math
import os
import re
import shutil
import subprocess

from cudaperf_plugin import pb
from cudaperf_plugin.parsed import parse

_WANT = re.compile(r"^//\s*want\s")


def find_cudaperf():
    """The cudaperf binary the harness uses, or None."""
    exe = os.environ.get("CUDAPERF_BIN")
    if exe:
        return exe
    d = os.getcwd()
    while True:
        cand = os.path.join(d, "bin", "cudaperf")
        if os.access(cand, os.X_OK):
            return cand
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return shutil.which("cudaperf")


def host_request(paths, cudaperf=None):
    """The AnalyzeRequest (files with their parse) the host builds for paths."""
    exe = cudaperf or find_cudaperf()
    if not exe:
        raise RuntimeError("cudaperf_plugin.testing needs the cudaperf binary to parse the testdata: "
                           "run `make build`, or set CUDAPERF_BIN to its path")
    out = subprocess.run([exe, "plugins", "request", "--format", "binary", *paths], capture_output=True)
    if out.returncode != 0:
        raise RuntimeError(f"{exe} plugins request failed (exit {out.returncode}): {out.stderr.decode(errors='replace')}")
    req = pb.AnalyzeRequest()
    req.ParseFromString(out.stdout)
    return req


def _quoted(s):
    """Reads a Go-quoted "..." or `...` string at the start of s: (value, rest)."""
    q = s[0]
    if q == "`":
        end = s.find("`", 1)
        if end < 0:
            raise ValueError(f"unterminated string {s}")
        return s[1:end], s[end + 1:]
    i, out = 1, []
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, "\\" + nxt))
            i += 2
            continue
        if c == '"':
            return "".join(out), s[i + 1:]
        out.append(c)
        i += 1
    raise ValueError(f"unterminated string {s}")


def _value(v):
    """(value, tolerance, absent) of a feature expectation."""
    v = v.strip()
    if v == "none":
        return None, None, True
    for sep in ("±", "+-"):
        if sep in v:
            a, b = v.split(sep, 1)
            return float(a), float(b), False
    x = float(v)
    return x, max(1e-3, 1e-3 * abs(x)), False


def expectations(f):
    """(diagnostic expectations [(line, regexp)], feature expectations
    [(line, kernel, name, value, tol, absent)]) of a parsed file's want comments."""
    diags, feats = [], []
    for c in f.root.find("comment"):
        text = c.text
        if not _WANT.match(text + " "):
            continue
        line = c.start[0]
        s = _WANT.sub("", text + " ", count=1).strip()
        if not s:
            raise ValueError(f'{f.path}:{line}: bad want comment: nothing after "want"')
        kernel = ""
        while s:
            if s[0] in "\"`":
                pat, s = _quoted(s)
                diags.append((line, re.compile(pat)))
            elif s.startswith("kernel="):
                m = re.match(r"kernel=(\S+)", s)
                kernel, s = m.group(1), s[m.end():]
            else:
                m = re.match(r"([\w.]+):(?=[\"`])", s)
                if not m:
                    raise ValueError(f'{f.path}:{line}: bad want comment: cannot read {s!r}: want "regexp", kernel=NAME or name:"value"')
                val, s = _quoted(s[m.end():])
                if m.group(1) == "kernel":
                    kernel = val
                else:
                    feats.append((line, kernel, m.group(1), *_value(val)))
            s = s.strip()
    return diags, feats


def run(plugin, testdata, options=None, cudaperf=None):
    """Runs plugin on the .cu/.cuh files of testdata and checks their want comments.

    Returns the AnalyzeResponse; raises AssertionError listing every mismatch.
    """
    d = plugin.describe()
    declared = {}
    for o in d.options:
        declared[f"{o.check or d.plugin.name}.{o.name}"] = o.default_value
    problems = []
    for k in options or {}:
        if k not in declared:
            raise AssertionError(f"option {k} is not declared in describe() (declared: {', '.join(sorted(declared)) or 'none'})")
    paths = sorted(os.path.join(testdata, n) for n in os.listdir(testdata) if n.endswith((".cu", ".cuh")))
    if not paths:
        raise AssertionError(f"no .cu or .cuh files in {testdata}")
    req = host_request(paths, cudaperf)
    parsed = [parse(f) for f in req.files]  # for the want comments
    if not d.wants_parsed_files:
        for f in req.files:
            f.ClearField("parsed")
    for k, default in declared.items():
        req.options[k] = (options or {}).get(k, default)
    resp = plugin.analyze(req)
    if len(resp.files) != len(req.files):
        raise AssertionError(f"analyze() answered {len(resp.files)} files for {len(req.files)}")
    checks = {c.id for c in d.checks}
    features = {f.name for f in d.features}
    for f, res in zip(parsed, resp.files):
        if res.error:
            problems.append(f"{f.path}: the plugin failed on this file: {res.error}")
            continue
        diags, feats = expectations(f)
        used = [False] * len(diags)
        for dg in res.diagnostics:
            if dg.check not in checks:
                problems.append(f"{f.path}: diagnostic with undeclared check {dg.check!r} (declare it in describe()'s checks)")
            line = dg.range.start_line
            for i, (l, pat) in enumerate(diags):
                if not used[i] and l == line and pat.search(dg.message):
                    used[i] = True
                    break
            else:
                problems.append(f"{f.path}:{line}:{dg.range.start_column}: unexpected diagnostic: {dg.message} [{dg.check}]")
        for i, (l, pat) in enumerate(diags):
            if not used[i]:
                problems.append(f"{f.path}:{l}: no diagnostic matching {pat.pattern!r} was reported on this line")
        for fe in res.features:
            if fe.name not in features:
                problems.append(f"{f.path}: undeclared feature {fe.name!r} (declare it in describe()'s features)")
        for line, kernel, name, value, tol, absent in feats:
            got = [x.value for x in res.features if x.name == name and x.kernel == kernel and not x.unknown]
            what = f"feature {name}" + (f" of kernel {kernel}" if kernel else "")
            if absent:
                if got:
                    problems.append(f"{f.path}:{line}: {what} was reported ({got[0]:g}), want none")
            elif not got:
                problems.append(f"{f.path}:{line}: {what} was not reported")
            elif len(got) > 1:
                problems.append(f"{f.path}:{line}: {what} was reported {len(got)} times")
            elif not math.isclose(got[0], value, abs_tol=tol, rel_tol=0):
                problems.append(f"{f.path}:{line}: {what} = {got[0]:g}, want {value:g} (±{tol:g})")
    if problems:
        raise AssertionError("\n".join(problems))
    return resp
