"""The hf plugin as a real process, through the Python SDK's handshake and gRPC."""

import os
import subprocess
import sys

import grpc
import pytest

from cudaperf_plugin import MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, pb
from cudaperf.plugin.v1 import policy_pb2_grpc

PLUGIN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SDK_ROOT = os.path.abspath(os.path.join(PLUGIN_DIR, "..", "..", "python"))
# Deadlock guards, not timings: the first call waits for torch's import and the
# model's load, which took minutes on a CPU shared by many jobs.
WAIT = 900


def start(env_extra):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PLUGIN_DIR, SDK_ROOT]),
               **{MAGIC_COOKIE_KEY: MAGIC_COOKIE_VALUE}, CUDAPERF_HF_DEVICE="cpu")
    env.update(env_extra)
    proc = subprocess.Popen([sys.executable, os.path.join(PLUGIN_DIR, "main.py")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    line = proc.stdout.readline().decode().strip()
    assert line.endswith("|grpc"), (line, proc.stderr.read().decode()[-2000:])
    ch = grpc.insecure_channel(line.split("|")[3])
    return proc, ch


def stop(proc, ch):
    ch.unary_unary("/plugin.GRPCController/Shutdown", request_serializer=bytes, response_deserializer=bytes)(b"", timeout=60)
    assert proc.wait(timeout=60) == 0
    ch.close()


def test_plugin_process_generate_update_save_load(tiny_model, tmp_path):
    proc, ch = start({"CUDAPERF_HF_MODEL": tiny_model})
    try:
        stub = policy_pb2_grpc.PolicyServiceStub(ch)
        # Describe answers from the settings, before the model has loaded.
        d = stub.Describe(pb.DescribePolicyRequest(), timeout=60)
        assert (d.plugin.name, d.can_update, d.can_logprobs, d.model, d.max_context_tokens) == \
            ("hf", True, True, "model", 2048)

        prompts = [pb.Prompt(id="t1", messages=[pb.Message(role="user", content="add two vectors")]),
                   pb.Prompt(id="t2", messages=[pb.Message(role="user", content="sum an array of floats")])]
        gen = stub.Generate(pb.GenerateRequest(prompts=prompts, group_size=2, sampling=pb.SamplingParams(
            temperature=1.0, max_tokens=8, seed=1, logprobs=True)), timeout=WAIT)
        assert [(c.prompt_id, c.index) for c in gen.completions] == [("t1", 0), ("t1", 1), ("t2", 0), ("t2", 1)]
        for c in gen.completions:
            assert len(c.logprobs) == c.completion_tokens and 1 <= c.completion_tokens <= 8
            assert c.finish_reason in ("stop", "length") and c.prompt_tokens > 0

        ro = [pb.Rollout(prompt=prompts[i // 2], completion=c.text, advantage=1.0 if i % 2 == 0 else -1.0,
                         logprobs=c.logprobs, group_id=c.prompt_id) for i, c in enumerate(gen.completions)]
        up = stub.Update(pb.UpdateRequest(rollouts=ro, step=1, hyperparameters={"learning_rate": 1e-2}), timeout=WAIT)
        assert up.stats["rollouts"] == 4 and up.stats["ratio_mean"] == pytest.approx(1.0, abs=1e-4)

        sft = [pb.Rollout(prompt=prompts[0], completion="__global__ void k(){}", weight=2.0)]
        losses = [stub.Update(pb.UpdateRequest(rollouts=sft, step=2 + k, objective=pb.UPDATE_OBJECTIVE_SFT,
                                               hyperparameters={"learning_rate": 1e-2}), timeout=WAIT).stats["loss"]
                  for k in range(3)]
        assert losses[2] < losses[0]

        ck = str(tmp_path / "adapter")
        stub.Save(pb.SaveRequest(path=ck), timeout=WAIT)
        assert os.path.getsize(os.path.join(ck, "adapter_model.safetensors")) < 16 << 20
        stub.Load(pb.LoadRequest(path=ck), timeout=WAIT)

        with pytest.raises(grpc.RpcError) as err:
            stub.Load(pb.LoadRequest(path=str(tmp_path / "nothing")), timeout=WAIT)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "written by this policy's Save" in err.value.details()
        with pytest.raises(grpc.RpcError) as err:
            stub.Update(pb.UpdateRequest(), timeout=WAIT)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "no rollouts" in err.value.details()
    finally:
        if proc.poll() is None:
            stop(proc, ch)


def test_plugin_with_a_bad_model_path_says_what_to_fix():
    proc, ch = start({"CUDAPERF_HF_MODEL": "/no/such/model"})
    try:
        stub = policy_pb2_grpc.PolicyServiceStub(ch)
        with pytest.raises(grpc.RpcError) as err:
            stub.Describe(pb.DescribePolicyRequest(), timeout=60)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "CUDAPERF_HF_MODEL='/no/such/model'" in err.value.details()
    finally:
        stop(proc, ch)
