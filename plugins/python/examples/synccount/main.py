"""synccount-py: an example analyzer plugin written with the Python SDK.

It counts __syncthreads() calls per kernel (feature "syncthreads") and warns
(SC001) about a barrier inside an if/else (or, with option
SC001.include-switch, a switch case): when the condition differs between
threads of a block, some threads never reach the barrier, which is undefined
behaviour. It works on the host's syntax tree (no regex), so comments,
strings and `__launch_bounds__` before the kernel's name are handled by the
grammar. It also flags block-uniform conditions; the built-in analyzer
does the real, taint-based analysis. Copy this folder to start a plugin;
docs/plugins.md is the guide, test_synccount.py shows the test harness.
"""

from cudaperf_plugin import Plugin, pb, serve

CHECK = "SC001"


def barriers(kernel):
    """The __syncthreads() calls of a kernel's body, in source order."""
    if kernel.body is None:
        return []
    return [c for c in kernel.body.find("call_expression")
            if c.child_by_field("function") is not None and c.child_by_field("function").text == "__syncthreads"]


def conditional(call, body, kinds):
    """The statement of one of kinds between call and body, or None."""
    p = call.parent
    while p is not None and p is not body:
        if p.kind in kinds:
            return p
        p = p.parent
    return None


class SyncCount(Plugin):
    name = "synccount-py"
    version = "0.2.0"
    description = "example Python analyzer: counts __syncthreads() per kernel and flags barriers inside if blocks"
    features = [pb.FeatureInfo(name="syncthreads", unit="count", range="[0, inf)", per_kernel=True,
                               doc="__syncthreads() calls written in the kernel body")]
    checks = [pb.CheckInfo(
        id=CHECK, title="__syncthreads() inside an if/else block",
        doc="A barrier must be reached by every thread of the block. Inside a branch whose condition\n"
            "depends on the thread, the other threads never arrive (undefined behaviour: hangs or\n"
            "wrong results).\n\nBad:\n  if (tid < s) { sdata[tid] += sdata[tid + s]; __syncthreads(); }\n"
            "Good:\n  if (tid < s) { sdata[tid] += sdata[tid + s]; }\n  __syncthreads();",
        default_severity=pb.SEVERITY_WARNING)]
    options = [pb.OptionInfo(name="include-switch", check=CHECK, type="bool", default_value="true",
                             doc="also flag barriers inside switch cases")]

    def run(self, p):
        kinds = {"if_statement"}
        if p.option_bool(CHECK + ".include-switch"):
            kinds.add("switch_statement")
        for k in p.file.kernels:
            calls = barriers(k)
            for call in calls:
                stmt = conditional(call, k.body, kinds)
                if stmt is not None:
                    what = "an if/else block" if stmt.kind == "if_statement" else "a switch case"
                    p.report(CHECK, k.name, call.child_by_field("function"),
                             f"__syncthreads() inside {what} in kernel {k.name}: threads that skip the branch never reach the barrier")
            p.kernel_feature(k.name, "syncthreads", len(calls))


if __name__ == "__main__":
    serve(SyncCount())
