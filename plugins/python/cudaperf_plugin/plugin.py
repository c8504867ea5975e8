"""Plugin: an analyzer written on the host's parse, like the Go SDK's sdk.Plugin.

Declare what the plugin reports and write run(), called once per file::

    from cudaperf_plugin import Plugin, pb, serve

    class Barriers(Plugin):
        name, version = "barriers", "0.1.0"
        features = [pb.FeatureInfo(name="syncthreads", unit="count", per_kernel=True, doc="...")]

        def run(self, p):
            for k in p.file.kernels:
                calls = [c for c in k.body.find("call_expression")
                         if c.child_by_field("function").text == "__syncthreads"]
                p.kernel_feature(k.name, "syncthreads", len(calls))

    if __name__ == "__main__":
        serve(Barriers())

describe() sets wants_parsed_files, so p.file has the syntax tree, the
kernels and the launches (cudaperf_plugin.parsed). Test it with
cudaperf_plugin.testing.run(plugin, "testdata").
"""

from cudaperf_plugin import pb
from cudaperf_plugin.analyzer import Analyzer
from cudaperf_plugin.parsed import parse


class Pass:
    """One file's analysis: the input and the functions that take findings."""

    def __init__(self, plugin, file, request, result):
        self.file = file
        self.target = request.target if request.HasField("target") else None
        # The host sends every declared option; a caller that did not
        # (a hand-made request) gets the declared defaults.
        self.options = {f"{o.check or plugin.name}.{o.name}": o.default_value for o in plugin.options}
        self.options.update(request.options)
        self._plugin, self._res = plugin, result

    def report(self, check, kernel, node, message):
        """A finding of check at node, with the check's default severity."""
        sev, url = pb.SEVERITY_WARNING, ""
        for c in self._plugin.checks:
            if c.id == check:
                sev = c.default_severity or pb.SEVERITY_WARNING
                url = c.url
        self._res.diagnostics.append(pb.Diagnostic(check=check, severity=sev, kernel=kernel or "",
                                                   range=node.range(), message=message, url=url))

    def kernel_feature(self, kernel, name, value):
        self._res.features.append(pb.Feature(kernel=kernel or "", name=name, value=value,
                                             unit=self._unit(name), **{"pass": self._plugin.name}))

    def file_feature(self, name, value):
        self.kernel_feature("", name, value)

    def unknown_feature(self, kernel, name):
        """The value could not be determined: left out of feature vectors, never read as 0."""
        self._res.features.append(pb.Feature(kernel=kernel or "", name=name, unknown=True,
                                             unit=self._unit(name), **{"pass": self._plugin.name}))

    def option(self, key):
        """A declared option, key "<check>.<name>", as a string (its default when unset)."""
        return self.options[key]

    def option_int(self, key):
        return int(self.options[key])

    def option_float(self, key):
        return float(self.options[key])

    def option_bool(self, key):
        v = self.options[key].lower()
        if v not in ("true", "false", "1", "0"):
            raise ValueError(f"option {key}: {v!r} is not a bool (declare it with type bool)")
        return v in ("true", "1")

    def _unit(self, name):
        for f in self._plugin.features:
            if f.name == name:
                return f.unit
        return ""


class Plugin(Analyzer):
    """Base class of analyzer plugins written on the host's parse.

    Set the class attributes and override run(p). An empty pass field of a
    feature or check is filled with name; an option without check belongs
    to name.
    """

    name = ""
    version = "0.0.0"
    description = ""
    url = ""
    features = []
    checks = []
    options = []

    def run(self, p):
        """Analyze one file: p.file is a cudaperf_plugin.parsed.File."""
        raise NotImplementedError("override run()")

    def describe(self):
        d = pb.DescribeAnalyzerResponse(
            plugin=pb.PluginInfo(name=self.name, version=self.version, description=self.description, url=self.url),
            passes=[pb.PassInfo(name=self.name, doc=self.description, url=self.url)],
            wants_parsed_files=True)
        for f in self.features:
            f2 = d.features.add()
            f2.CopyFrom(f)
            if not getattr(f2, "pass"):
                setattr(f2, "pass", self.name)
        for c in self.checks:
            c2 = d.checks.add()
            c2.CopyFrom(c)
            if not getattr(c2, "pass"):
                setattr(c2, "pass", self.name)
        for o in self.options:
            o2 = d.options.add()
            o2.CopyFrom(o)
            if not o2.check:
                o2.check = self.name
        return d

    def analyze_file(self, request, file):
        res = pb.FileResult()
        self.run(Pass(self, parse(file), request, res))
        return res
