from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class PluginInfo(_message.Message):
    __slots__ = ("name", "version", "description", "url")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    description: str
    url: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., description: _Optional[str] = ..., url: _Optional[str] = ...) -> None: ...

class Device(_message.Message):
    __slots__ = ("index", "name", "compute_capability", "sm_count", "memory_bytes", "warp_size", "max_threads_per_block", "max_threads_per_sm", "max_blocks_per_sm", "registers_per_sm", "max_registers_per_thread", "shared_memory_per_sm_bytes", "shared_memory_per_block_bytes", "shared_memory_per_block_optin_bytes", "l2_cache_bytes", "sm_clock_mhz", "memory_clock_mhz", "memory_bandwidth_gbps", "uuid", "driver_version", "cuda_version")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    COMPUTE_CAPABILITY_FIELD_NUMBER: _ClassVar[int]
    SM_COUNT_FIELD_NUMBER: _ClassVar[int]
    MEMORY_BYTES_FIELD_NUMBER: _ClassVar[int]
    WARP_SIZE_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_PER_BLOCK_FIELD_NUMBER: _ClassVar[int]
    MAX_THREADS_PER_SM_FIELD_NUMBER: _ClassVar[int]
    MAX_BLOCKS_PER_SM_FIELD_NUMBER: _ClassVar[int]
    REGISTERS_PER_SM_FIELD_NUMBER: _ClassVar[int]
    MAX_REGISTERS_PER_THREAD_FIELD_NUMBER: _ClassVar[int]
    SHARED_MEMORY_PER_SM_BYTES_FIELD_NUMBER: _ClassVar[int]
    SHARED_MEMORY_PER_BLOCK_BYTES_FIELD_NUMBER: _ClassVar[int]
    SHARED_MEMORY_PER_BLOCK_OPTIN_BYTES_FIELD_NUMBER: _ClassVar[int]
    L2_CACHE_BYTES_FIELD_NUMBER: _ClassVar[int]
    SM_CLOCK_MHZ_FIELD_NUMBER: _ClassVar[int]
    MEMORY_CLOCK_MHZ_FIELD_NUMBER: _ClassVar[int]
    MEMORY_BANDWIDTH_GBPS_FIELD_NUMBER: _ClassVar[int]
    UUID_FIELD_NUMBER: _ClassVar[int]
    DRIVER_VERSION_FIELD_NUMBER: _ClassVar[int]
    CUDA_VERSION_FIELD_NUMBER: _ClassVar[int]
    index: int
    name: str
    compute_capability: str
    sm_count: int
    memory_bytes: int
    warp_size: int
    max_threads_per_block: int
    max_threads_per_sm: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_thread: int
    shared_memory_per_sm_bytes: int
    shared_memory_per_block_bytes: int
    shared_memory_per_block_optin_bytes: int
    l2_cache_bytes: int
    sm_clock_mhz: int
    memory_clock_mhz: int
    memory_bandwidth_gbps: float
    uuid: str
    driver_version: str
    cuda_version: str
    def __init__(self, index: _Optional[int] = ..., name: _Optional[str] = ..., compute_capability: _Optional[str] = ..., sm_count: _Optional[int] = ..., memory_bytes: _Optional[int] = ..., warp_size: _Optional[int] = ..., max_threads_per_block: _Optional[int] = ..., max_threads_per_sm: _Optional[int] = ..., max_blocks_per_sm: _Optional[int] = ..., registers_per_sm: _Optional[int] = ..., max_registers_per_thread: _Optional[int] = ..., shared_memory_per_sm_bytes: _Optional[int] = ..., shared_memory_per_block_bytes: _Optional[int] = ..., shared_memory_per_block_optin_bytes: _Optional[int] = ..., l2_cache_bytes: _Optional[int] = ..., sm_clock_mhz: _Optional[int] = ..., memory_clock_mhz: _Optional[int] = ..., memory_bandwidth_gbps: _Optional[float] = ..., uuid: _Optional[str] = ..., driver_version: _Optional[str] = ..., cuda_version: _Optional[str] = ...) -> None: ...
