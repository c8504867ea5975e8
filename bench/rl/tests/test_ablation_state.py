"""bench/ablation/state.py: what survives between sessions restores the
device's results tree, and a state that could mislead is refused."""

import importlib.util
import os
import tarfile

import pytest

SPEC = importlib.util.spec_from_file_location(
    "ablation_state", os.path.join(os.path.dirname(__file__), "..", "..", "ablation", "state.py"))
state = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(state)


def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def results(tmp, adapter="weights-1", open_runs=("ver-s3",), made="modes: [ver, both]\n"):
    """A device results tree: the SFT start, two evaluated runs and open ones."""
    r = tmp / "results"
    put(r / "sft" / "epoch-2" / "adapter.bin", "older epoch")
    put(r / "sft" / "epoch-16" / "adapter.bin", adapter)
    base = r / "ablation" / "abl"
    put(base / "ablation.yaml", made)
    for run in ("ver-s1", "both-s1"):
        put(base / run / "metrics.jsonl", run + " metrics\n")
        put(base / run / "eval-test.json", "{}")
        put(base / run / "checkpoints" / "latest", "step-000010\n")  # the device packs the pointer only
    for run in open_runs:
        put(base / run / "metrics.jsonl", run + " steps 1-5\n")
        put(base / run / "checkpoints" / "latest", "step-000005\n")
        put(base / run / "checkpoints" / "step-000005" / "state.json", '{"step": 5}')
        put(base / run / "checkpoints" / "step-000005" / "policy" / "adapter.bin", run + " step 5")
    return r


def lease(tmp, name, res, runs):
    """A committed lease folder: the runs' outputs without checkpoints."""
    d = tmp / "repo" / "bench" / "h200" / name
    for run in runs:
        src = res / "ablation" / "abl" / run
        for f in ("metrics.jsonl", "eval-test.json"):
            if (src / f).exists():
                put(d / "ablation" / run / f, (src / f).read_text())
    return d


def unpack(tar_path, dest):
    with tarfile.open(tar_path) as t:
        t.extractall(dest, filter="data")
    return {os.path.relpath(os.path.join(dp, f), dest): open(os.path.join(dp, f)).read()
            for dp, _, fs in os.walk(dest) for f in fs}


def test_restore_rebuilds_the_start_the_runs_and_the_open_checkpoint(tmp_path):
    res = results(tmp_path)
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    l1 = lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])
    state.save(str(res), str(l1), state=str(st), root=str(repo))
    # A later lease continues ver-s3: its metrics replace the first lease's.
    put(res / "ablation" / "abl" / "ver-s3" / "metrics.jsonl", "ver-s3 steps 1-10\n")
    put(res / "ablation" / "abl" / "ver-s3" / "eval-test.json", "{}")
    (res / "ablation" / "abl" / "ver-s3" / "checkpoints" / "latest").write_text("step-000010\n")
    l2 = lease(tmp_path, "lease2", res, ["ver-s3"])
    m = state.save(str(res), str(l2), state=str(st), root=str(repo))
    assert m["runs"]["ver-s3"] == ["bench/h200/lease1", "bench/h200/lease2"]
    assert m["checkpoints"] == {}  # ver-s3 is evaluated: its checkpoint is not kept
    assert not os.listdir(st / "checkpoints")

    state.restore(str(tmp_path / "r.tar.gz"), state=str(st), root=str(repo))
    files = unpack(tmp_path / "r.tar.gz", tmp_path / "out")
    assert files["sft/epoch-16/adapter.bin"] == "weights-1"
    assert "sft/epoch-2/adapter.bin" not in files
    assert files["ablation/abl/ver-s3/metrics.jsonl"] == "ver-s3 steps 1-10\n"
    assert files["ablation/abl/ver-s1/eval-test.json"] == "{}"
    assert not any("/checkpoints/" in p for p in files)
    # The configuration record goes back, so that --resume can compare.
    assert files["ablation/abl/ablation.yaml"] == "modes: [ver, both]\n"


def test_a_changed_configuration_record_is_refused(tmp_path):
    """cudaperf ablate --resume compares its config with the record; a
    record that changed between sessions would hide a changed protocol."""
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    res = results(tmp_path)
    state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])), state=str(st), root=str(repo))
    before = state.digest_tree(str(st))
    put(res / "ablation" / "abl" / "ablation.yaml", "modes: [ver]\n")
    with pytest.raises(state.StateError, match="differs from the configuration the state's ablation was made with"):
        state.save(str(res), str(lease(tmp_path, "lease2", res, ["ver-s3"])), state=str(st), root=str(repo))
    assert state.digest_tree(str(st)) == before
    # A damaged record in the state is named at restore.
    (st / "ablation.yaml").write_text("edited\n")
    with pytest.raises(state.StateError, match="configuration record does not match"):
        state.restore(str(tmp_path / "r.tar.gz"), state=str(st), root=str(repo))


def test_a_state_saved_before_the_record_takes_it_later(tmp_path):
    """The committed state predates the record: the next save keeps it."""
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    res = results(tmp_path)
    (res / "ablation" / "abl" / "ablation.yaml").unlink()
    m = state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])), state=str(st), root=str(repo))
    assert m["made"] is None and not (st / "ablation.yaml").exists()
    state.restore(str(tmp_path / "r.tar.gz"), state=str(st), root=str(repo))
    put(res / "ablation" / "abl" / "ablation.yaml", "modes: [ver, both]\n")
    m = state.save(str(res), str(lease(tmp_path, "lease2", res, ["ver-s3"])), state=str(st), root=str(repo))
    assert m["made"] == state.sha256(str(st / "ablation.yaml"))


def test_an_open_run_resumes_from_its_saved_checkpoint(tmp_path):
    res = results(tmp_path)
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])), state=str(st), root=str(repo))
    state.restore(str(tmp_path / "r.tar.gz"), state=str(st), root=str(repo))
    files = unpack(tmp_path / "r.tar.gz", tmp_path / "out")
    ck = "ablation/abl/ver-s3/checkpoints/"
    assert files[ck + "latest"] == "step-000005\n"
    assert files[ck + "step-000005/policy/adapter.bin"] == "ver-s3 step 5"
    assert files["ablation/abl/ver-s3/metrics.jsonl"] == "ver-s3 steps 1-5\n"


def test_a_second_start_is_refused_and_the_state_is_left_as_it_was(tmp_path):
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    res = results(tmp_path)
    state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])), state=str(st), root=str(repo))
    before = state.digest_tree(str(st))
    other = results(tmp_path / "b", adapter="weights-2")
    with pytest.raises(state.StateError, match="one start"):
        state.save(str(other), str(lease(tmp_path, "lease2", other, ["ver-s3"])), state=str(st), root=str(repo))
    assert state.digest_tree(str(st)) == before


def test_a_checkpoint_without_its_runs_outputs_is_refused(tmp_path):
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    res = results(tmp_path)
    with pytest.raises(state.StateError, match="ver-s3 has a checkpoint but no outputs"):
        state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1"])), state=str(st), root=str(repo))
    assert not (st / "MANIFEST.json").exists() and not (st / "init").exists()


def test_a_changed_state_file_is_named_at_restore(tmp_path):
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    res = results(tmp_path)
    state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])), state=str(st), root=str(repo))
    (st / "checkpoints" / "ver-s3" / "step-000005" / "policy" / "adapter.bin").write_text("corrupted")
    with pytest.raises(state.StateError, match=r"run ver-s3's checkpoint does not match MANIFEST.json \(policy/adapter.bin\)"):
        state.restore(str(tmp_path / "r.tar.gz"), state=str(st), root=str(repo))
    assert not (tmp_path / "r.tar.gz").exists()


def test_the_committed_state_restores():
    """The repository's own state: every file matches its manifest and
    every run's lease folders exist (what the next session's first
    ablation call depends on)."""
    m = state.load_manifest(state.STATE)
    if m["init"] is None:
        pytest.skip("no ablation state committed")
    state.check(os.path.join(state.STATE, "init"), m["init"]["files"], "the start adapter")
    for run, ck in m["checkpoints"].items():
        state.check(os.path.join(state.STATE, "checkpoints", run, ck["step"]), ck["files"], run)
    for run, leases in m["runs"].items():
        for lz in leases:
            assert os.path.isdir(os.path.join(state.ROOT, lz, "ablation", run)), (run, lz)


def test_copy_takes_only_what_the_lease_made(tmp_path):
    res = results(tmp_path)
    repo, st = tmp_path / "repo", tmp_path / "repo" / "state"
    state.save(str(res), str(lease(tmp_path, "lease1", res, ["ver-s1", "both-s1", "ver-s3"])), state=str(st), root=str(repo))
    # The next lease: ver-s3 continues and is evaluated; the other runs are as restored.
    put(res / "ablation" / "abl" / "ver-s3" / "metrics.jsonl", "ver-s3 steps 1-10\n")
    put(res / "ablation" / "abl" / "ver-s3" / "eval-test.json", "{}")
    (res / "ablation" / "abl" / "ver-s3" / "checkpoints" / "latest").write_text("step-000010\n")
    import shutil
    shutil.rmtree(res / "ablation" / "abl" / "ver-s3" / "checkpoints" / "step-000005")
    l2 = repo / "bench" / "h200" / "lease2"
    m = state.save(str(res), str(l2), state=str(st), root=str(repo), copy=True)
    copied = sorted(os.path.relpath(os.path.join(dp, f), l2) for dp, _, fs in os.walk(l2) for f in fs)
    assert copied == ["ablation/ver-s3/eval-test.json", "ablation/ver-s3/metrics.jsonl"]
    assert m["runs"]["ver-s3"] == ["bench/h200/lease1", "bench/h200/lease2"]
    assert m["runs"]["ver-s1"] == ["bench/h200/lease1"]
    assert m["checkpoints"] == {}
