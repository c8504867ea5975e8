from cudaperf.plugin.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DescribeBenchmarkerRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DescribeBenchmarkerResponse(_message.Message):
    __slots__ = ("plugin", "task_kinds", "compiler", "default_arch", "profiles")
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    TASK_KINDS_FIELD_NUMBER: _ClassVar[int]
    COMPILER_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ARCH_FIELD_NUMBER: _ClassVar[int]
    PROFILES_FIELD_NUMBER: _ClassVar[int]
    plugin: _common_pb2.PluginInfo
    task_kinds: _containers.RepeatedScalarFieldContainer[str]
    compiler: str
    default_arch: str
    profiles: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, plugin: _Optional[_Union[_common_pb2.PluginInfo, _Mapping]] = ..., task_kinds: _Optional[_Iterable[str]] = ..., compiler: _Optional[str] = ..., default_arch: _Optional[str] = ..., profiles: _Optional[_Iterable[str]] = ...) -> None: ...

class DevicesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DevicesResponse(_message.Message):
    __slots__ = ("devices",)
    DEVICES_FIELD_NUMBER: _ClassVar[int]
    devices: _containers.RepeatedCompositeFieldContainer[_common_pb2.Device]
    def __init__(self, devices: _Optional[_Iterable[_Union[_common_pb2.Device, _Mapping]]] = ...) -> None: ...

class CompileRequest(_message.Message):
    __slots__ = ("source", "filename", "flags", "arch", "task_kind")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    ARCH_FIELD_NUMBER: _ClassVar[int]
    TASK_KIND_FIELD_NUMBER: _ClassVar[int]
    source: bytes
    filename: str
    flags: _containers.RepeatedScalarFieldContainer[str]
    arch: str
    task_kind: str
    def __init__(self, source: _Optional[bytes] = ..., filename: _Optional[str] = ..., flags: _Optional[_Iterable[str]] = ..., arch: _Optional[str] = ..., task_kind: _Optional[str] = ...) -> None: ...

class CompileResponse(_message.Message):
    __slots__ = ("ok", "log", "kernels", "artifact", "compile_seconds", "cached")
    OK_FIELD_NUMBER: _ClassVar[int]
    LOG_FIELD_NUMBER: _ClassVar[int]
    KERNELS_FIELD_NUMBER: _ClassVar[int]
    ARTIFACT_FIELD_NUMBER: _ClassVar[int]
    COMPILE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    CACHED_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    log: str
    kernels: _containers.RepeatedCompositeFieldContainer[KernelResources]
    artifact: str
    compile_seconds: float
    cached: bool
    def __init__(self, ok: _Optional[bool] = ..., log: _Optional[str] = ..., kernels: _Optional[_Iterable[_Union[KernelResources, _Mapping]]] = ..., artifact: _Optional[str] = ..., compile_seconds: _Optional[float] = ..., cached: _Optional[bool] = ...) -> None: ...

class KernelResources(_message.Message):
    __slots__ = ("name", "demangled", "arch", "registers", "shared_bytes", "spill_store_bytes", "spill_load_bytes", "stack_bytes", "constant_bytes")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEMANGLED_FIELD_NUMBER: _ClassVar[int]
    ARCH_FIELD_NUMBER: _ClassVar[int]
    REGISTERS_FIELD_NUMBER: _ClassVar[int]
    SHARED_BYTES_FIELD_NUMBER: _ClassVar[int]
    SPILL_STORE_BYTES_FIELD_NUMBER: _ClassVar[int]
    SPILL_LOAD_BYTES_FIELD_NUMBER: _ClassVar[int]
    STACK_BYTES_FIELD_NUMBER: _ClassVar[int]
    CONSTANT_BYTES_FIELD_NUMBER: _ClassVar[int]
    name: str
    demangled: str
    arch: str
    registers: int
    shared_bytes: int
    spill_store_bytes: int
    spill_load_bytes: int
    stack_bytes: int
    constant_bytes: int
    def __init__(self, name: _Optional[str] = ..., demangled: _Optional[str] = ..., arch: _Optional[str] = ..., registers: _Optional[int] = ..., shared_bytes: _Optional[int] = ..., spill_store_bytes: _Optional[int] = ..., spill_load_bytes: _Optional[int] = ..., stack_bytes: _Optional[int] = ..., constant_bytes: _Optional[int] = ...) -> None: ...

class RunRequest(_message.Message):
    __slots__ = ("task_kind", "task_path", "task_files", "source", "filename", "flags", "arch", "artifact", "configs", "seed", "warmup", "repetitions", "time_limit_seconds", "device_index", "time_reference", "profile", "compile_only", "second_seed", "candidate_kind", "expect")
    class TaskFilesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: bytes
        def __init__(self, key: _Optional[str] = ..., value: _Optional[bytes] = ...) -> None: ...
    TASK_KIND_FIELD_NUMBER: _ClassVar[int]
    TASK_PATH_FIELD_NUMBER: _ClassVar[int]
    TASK_FILES_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    FILENAME_FIELD_NUMBER: _ClassVar[int]
    FLAGS_FIELD_NUMBER: _ClassVar[int]
    ARCH_FIELD_NUMBER: _ClassVar[int]
    ARTIFACT_FIELD_NUMBER: _ClassVar[int]
    CONFIGS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    WARMUP_FIELD_NUMBER: _ClassVar[int]
    REPETITIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DEVICE_INDEX_FIELD_NUMBER: _ClassVar[int]
    TIME_REFERENCE_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    COMPILE_ONLY_FIELD_NUMBER: _ClassVar[int]
    SECOND_SEED_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_KIND_FIELD_NUMBER: _ClassVar[int]
    EXPECT_FIELD_NUMBER: _ClassVar[int]
    task_kind: str
    task_path: str
    task_files: _containers.ScalarMap[str, bytes]
    source: bytes
    filename: str
    flags: _containers.RepeatedScalarFieldContainer[str]
    arch: str
    artifact: str
    configs: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    warmup: int
    repetitions: int
    time_limit_seconds: float
    device_index: int
    time_reference: bool
    profile: str
    compile_only: bool
    second_seed: int
    candidate_kind: str
    expect: str
    def __init__(self, task_kind: _Optional[str] = ..., task_path: _Optional[str] = ..., task_files: _Optional[_Mapping[str, bytes]] = ..., source: _Optional[bytes] = ..., filename: _Optional[str] = ..., flags: _Optional[_Iterable[str]] = ..., arch: _Optional[str] = ..., artifact: _Optional[str] = ..., configs: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ..., warmup: _Optional[int] = ..., repetitions: _Optional[int] = ..., time_limit_seconds: _Optional[float] = ..., device_index: _Optional[int] = ..., time_reference: _Optional[bool] = ..., profile: _Optional[str] = ..., compile_only: _Optional[bool] = ..., second_seed: _Optional[int] = ..., candidate_kind: _Optional[str] = ..., expect: _Optional[str] = ...) -> None: ...

class RunEvent(_message.Message):
    __slots__ = ("compiled", "config", "done")
    COMPILED_FIELD_NUMBER: _ClassVar[int]
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    compiled: CompileResponse
    config: ConfigResult
    done: RunSummary
    def __init__(self, compiled: _Optional[_Union[CompileResponse, _Mapping]] = ..., config: _Optional[_Union[ConfigResult, _Mapping]] = ..., done: _Optional[_Union[RunSummary, _Mapping]] = ...) -> None: ...

class ConfigResult(_message.Message):
    __slots__ = ("config", "passed", "max_abs_error", "max_rel_error", "tolerance", "timing", "reference_timing", "speedup", "reasons", "seed")
    CONFIG_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    MAX_ABS_ERROR_FIELD_NUMBER: _ClassVar[int]
    MAX_REL_ERROR_FIELD_NUMBER: _ClassVar[int]
    TOLERANCE_FIELD_NUMBER: _ClassVar[int]
    TIMING_FIELD_NUMBER: _ClassVar[int]
    REFERENCE_TIMING_FIELD_NUMBER: _ClassVar[int]
    SPEEDUP_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    config: str
    passed: bool
    max_abs_error: float
    max_rel_error: float
    tolerance: float
    timing: Timing
    reference_timing: Timing
    speedup: float
    reasons: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    def __init__(self, config: _Optional[str] = ..., passed: _Optional[bool] = ..., max_abs_error: _Optional[float] = ..., max_rel_error: _Optional[float] = ..., tolerance: _Optional[float] = ..., timing: _Optional[_Union[Timing, _Mapping]] = ..., reference_timing: _Optional[_Union[Timing, _Mapping]] = ..., speedup: _Optional[float] = ..., reasons: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ...) -> None: ...

class Timing(_message.Message):
    __slots__ = ("median_ms", "min_ms", "max_ms", "mean_ms", "cv", "repetitions")
    MEDIAN_MS_FIELD_NUMBER: _ClassVar[int]
    MIN_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_MS_FIELD_NUMBER: _ClassVar[int]
    MEAN_MS_FIELD_NUMBER: _ClassVar[int]
    CV_FIELD_NUMBER: _ClassVar[int]
    REPETITIONS_FIELD_NUMBER: _ClassVar[int]
    median_ms: float
    min_ms: float
    max_ms: float
    mean_ms: float
    cv: float
    repetitions: int
    def __init__(self, median_ms: _Optional[float] = ..., min_ms: _Optional[float] = ..., max_ms: _Optional[float] = ..., mean_ms: _Optional[float] = ..., cv: _Optional[float] = ..., repetitions: _Optional[int] = ...) -> None: ...

class RunSummary(_message.Message):
    __slots__ = ("passed", "failed", "geomean_speedup", "reasons", "device", "sm_clock_mhz", "memory_clock_mhz", "throttle_reasons", "record", "recorded")
    PASSED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    GEOMEAN_SPEEDUP_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    DEVICE_FIELD_NUMBER: _ClassVar[int]
    SM_CLOCK_MHZ_FIELD_NUMBER: _ClassVar[int]
    MEMORY_CLOCK_MHZ_FIELD_NUMBER: _ClassVar[int]
    THROTTLE_REASONS_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    passed: int
    failed: int
    geomean_speedup: float
    reasons: _containers.RepeatedScalarFieldContainer[str]
    device: _common_pb2.Device
    sm_clock_mhz: int
    memory_clock_mhz: int
    throttle_reasons: _containers.RepeatedScalarFieldContainer[str]
    record: str
    recorded: bool
    def __init__(self, passed: _Optional[int] = ..., failed: _Optional[int] = ..., geomean_speedup: _Optional[float] = ..., reasons: _Optional[_Iterable[str]] = ..., device: _Optional[_Union[_common_pb2.Device, _Mapping]] = ..., sm_clock_mhz: _Optional[int] = ..., memory_clock_mhz: _Optional[int] = ..., throttle_reasons: _Optional[_Iterable[str]] = ..., record: _Optional[str] = ..., recorded: _Optional[bool] = ...) -> None: ...
