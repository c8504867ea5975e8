from cudaperf.plugin.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Severity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEVERITY_UNSPECIFIED: _ClassVar[Severity]
    SEVERITY_NOTE: _ClassVar[Severity]
    SEVERITY_WARNING: _ClassVar[Severity]
    SEVERITY_ERROR: _ClassVar[Severity]
SEVERITY_UNSPECIFIED: Severity
SEVERITY_NOTE: Severity
SEVERITY_WARNING: Severity
SEVERITY_ERROR: Severity

class DescribeAnalyzerRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DescribeAnalyzerResponse(_message.Message):
    __slots__ = ("plugin", "passes", "features", "checks", "options", "wants_parsed_files")
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    PASSES_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    CHECKS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    WANTS_PARSED_FILES_FIELD_NUMBER: _ClassVar[int]
    plugin: _common_pb2.PluginInfo
    passes: _containers.RepeatedCompositeFieldContainer[PassInfo]
    features: _containers.RepeatedCompositeFieldContainer[FeatureInfo]
    checks: _containers.RepeatedCompositeFieldContainer[CheckInfo]
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    wants_parsed_files: bool
    def __init__(self, plugin: _Optional[_Union[_common_pb2.PluginInfo, _Mapping]] = ..., passes: _Optional[_Iterable[_Union[PassInfo, _Mapping]]] = ..., features: _Optional[_Iterable[_Union[FeatureInfo, _Mapping]]] = ..., checks: _Optional[_Iterable[_Union[CheckInfo, _Mapping]]] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ..., wants_parsed_files: _Optional[bool] = ...) -> None: ...

class PassInfo(_message.Message):
    __slots__ = ("name", "doc", "url")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    name: str
    doc: str
    url: str
    def __init__(self, name: _Optional[str] = ..., doc: _Optional[str] = ..., url: _Optional[str] = ...) -> None: ...

class FeatureInfo(_message.Message):
    __slots__ = ("name", "unit", "doc", "range", "per_kernel", "version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    RANGE_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    PER_KERNEL_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    unit: str
    doc: str
    range: str
    per_kernel: bool
    version: int
    def __init__(self, name: _Optional[str] = ..., unit: _Optional[str] = ..., doc: _Optional[str] = ..., range: _Optional[str] = ..., per_kernel: _Optional[bool] = ..., version: _Optional[int] = ..., **kwargs) -> None: ...

class CheckInfo(_message.Message):
    __slots__ = ("id", "title", "doc", "url", "default_severity")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_SEVERITY_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    doc: str
    url: str
    default_severity: Severity
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., doc: _Optional[str] = ..., url: _Optional[str] = ..., default_severity: _Optional[_Union[Severity, str]] = ..., **kwargs) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "doc", "default_value", "type", "check", "min", "max")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    CHECK_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    name: str
    doc: str
    default_value: str
    type: str
    check: str
    min: str
    max: str
    def __init__(self, name: _Optional[str] = ..., doc: _Optional[str] = ..., default_value: _Optional[str] = ..., type: _Optional[str] = ..., check: _Optional[str] = ..., min: _Optional[str] = ..., max: _Optional[str] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("files", "options", "target", "passes", "sizes")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    class SizesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    FILES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    PASSES_FIELD_NUMBER: _ClassVar[int]
    SIZES_FIELD_NUMBER: _ClassVar[int]
    files: _containers.RepeatedCompositeFieldContainer[SourceFile]
    options: _containers.ScalarMap[str, str]
    target: _common_pb2.Device
    passes: _containers.RepeatedScalarFieldContainer[str]
    sizes: _containers.ScalarMap[str, int]
    def __init__(self, files: _Optional[_Iterable[_Union[SourceFile, _Mapping]]] = ..., options: _Optional[_Mapping[str, str]] = ..., target: _Optional[_Union[_common_pb2.Device, _Mapping]] = ..., passes: _Optional[_Iterable[str]] = ..., sizes: _Optional[_Mapping[str, int]] = ...) -> None: ...

class SourceFile(_message.Message):
    __slots__ = ("path", "content", "ptxas_report", "compile_flags", "parsed")
    PATH_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    PTXAS_REPORT_FIELD_NUMBER: _ClassVar[int]
    COMPILE_FLAGS_FIELD_NUMBER: _ClassVar[int]
    PARSED_FIELD_NUMBER: _ClassVar[int]
    path: str
    content: bytes
    ptxas_report: str
    compile_flags: _containers.RepeatedScalarFieldContainer[str]
    parsed: ParsedFile
    def __init__(self, path: _Optional[str] = ..., content: _Optional[bytes] = ..., ptxas_report: _Optional[str] = ..., compile_flags: _Optional[_Iterable[str]] = ..., parsed: _Optional[_Union[ParsedFile, _Mapping]] = ...) -> None: ...

class ParsedFile(_message.Message):
    __slots__ = ("format", "tree", "kernels", "launches")
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    TREE_FIELD_NUMBER: _ClassVar[int]
    KERNELS_FIELD_NUMBER: _ClassVar[int]
    LAUNCHES_FIELD_NUMBER: _ClassVar[int]
    format: int
    tree: SyntaxTree
    kernels: _containers.RepeatedCompositeFieldContainer[KernelInfo]
    launches: _containers.RepeatedCompositeFieldContainer[LaunchSite]
    def __init__(self, format: _Optional[int] = ..., tree: _Optional[_Union[SyntaxTree, _Mapping]] = ..., kernels: _Optional[_Iterable[_Union[KernelInfo, _Mapping]]] = ..., launches: _Optional[_Iterable[_Union[LaunchSite, _Mapping]]] = ...) -> None: ...

class SyntaxTree(_message.Message):
    __slots__ = ("kinds", "fields", "kind", "field", "parent_delta", "start_byte_delta", "length", "start_line_delta", "start_column", "line_count", "end_column", "flags")
    KINDS_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    PARENT_DELTA_FIELD_NUMBER: _ClassVar[int]
    START_BYTE_DELTA_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    START_LINE_DELTA_FIELD_NUMBER: _ClassVar[int]
    START_COLUMN_FIELD_NUMBER: _ClassVar[int]
    LINE_COUNT_FIELD_NUMBER: _ClassVar[int]
    END_COLUMN_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    kinds: _containers.RepeatedScalarFieldContainer[str]
    fields: _containers.RepeatedScalarFieldContainer[str]
    kind: _containers.RepeatedScalarFieldContainer[int]
    field: _containers.RepeatedScalarFieldContainer[int]
    parent_delta: _containers.RepeatedScalarFieldContainer[int]
    start_byte_delta: _containers.RepeatedScalarFieldContainer[int]
    length: _containers.RepeatedScalarFieldContainer[int]
    start_line_delta: _containers.RepeatedScalarFieldContainer[int]
    start_column: _containers.RepeatedScalarFieldContainer[int]
    line_count: _containers.RepeatedScalarFieldContainer[int]
    end_column: _containers.RepeatedScalarFieldContainer[int]
    flags: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kinds: _Optional[_Iterable[str]] = ..., fields: _Optional[_Iterable[str]] = ..., kind: _Optional[_Iterable[int]] = ..., field: _Optional[_Iterable[int]] = ..., parent_delta: _Optional[_Iterable[int]] = ..., start_byte_delta: _Optional[_Iterable[int]] = ..., length: _Optional[_Iterable[int]] = ..., start_line_delta: _Optional[_Iterable[int]] = ..., start_column: _Optional[_Iterable[int]] = ..., line_count: _Optional[_Iterable[int]] = ..., end_column: _Optional[_Iterable[int]] = ..., flags: _Optional[_Iterable[int]] = ...) -> None: ...

class KernelInfo(_message.Message):
    __slots__ = ("name", "qualified", "node", "name_node", "body_node", "qualifiers", "params", "launch_bounds", "template_params", "extern_c", "launched_by")
    NAME_FIELD_NUMBER: _ClassVar[int]
    QUALIFIED_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    NAME_NODE_FIELD_NUMBER: _ClassVar[int]
    BODY_NODE_FIELD_NUMBER: _ClassVar[int]
    QUALIFIERS_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    LAUNCH_BOUNDS_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_PARAMS_FIELD_NUMBER: _ClassVar[int]
    EXTERN_C_FIELD_NUMBER: _ClassVar[int]
    LAUNCHED_BY_FIELD_NUMBER: _ClassVar[int]
    name: str
    qualified: str
    node: int
    name_node: int
    body_node: int
    qualifiers: _containers.RepeatedScalarFieldContainer[str]
    params: _containers.RepeatedCompositeFieldContainer[KernelParam]
    launch_bounds: LaunchBoundsInfo
    template_params: _containers.RepeatedScalarFieldContainer[str]
    extern_c: bool
    launched_by: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., qualified: _Optional[str] = ..., node: _Optional[int] = ..., name_node: _Optional[int] = ..., body_node: _Optional[int] = ..., qualifiers: _Optional[_Iterable[str]] = ..., params: _Optional[_Iterable[_Union[KernelParam, _Mapping]]] = ..., launch_bounds: _Optional[_Union[LaunchBoundsInfo, _Mapping]] = ..., template_params: _Optional[_Iterable[str]] = ..., extern_c: _Optional[bool] = ..., launched_by: _Optional[_Iterable[int]] = ...) -> None: ...

class KernelParam(_message.Message):
    __slots__ = ("name", "type", "pointer", "const", "restrict", "node")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    POINTER_FIELD_NUMBER: _ClassVar[int]
    CONST_FIELD_NUMBER: _ClassVar[int]
    RESTRICT_FIELD_NUMBER: _ClassVar[int]
    NODE_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    pointer: int
    const: bool
    restrict: bool
    node: int
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., pointer: _Optional[int] = ..., const: _Optional[bool] = ..., restrict: _Optional[bool] = ..., node: _Optional[int] = ...) -> None: ...

class LaunchBoundsInfo(_message.Message):
    __slots__ = ("node", "max_threads", "min_blocks", "max_cluster", "args")
    NODE_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_FIELD_NUMBER: _ClassVar[int]
    MIN_BLOCKS_FIELD_NUMBER: _ClassVar[int]
    MAX_CLUSTER_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    node: int
    max_threads: int
    min_blocks: int
    max_cluster: int
    args: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, node: _Optional[int] = ..., max_threads: _Optional[int] = ..., min_blocks: _Optional[int] = ..., max_cluster: _Optional[int] = ..., args: _Optional[_Iterable[str]] = ...) -> None: ...

class LaunchSite(_message.Message):
    __slots__ = ("node", "callee", "template_args", "kernel", "caller", "grid", "block", "shared_mem", "stream", "grid_node", "block_node", "shared_mem_node", "stream_node")
    NODE_FIELD_NUMBER: _ClassVar[int]
    CALLEE_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ARGS_FIELD_NUMBER: _ClassVar[int]
    KERNEL_FIELD_NUMBER: _ClassVar[int]
    CALLER_FIELD_NUMBER: _ClassVar[int]
    GRID_FIELD_NUMBER: _ClassVar[int]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    SHARED_MEM_FIELD_NUMBER: _ClassVar[int]
    STREAM_FIELD_NUMBER: _ClassVar[int]
    GRID_NODE_FIELD_NUMBER: _ClassVar[int]
    BLOCK_NODE_FIELD_NUMBER: _ClassVar[int]
    SHARED_MEM_NODE_FIELD_NUMBER: _ClassVar[int]
    STREAM_NODE_FIELD_NUMBER: _ClassVar[int]
    node: int
    callee: str
    template_args: _containers.RepeatedScalarFieldContainer[str]
    kernel: int
    caller: str
    grid: _containers.RepeatedCompositeFieldContainer[LaunchValue]
    block: _containers.RepeatedCompositeFieldContainer[LaunchValue]
    shared_mem: LaunchValue
    stream: str
    grid_node: int
    block_node: int
    shared_mem_node: int
    stream_node: int
    def __init__(self, node: _Optional[int] = ..., callee: _Optional[str] = ..., template_args: _Optional[_Iterable[str]] = ..., kernel: _Optional[int] = ..., caller: _Optional[str] = ..., grid: _Optional[_Iterable[_Union[LaunchValue, _Mapping]]] = ..., block: _Optional[_Iterable[_Union[LaunchValue, _Mapping]]] = ..., shared_mem: _Optional[_Union[LaunchValue, _Mapping]] = ..., stream: _Optional[str] = ..., grid_node: _Optional[int] = ..., block_node: _Optional[int] = ..., shared_mem_node: _Optional[int] = ..., stream_node: _Optional[int] = ...) -> None: ...

class LaunchValue(_message.Message):
    __slots__ = ("known", "value", "text")
    KNOWN_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    known: bool
    value: int
    text: str
    def __init__(self, known: _Optional[bool] = ..., value: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("files",)
    FILES_FIELD_NUMBER: _ClassVar[int]
    files: _containers.RepeatedCompositeFieldContainer[FileResult]
    def __init__(self, files: _Optional[_Iterable[_Union[FileResult, _Mapping]]] = ...) -> None: ...

class FileResult(_message.Message):
    __slots__ = ("path", "features", "diagnostics", "error")
    PATH_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    DIAGNOSTICS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    path: str
    features: _containers.RepeatedCompositeFieldContainer[Feature]
    diagnostics: _containers.RepeatedCompositeFieldContainer[Diagnostic]
    error: str
    def __init__(self, path: _Optional[str] = ..., features: _Optional[_Iterable[_Union[Feature, _Mapping]]] = ..., diagnostics: _Optional[_Iterable[_Union[Diagnostic, _Mapping]]] = ..., error: _Optional[str] = ...) -> None: ...

class Feature(_message.Message):
    __slots__ = ("kernel", "name", "value", "unit", "unknown", "estimated")
    KERNEL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    UNIT_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    ESTIMATED_FIELD_NUMBER: _ClassVar[int]
    kernel: str
    name: str
    value: float
    unit: str
    unknown: bool
    estimated: bool
    def __init__(self, kernel: _Optional[str] = ..., name: _Optional[str] = ..., value: _Optional[float] = ..., unit: _Optional[str] = ..., unknown: _Optional[bool] = ..., estimated: _Optional[bool] = ..., **kwargs) -> None: ...

class Diagnostic(_message.Message):
    __slots__ = ("check", "severity", "range", "message", "url", "fixes", "kernel", "related")
    CHECK_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    RANGE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    FIXES_FIELD_NUMBER: _ClassVar[int]
    KERNEL_FIELD_NUMBER: _ClassVar[int]
    RELATED_FIELD_NUMBER: _ClassVar[int]
    check: str
    severity: Severity
    range: Range
    message: str
    url: str
    fixes: _containers.RepeatedCompositeFieldContainer[SuggestedFix]
    kernel: str
    related: _containers.RepeatedCompositeFieldContainer[RelatedLocation]
    def __init__(self, check: _Optional[str] = ..., severity: _Optional[_Union[Severity, str]] = ..., range: _Optional[_Union[Range, _Mapping]] = ..., message: _Optional[str] = ..., url: _Optional[str] = ..., fixes: _Optional[_Iterable[_Union[SuggestedFix, _Mapping]]] = ..., kernel: _Optional[str] = ..., related: _Optional[_Iterable[_Union[RelatedLocation, _Mapping]]] = ...) -> None: ...

class Range(_message.Message):
    __slots__ = ("file", "start_byte", "end_byte", "start_line", "start_column", "end_line", "end_column")
    FILE_FIELD_NUMBER: _ClassVar[int]
    START_BYTE_FIELD_NUMBER: _ClassVar[int]
    END_BYTE_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    START_COLUMN_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    END_COLUMN_FIELD_NUMBER: _ClassVar[int]
    file: str
    start_byte: int
    end_byte: int
    start_line: int
    start_column: int
    end_line: int
    end_column: int
    def __init__(self, file: _Optional[str] = ..., start_byte: _Optional[int] = ..., end_byte: _Optional[int] = ..., start_line: _Optional[int] = ..., start_column: _Optional[int] = ..., end_line: _Optional[int] = ..., end_column: _Optional[int] = ...) -> None: ...

class RelatedLocation(_message.Message):
    __slots__ = ("range", "message")
    RANGE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    range: Range
    message: str
    def __init__(self, range: _Optional[_Union[Range, _Mapping]] = ..., message: _Optional[str] = ...) -> None: ...

class SuggestedFix(_message.Message):
    __slots__ = ("message", "edits")
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    EDITS_FIELD_NUMBER: _ClassVar[int]
    message: str
    edits: _containers.RepeatedCompositeFieldContainer[TextEdit]
    def __init__(self, message: _Optional[str] = ..., edits: _Optional[_Iterable[_Union[TextEdit, _Mapping]]] = ...) -> None: ...

class TextEdit(_message.Message):
    __slots__ = ("range", "new_text")
    RANGE_FIELD_NUMBER: _ClassVar[int]
    NEW_TEXT_FIELD_NUMBER: _ClassVar[int]
    range: Range
    new_text: str
    def __init__(self, range: _Optional[_Union[Range, _Mapping]] = ..., new_text: _Optional[str] = ...) -> None: ...
