"""The host's parse of a file: syntax tree, kernels and launch sites.

A plugin whose describe() sets wants_parsed_files (the Plugin class does)
receives every SourceFile with ``parsed`` filled in. ``parse(source_file)``
decodes it into objects that mirror the Go SDK's (plugins/sdk/parsed.go)::

    f = parse(source_file)
    for k in f.kernels:
        for call in k.body.find("call_expression"):
            if call.child_by_field("function").text == "__syncthreads":
                ...
        k.launch_bounds and k.launch_bounds.max_threads
        for launch in k.launches:
            launch.block[0].known, launch.block[0].value

Node positions are 1-based lines and byte columns, ends exclusive, as in
diagnostics' ranges; ``node.range()`` gives the pb.Range for a Diagnostic.
"""

from cudaperf.plugin.v1 import analyzer_pb2 as _apb

FORMAT = 1
_MASK = 0xFFFFFFFF


class NotParsed(Exception):
    """The host sent the file without its parse."""


class Node:
    """One syntax tree node (named or anonymous). Compare with ``is``."""

    __slots__ = ("_f", "index", "parent_index", "_kind", "_field", "_flags",
                 "start_byte", "end_byte", "start", "end", "_kids", "_subtree")

    @property
    def kind(self):
        """The grammar's node type, e.g. "call_expression" or ";"."""
        return self._f._kinds[self._kind]

    @property
    def field(self):
        """The node's field in its parent ("function", "body"), or ""."""
        return self._f._fields[self._field]

    @property
    def is_named(self):
        return bool(self._flags & 1)

    @property
    def is_missing(self):
        return bool(self._flags & 2)

    @property
    def is_extra(self):
        return bool(self._flags & 4)

    @property
    def has_error(self):
        """The node is or contains an ERROR or MISSING node."""
        return bool(self._flags & 8)

    @property
    def text(self):
        return self._f.content[self.start_byte:self.end_byte].decode("utf-8", "replace")

    @property
    def parent(self):
        return None if self.parent_index < 0 else self._f.nodes[self.parent_index]

    @property
    def children(self):
        """All children, named and anonymous, in order."""
        return [self._f.nodes[i] for i in self._kids]

    @property
    def named_children(self):
        return [c for c in self.children if c.is_named]

    def child_by_field(self, name):
        for i in self._kids:
            c = self._f.nodes[i]
            if c.field == name:
                return c
        return None

    def walk(self):
        """Yields this node and its named descendants in preorder."""
        nodes = self._f.nodes
        yield self
        i = self.index + 1
        while i < self._subtree:
            c = nodes[i]
            if not c._flags & 1:
                i = c._subtree
                continue
            yield c
            i += 1

    def find(self, *kinds):
        """Named descendants (self included) of the given kinds, in preorder."""
        want = {self._f._kind_ids[k] for k in kinds if k in self._f._kind_ids}
        return [n for n in self.walk() if n._kind in want]

    def contains(self, other):
        return self.index <= other.index < self._subtree

    def ancestor(self, *kinds):
        """The nearest proper ancestor of one of the given kinds, or None."""
        p = self.parent
        while p is not None:
            if p.kind in kinds:
                return p
            p = p.parent
        return None

    def range(self):
        """The node's span as a pb.Range, for a Diagnostic."""
        return _apb.Range(file=self._f.path, start_byte=self.start_byte, end_byte=self.end_byte,
                          start_line=self.start[0], start_column=self.start[1],
                          end_line=self.end[0], end_column=self.end[1])

    def sexp(self, field=""):
        """The S-expression of the named subtree, as tree-sitter prints it."""
        pre = field + ": " if field else ""
        if self.is_missing:
            return pre + ("(MISSING %s)" % self.kind if self.is_named else '(MISSING "%s")' % self.kind)
        parts = [pre + "(" + self.kind]
        for c in self.children:
            if c.is_named or c.is_missing:
                parts.append(" " + c.sexp(c.field))
        return "".join(parts) + ")"

    def __repr__(self):
        return "<Node %s %d:%d-%d:%d>" % (self.kind, self.start[0], self.start[1], self.end[0], self.end[1])


class Value:
    """A launch dimension: ``value`` when ``known``, ``text`` as written."""

    __slots__ = ("known", "value", "text")

    def __init__(self, v):
        self.known, self.value, self.text = v.known, v.value, v.text

    def __str__(self):
        return str(self.value) if self.known else self.text


class Param:
    def __init__(self, f, p):
        self.name, self.type, self.pointer = p.name, p.type, p.pointer
        self.const, self.restrict = getattr(p, "const"), p.restrict
        self.node = f.node(p.node)


class LaunchBounds:
    def __init__(self, f, lb):
        self.node = f.node(lb.node)
        self.max_threads, self.min_blocks, self.max_cluster = lb.max_threads, lb.min_blocks, lb.max_cluster
        self.args = list(lb.args)


class Kernel:
    """A __global__ function definition."""

    def __init__(self, f, k):
        self.name, self.qualified = k.name, k.qualified
        self.node, self.name_node, self.body = f.node(k.node), f.node(k.name_node), f.node(k.body_node)
        self.qualifiers = list(k.qualifiers)
        self.params = [Param(f, p) for p in k.params]
        self.launch_bounds = LaunchBounds(f, k.launch_bounds) if k.HasField("launch_bounds") else None
        self.template_params = list(k.template_params)
        self.extern_c = k.extern_c
        self.launches = []


class Launch:
    """A launch site: k<<<grid, block, shared, stream>>>(...) or cudaLaunchKernel."""

    def __init__(self, f, l):
        self.node = f.node(l.node)
        self.callee, self.template_args, self.caller = l.callee, list(l.template_args), l.caller
        self.kernel = f.kernels[l.kernel] if 0 <= l.kernel < len(f.kernels) else None
        self.grid = [Value(v) for v in l.grid]
        self.block = [Value(v) for v in l.block]
        self.shared_mem = Value(l.shared_mem)
        self.stream = l.stream
        self.grid_node, self.block_node = f.node(l.grid_node), f.node(l.block_node)
        self.shared_mem_node, self.stream_node = f.node(l.shared_mem_node), f.node(l.stream_node)


class File:
    """A source file with the host's parse."""

    def __init__(self, path, content):
        self.path, self.content = path, content
        self.nodes, self.kernels, self.launches = [], [], []

    @property
    def root(self):
        return self.nodes[0]

    def node(self, i):
        """Node i (preorder index, as the contract's node fields), None when out of range."""
        return self.nodes[i] if 0 <= i < len(self.nodes) else None

    def kernel(self, name):
        for k in self.kernels:
            if name in (k.name, k.qualified):
                return k
        return None


def parse(source_file):
    """Decodes the parse the host sent with a pb.SourceFile into a File.

    Raises NotParsed when there is none (the plugin's describe() must set
    wants_parsed_files) and ValueError for a format this SDK does not read.
    """
    if not source_file.HasField("parsed"):
        raise NotParsed("the host sent no parse with this file: set wants_parsed_files in describe() (the Plugin class does)")
    p = source_file.parsed
    if p.format != FORMAT:
        raise ValueError("the host sent parse format %d; this SDK reads format %d: use the SDK of this cudaperf" % (p.format, FORMAT))
    f = File(source_file.path, source_file.content)
    t = p.tree
    n = len(t.kind)
    cols = (t.field, t.parent_delta, t.start_byte_delta, t.length, t.start_line_delta,
            t.start_column, t.line_count, t.end_column, t.flags)
    if n == 0 or any(len(c) != n for c in cols):
        raise ValueError("%s: malformed parse from the host (tree columns)" % f.path)
    f._kinds, f._fields = list(t.kinds), list(t.fields)
    f._kind_ids = {k: i for i, k in enumerate(f._kinds)}
    kids = [[] for _ in range(n)]
    b, line = 0, 1
    size = len(f.content)
    nodes = f.nodes
    for i in range(n):
        nd = Node()
        nd._f, nd.index = f, i
        nd._kind, nd._field, nd._flags = t.kind[i], t.field[i], t.flags[i]
        if nd._kind >= len(f._kinds) or nd._field >= len(f._fields):
            raise ValueError("%s: node %d: kind or field out of range" % (f.path, i))
        if i == 0:
            nd.parent_index = -1
        else:
            d = t.parent_delta[i]
            if d == 0 or d > i:
                raise ValueError("%s: node %d: bad parent" % (f.path, i))
            nd.parent_index = i - d
            kids[i - d].append(i)
        b = (b + t.start_byte_delta[i]) & _MASK
        line = (line + t.start_line_delta[i]) & _MASK
        nd.start_byte, nd.end_byte = b, b + t.length[i]
        if nd.end_byte > size:
            raise ValueError("%s: node %d ends at byte %d, past the file's %d bytes" % (f.path, i, nd.end_byte, size))
        nd.start = (line, t.start_column[i])
        nd.end = (line + t.line_count[i], t.end_column[i])
        nd._kids = kids[i]
        nodes.append(nd)
    for i in range(n - 1, -1, -1):
        nd = nodes[i]
        nd._subtree = nodes[nd._kids[-1]]._subtree if nd._kids else i + 1
    f.kernels = [Kernel(f, k) for k in p.kernels]
    f.launches = [Launch(f, l) for l in p.launches]
    for k, pk in zip(f.kernels, p.kernels):
        k.launches = [f.launches[i] for i in pk.launched_by if 0 <= i < len(f.launches)]
    return f
