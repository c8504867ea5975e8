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
    __slots__ = ("plugin", "passes", "features", "checks", "options")
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    PASSES_FIELD_NUMBER: _ClassVar[int]
    FEATURES_FIELD_NUMBER: _ClassVar[int]
    CHECKS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    plugin: _common_pb2.PluginInfo
    passes: _containers.RepeatedCompositeFieldContainer[PassInfo]
    features: _containers.RepeatedCompositeFieldContainer[FeatureInfo]
    checks: _containers.RepeatedCompositeFieldContainer[CheckInfo]
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    def __init__(self, plugin: _Optional[_Union[_common_pb2.PluginInfo, _Mapping]] = ..., passes: _Optional[_Iterable[_Union[PassInfo, _Mapping]]] = ..., features: _Optional[_Iterable[_Union[FeatureInfo, _Mapping]]] = ..., checks: _Optional[_Iterable[_Union[CheckInfo, _Mapping]]] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ...) -> None: ...

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
    __slots__ = ("name", "doc", "default_value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DOC_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    doc: str
    default_value: str
    def __init__(self, name: _Optional[str] = ..., doc: _Optional[str] = ..., default_value: _Optional[str] = ...) -> None: ...

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
    __slots__ = ("path", "content", "ptxas_report", "compile_flags")
    PATH_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    PTXAS_REPORT_FIELD_NUMBER: _ClassVar[int]
    COMPILE_FLAGS_FIELD_NUMBER: _ClassVar[int]
    path: str
    content: bytes
    ptxas_report: str
    compile_flags: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, path: _Optional[str] = ..., content: _Optional[bytes] = ..., ptxas_report: _Optional[str] = ..., compile_flags: _Optional[_Iterable[str]] = ...) -> None: ...

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
