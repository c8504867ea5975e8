from cudaperf.plugin.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UpdateObjective(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    UPDATE_OBJECTIVE_GRPO: _ClassVar[UpdateObjective]
    UPDATE_OBJECTIVE_SFT: _ClassVar[UpdateObjective]
UPDATE_OBJECTIVE_GRPO: UpdateObjective
UPDATE_OBJECTIVE_SFT: UpdateObjective

class DescribePolicyRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DescribePolicyResponse(_message.Message):
    __slots__ = ("plugin", "can_update", "model", "max_context_tokens", "can_logprobs")
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    CAN_UPDATE_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MAX_CONTEXT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CAN_LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    plugin: _common_pb2.PluginInfo
    can_update: bool
    model: str
    max_context_tokens: int
    can_logprobs: bool
    def __init__(self, plugin: _Optional[_Union[_common_pb2.PluginInfo, _Mapping]] = ..., can_update: _Optional[bool] = ..., model: _Optional[str] = ..., max_context_tokens: _Optional[int] = ..., can_logprobs: _Optional[bool] = ...) -> None: ...

class Message(_message.Message):
    __slots__ = ("role", "content")
    ROLE_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    role: str
    content: str
    def __init__(self, role: _Optional[str] = ..., content: _Optional[str] = ...) -> None: ...

class Prompt(_message.Message):
    __slots__ = ("id", "messages")
    ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    id: str
    messages: _containers.RepeatedCompositeFieldContainer[Message]
    def __init__(self, id: _Optional[str] = ..., messages: _Optional[_Iterable[_Union[Message, _Mapping]]] = ...) -> None: ...

class SamplingParams(_message.Message):
    __slots__ = ("temperature", "top_p", "max_tokens", "seed", "stop", "logprobs")
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TOP_P_FIELD_NUMBER: _ClassVar[int]
    MAX_TOKENS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    temperature: float
    top_p: float
    max_tokens: int
    seed: int
    stop: _containers.RepeatedScalarFieldContainer[str]
    logprobs: bool
    def __init__(self, temperature: _Optional[float] = ..., top_p: _Optional[float] = ..., max_tokens: _Optional[int] = ..., seed: _Optional[int] = ..., stop: _Optional[_Iterable[str]] = ..., logprobs: _Optional[bool] = ...) -> None: ...

class GenerateRequest(_message.Message):
    __slots__ = ("prompts", "group_size", "sampling")
    PROMPTS_FIELD_NUMBER: _ClassVar[int]
    GROUP_SIZE_FIELD_NUMBER: _ClassVar[int]
    SAMPLING_FIELD_NUMBER: _ClassVar[int]
    prompts: _containers.RepeatedCompositeFieldContainer[Prompt]
    group_size: int
    sampling: SamplingParams
    def __init__(self, prompts: _Optional[_Iterable[_Union[Prompt, _Mapping]]] = ..., group_size: _Optional[int] = ..., sampling: _Optional[_Union[SamplingParams, _Mapping]] = ...) -> None: ...

class GenerateResponse(_message.Message):
    __slots__ = ("completions",)
    COMPLETIONS_FIELD_NUMBER: _ClassVar[int]
    completions: _containers.RepeatedCompositeFieldContainer[Completion]
    def __init__(self, completions: _Optional[_Iterable[_Union[Completion, _Mapping]]] = ...) -> None: ...

class Completion(_message.Message):
    __slots__ = ("prompt_id", "index", "text", "logprobs", "finish_reason", "prompt_tokens", "completion_tokens")
    PROMPT_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    PROMPT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_TOKENS_FIELD_NUMBER: _ClassVar[int]
    prompt_id: str
    index: int
    text: str
    logprobs: _containers.RepeatedCompositeFieldContainer[TokenLogprob]
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    def __init__(self, prompt_id: _Optional[str] = ..., index: _Optional[int] = ..., text: _Optional[str] = ..., logprobs: _Optional[_Iterable[_Union[TokenLogprob, _Mapping]]] = ..., finish_reason: _Optional[str] = ..., prompt_tokens: _Optional[int] = ..., completion_tokens: _Optional[int] = ...) -> None: ...

class TokenLogprob(_message.Message):
    __slots__ = ("token", "token_id", "logprob")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_ID_FIELD_NUMBER: _ClassVar[int]
    LOGPROB_FIELD_NUMBER: _ClassVar[int]
    token: str
    token_id: int
    logprob: float
    def __init__(self, token: _Optional[str] = ..., token_id: _Optional[int] = ..., logprob: _Optional[float] = ...) -> None: ...

class Rollout(_message.Message):
    __slots__ = ("prompt", "completion", "reward", "advantage", "logprobs", "group_id", "weight")
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_FIELD_NUMBER: _ClassVar[int]
    REWARD_FIELD_NUMBER: _ClassVar[int]
    ADVANTAGE_FIELD_NUMBER: _ClassVar[int]
    LOGPROBS_FIELD_NUMBER: _ClassVar[int]
    GROUP_ID_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    prompt: Prompt
    completion: str
    reward: float
    advantage: float
    logprobs: _containers.RepeatedCompositeFieldContainer[TokenLogprob]
    group_id: str
    weight: float
    def __init__(self, prompt: _Optional[_Union[Prompt, _Mapping]] = ..., completion: _Optional[str] = ..., reward: _Optional[float] = ..., advantage: _Optional[float] = ..., logprobs: _Optional[_Iterable[_Union[TokenLogprob, _Mapping]]] = ..., group_id: _Optional[str] = ..., weight: _Optional[float] = ...) -> None: ...

class UpdateRequest(_message.Message):
    __slots__ = ("rollouts", "step", "hyperparameters", "objective")
    class HyperparametersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    ROLLOUTS_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    HYPERPARAMETERS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    rollouts: _containers.RepeatedCompositeFieldContainer[Rollout]
    step: int
    hyperparameters: _containers.ScalarMap[str, float]
    objective: UpdateObjective
    def __init__(self, rollouts: _Optional[_Iterable[_Union[Rollout, _Mapping]]] = ..., step: _Optional[int] = ..., hyperparameters: _Optional[_Mapping[str, float]] = ..., objective: _Optional[_Union[UpdateObjective, str]] = ...) -> None: ...

class UpdateResponse(_message.Message):
    __slots__ = ("stats",)
    class StatsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    STATS_FIELD_NUMBER: _ClassVar[int]
    stats: _containers.ScalarMap[str, float]
    def __init__(self, stats: _Optional[_Mapping[str, float]] = ...) -> None: ...

class SaveRequest(_message.Message):
    __slots__ = ("path",)
    PATH_FIELD_NUMBER: _ClassVar[int]
    path: str
    def __init__(self, path: _Optional[str] = ...) -> None: ...

class SaveResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LoadRequest(_message.Message):
    __slots__ = ("path", "weights_only")
    PATH_FIELD_NUMBER: _ClassVar[int]
    WEIGHTS_ONLY_FIELD_NUMBER: _ClassVar[int]
    path: str
    weights_only: bool
    def __init__(self, path: _Optional[str] = ..., weights_only: _Optional[bool] = ...) -> None: ...

class LoadResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
