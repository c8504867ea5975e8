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

from itertools import accumulate

from cudaperf.plugin.v1 import analyzer_pb2 as _apb

FORMAT = 1
_MASK = 0xFFFFFFFF


class NotParsed(Exception):
    """The host sent the file without its parse."""


class Node:
    """One syntax tree node (named or anonymous). Compare with ``is``.

    Nodes are made when first asked for (File.node): the tree itself is
    kept in columns, so a plugin that looks at a few kernels does not pay
    for every token of the file.
    """

    __slots__ = ("_f", "index")

    def __init__(self, f, i):
        self._f, self.index = f, i

    @property
    def kind(self):
        """The grammar's node type, e.g. "call_expression" or ";"."""
        return self._f._kinds[self._f._kind[self.index]]

    @property
    def field(self):
        """The node's field in its parent ("function", "body"), or ""."""
        return self._f._fields[self._f._field[self.index]]

    @property
    def is_named(self):
        return bool(self._f._flags[self.index] & 1)

    @property
    def is_missing(self):
        return bool(self._f._flags[self.index] & 2)

    @property
    def is_extra(self):
        return bool(self._f._flags[self.index] & 4)

    @property
    def has_error(self):
        """The node is or contains an ERROR or MISSING node."""
        return bool(self._f._flags[self.index] & 8)

    @property
    def start_byte(self):
        return self._f._start[self.index]

    @property
    def end_byte(self):
        return self._f._end[self.index]

    @property
    def start(self):
        """(line, column), 1-based, columns in bytes."""
        return self._f._sline[self.index], self._f._scol[self.index]

    @property
    def end(self):
        """(line, column) just past the node."""
        return self._f._eline[self.index], self._f._ecol[self.index]

    @property
    def text(self):
        return self._f.content[self.start_byte:self.end_byte].decode("utf-8", "replace")

    @property
    def parent_index(self):
        return self._f._parent[self.index]

    @property
    def parent(self):
        return self._f.node(self._f._parent[self.index])

    @property
    def children(self):
        """All children, named and anonymous, in order."""
        f = self._f
        return [f.node(i) for i in f._children()[self.index]]

    @property
    def named_children(self):
        f = self._f
        return [f.node(i) for i in f._children()[self.index] if f._flags[i] & 1]

    def child_by_field(self, name):
        f = self._f
        try:
            fid = f._fields.index(name)
        except ValueError:
            return None
        for i in f._children()[self.index]:
            if f._field[i] == fid:
                return f.node(i)
        return None

    def walk(self):
        """Yields this node and its named descendants in preorder."""
        f = self._f
        flags, sub = f._flags, f._sub
        yield self
        i, end = self.index + 1, sub[self.index]
        while i < end:
            if not flags[i] & 1:
                i = sub[i]
                continue
            yield f.node(i)
            i += 1

    def find(self, *kinds):
        """Named descendants (self included) of the given kinds, in preorder."""
        f = self._f
        want = {f._kind_ids[k] for k in kinds if k in f._kind_ids}
        if not want:
            return []
        kind, flags, sub = f._kind, f._flags, f._sub
        out = []
        i, end = self.index, sub[self.index]
        while i < end:
            if not flags[i] & 1 and i != self.index:
                i = sub[i]  # an anonymous node's subtree is not walked
                continue
            if kind[i] in want:
                out.append(f.node(i))
            i += 1
        return out

    def contains(self, other):
        return self.index <= other.index < self._f._sub[self.index]

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
        (sl, sc), (el, ec) = self.start, self.end
        return _apb.Range(file=self._f.path, start_byte=self.start_byte, end_byte=self.end_byte,
                          start_line=sl, start_column=sc, end_line=el, end_column=ec)

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
        return "<Node %s %d:%d-%d:%d>" % (self.kind, *self.start, *self.end)


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
        self.kernels, self.launches = [], []
        self._nodes, self._kids = [], None

    @property
    def root(self):
        return self.node(0)

    def __len__(self):
        """The number of nodes, named and anonymous."""
        return len(self._kind)

    @property
    def nodes(self):
        """Every node in preorder (made on first use)."""
        return [self.node(i) for i in range(len(self._kind))]

    def node(self, i):
        """Node i (preorder index, as the contract's node fields), None when out of range."""
        if not 0 <= i < len(self._nodes):
            return None
        n = self._nodes[i]
        if n is None:
            n = self._nodes[i] = Node(self, i)
        return n

    def kernel(self, name):
        for k in self.kernels:
            if name in (k.name, k.qualified):
                return k
        return None

    def _children(self):
        if self._kids is None:
            kids = [[] for _ in self._kind]
            parent = self._parent
            for i in range(1, len(parent)):
                kids[parent[i]].append(i)
            self._kids = kids
        return self._kids


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
    # Columns decoded with C-speed list operations; Node objects come later.
    f._kind, f._field, f._flags = list(t.kind), list(t.field), list(t.flags)
    if max(f._kind) >= len(f._kinds) or max(f._field) >= len(f._fields):
        raise ValueError("%s: a node's kind or field is out of range" % f.path)
    parent = [i - d for i, d in enumerate(t.parent_delta)]
    if parent[0] != 0 or any(q < 0 or q >= i for i, q in enumerate(parent) if i):
        raise ValueError("%s: malformed parse from the host (bad parent)" % f.path)
    parent[0] = -1
    f._parent = parent
    # uint32 arithmetic, as the encoder's: a (never written) decrease wraps back.
    f._start = [x & _MASK for x in accumulate(t.start_byte_delta)]
    f._end = [s + l for s, l in zip(f._start, t.length)]
    if max(f._end) > len(f.content):
        raise ValueError("%s: a node ends at byte %d, past the file's %d bytes" % (f.path, max(f._end), len(f.content)))
    f._sline = [(x + 1) & _MASK for x in accumulate(t.start_line_delta)]
    f._scol, f._ecol = list(t.start_column), list(t.end_column)
    f._eline = [l + c for l, c in zip(f._sline, t.line_count)]
    sub = list(range(1, n + 1))
    for i in range(n - 1, 0, -1):
        q = parent[i]
        if sub[i] > sub[q]:
            sub[q] = sub[i]
    f._sub = sub
    f._nodes = [None] * n
    f.kernels = [Kernel(f, k) for k in p.kernels]
    f.launches = [Launch(f, l) for l in p.launches]
    for k, pk in zip(f.kernels, p.kernels):
        k.launches = [f.launches[i] for i in pk.launched_by if 0 <= i < len(f.launches)]
    return f
