"""synccount-py: an example analyzer plugin written with the Python SDK.

It counts __syncthreads() calls per kernel (feature "syncthreads") and warns
(SC001) about a barrier written inside an if/else block: when the condition
differs between threads of a block, some threads never reach the barrier,
which is undefined behaviour. The check is textual (brace matching, no
parsing), so it also flags block-uniform conditions; the built-in analyzer
does the real, taint-based analysis. Copy this file to start a plugin.
"""

import re

from cudaperf_plugin import Analyzer, LineIndex, pb, serve

VERSION = "0.1.0"
CHECK = "SC001"

KERNEL_RE = re.compile(rb"__global__[\w\s*&:<>,()]*?\b(\w+)\s*\(")
TOKEN_RE = re.compile(rb"\b(if|else|for|while|do|switch)\b|\b__syncthreads\s*\(|[{};]")


def blank_comments(src: bytes) -> bytes:
    """Replaces comments and string literals by spaces, keeping offsets."""
    out = bytearray(src)

    def blank(m):
        for k in range(m.start(), m.end()):
            if out[k] != 0x0A:
                out[k] = 0x20

    for m in re.finditer(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', src, re.S):
        blank(m)
    return bytes(out)


def body_of(src: bytes, open_paren: int):
    """Byte range of the body of the function whose parameters open at open_paren."""
    depth, i = 0, open_paren
    while i < len(src):
        if src[i] == 0x28:
            depth += 1
        elif src[i] == 0x29:
            depth -= 1
            if depth == 0:
                break
        i += 1
    i += 1
    while i < len(src) and src[i] != 0x7B:
        if src[i] == 0x3B:
            return None  # a declaration
        i += 1
    start, depth = i, 0
    while i < len(src):
        if src[i] == 0x7B:
            depth += 1
        elif src[i] == 0x7D:
            depth -= 1
            if depth == 0:
                return start, i + 1
        i += 1
    return None


def barriers(body: bytes, base: int):
    """Yields (offset, inside_conditional) for each __syncthreads( in body.

    A block opened right after if/else is conditional; a single statement
    after if/else without braces is too (until its ';').
    """
    stack = []  # per open brace: is it a conditional block
    pending = None  # keyword seen, waiting for its block or statement
    single = 0  # unbraced if/else statements being inside
    for m in TOKEN_RE.finditer(body):
        tok = m.group(0)
        if m.group(1):
            pending = m.group(1)
        elif tok == b"{":
            stack.append(pending in (b"if", b"else"))
            pending = None
        elif tok == b"}":
            if stack:
                stack.pop()
        elif tok == b";":
            if single:
                single -= 1
            pending = None
        else:  # __syncthreads(
            if pending in (b"if", b"else"):
                single += 1  # `if (c) __syncthreads();`
                pending = None
            yield base + m.start(), single > 0 or any(stack)


class SyncCount(Analyzer):
    def describe(self):
        return pb.DescribeAnalyzerResponse(
            plugin=pb.PluginInfo(name="synccount-py", version=VERSION,
                                 description="example Python analyzer: counts __syncthreads() per kernel"),
            passes=[pb.PassInfo(name="synccount", doc="textual __syncthreads() counter\n\nComments are ignored; macros are not expanded.")],
            features=[pb.FeatureInfo(name="syncthreads", unit="count", range="[0, inf)", per_kernel=True, doc="__syncthreads() calls written in the kernel body", **{"pass": "synccount"})],
            checks=[pb.CheckInfo(
                id=CHECK, title="__syncthreads() inside an if/else block",
                doc="A barrier must be reached by every thread of the block. Inside a branch whose condition\n"
                    "depends on the thread, the other threads never arrive (undefined behaviour: hangs or\n"
                    "wrong results).\n\nBad:\n  if (tid < s) { sdata[tid] += sdata[tid + s]; __syncthreads(); }\n"
                    "Good:\n  if (tid < s) { sdata[tid] += sdata[tid + s]; }\n  __syncthreads();",
                default_severity=pb.SEVERITY_WARNING, **{"pass": "synccount"})],
        )

    def analyze_file(self, request, file):
        src = blank_comments(file.content)
        lines = LineIndex(file.content)
        res = pb.FileResult()
        for m in KERNEL_RE.finditer(src):
            name = m.group(1).decode()
            span = body_of(src, m.end() - 1)
            if span is None:
                continue
            count = 0
            for off, conditional in barriers(src[span[0]:span[1]], span[0]):
                count += 1
                if conditional:
                    res.diagnostics.append(pb.Diagnostic(
                        check=CHECK, severity=pb.SEVERITY_WARNING, kernel=name,
                        range=lines.range(file.path, off, off + len(b"__syncthreads")),
                        message=f"__syncthreads() inside an if/else block in kernel {name}: threads that skip the branch never reach the barrier"))
            res.features.append(pb.Feature(kernel=name, name="syncthreads", value=count, unit="count", **{"pass": "synccount"}))
        return res


if __name__ == "__main__":
    serve(SyncCount())
