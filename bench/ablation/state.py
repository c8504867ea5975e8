#!/usr/bin/env python3
"""The reward ablation's state between sessions (issue 15).

The device machine keeps nothing between sessions, and neither does this
one: only what is committed survives. An ablation that spans sessions needs
two things that are not raw outputs: the SFT adapter every run starts from,
and the latest checkpoint of a run cut by the session's end. Both live in
bench/ablation/state/ with a MANIFEST.json that also says, for each run,
which lease folders of bench/h200 hold its outputs (metrics, rollouts,
evaluations; committed per lease anyway, so not copied twice).

  state.py save RESULTS --lease DIR [--copy] [--skip RUN]
      after a lease: RESULTS is the unpacked rl-results (sft/, ablation/NAME/);
      DIR is the lease folder its run outputs were copied to
      (DIR/ablation/RUN/), or, with --copy, are copied to now: only the
      files the committed outputs lack or hold otherwise. Records DIR for
      every run found there, keeps the start adapter (refusing a different
      one: the ablation has one start), and replaces the saved checkpoints
      by RESULTS' (a run whose checkpoint the device no longer packs has
      been evaluated).
      The ablation's record of the configuration it was made with
      (ablation/NAME/ablation.yaml, written by `cudaperf ablate`) is kept
      too, so that --resume in a later session still refuses a changed
      protocol; a record that differs from the saved one is refused.
  state.py restore OUT.tar.gz
      before a session's first ablation call: the tar bench/rl/device.sh
      stage restores (carry it as .rl/results.tar.gz): sft/epoch-N, every
      run's outputs merged from its lease folders in order, the saved
      checkpoints and the ablation's record on top. Every state file is
      checked against its SHA256.

Paths in the manifest are relative to the repository root.
"""

import argparse
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STATE = os.path.join(ROOT, "bench", "ablation", "state")


class StateError(Exception):
    pass


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def list_tree(d):
    """The relative paths of every file under d, sorted."""
    return sorted(os.path.relpath(os.path.join(dp, f), d) for dp, _, fs in os.walk(d) for f in fs)


def digest_tree(d):
    """{relative path: sha256} of every file under d."""
    return {rel: sha256(os.path.join(d, rel)) for rel in list_tree(d)}


MADE = "ablation.yaml"  # host/ablation.MadeFile: the configuration the ablation was made with


def load_manifest(state):
    p = os.path.join(state, "MANIFEST.json")
    if not os.path.exists(p):
        return {"ablation": None, "init": None, "runs": {}, "checkpoints": {}, "made": None}
    with open(p) as f:
        m = json.load(f)
    m.setdefault("made", None)  # states saved before the record was kept
    return m


def write_manifest(state, m):
    os.makedirs(state, exist_ok=True)
    tmp = os.path.join(state, "MANIFEST.json.tmp")
    with open(tmp, "w") as f:
        json.dump(m, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, os.path.join(state, "MANIFEST.json"))


def last_epoch(sft):
    epochs = [d for d in os.listdir(sft) if d.startswith("epoch-") and d[6:].isdigit()] if os.path.isdir(sft) else []
    if not epochs:
        raise StateError(f"{sft}: no epoch-N folder: RESULTS must hold the SFT start (sft/epoch-N)")
    return max(epochs, key=lambda d: int(d[6:]))


def merged(m, run, root):
    """{relative path: file} of a run's committed outputs: its lease folders
    in order, a later one's file replacing an earlier one's."""
    out = {}
    for lease in m["runs"].get(run, []):
        d = os.path.join(root, lease, "ablation", run)
        if not os.path.isdir(d):
            raise StateError(f"{d}: listed for run {run} in MANIFEST.json but missing")
        for rel in list_tree(d):
            out[rel] = os.path.join(d, rel)
    return out


def copy_new(run_root, lease_runs, m, root, skip):
    """Copies into LEASE/ablation/RUN/ each file of RESULTS' runs (checkpoints
    aside) that the committed outputs lack or hold otherwise: what the lease
    made, once."""
    n = 0
    for run in sorted(os.listdir(run_root)):
        src = os.path.join(run_root, run)
        if run in skip or not os.path.isdir(src):
            continue
        have = {rel: sha256(p) for rel, p in merged(m, run, root).items()}
        for rel, sha in digest_tree(src).items():
            if rel.split(os.sep)[0] == "checkpoints" or have.get(rel) == sha:
                continue
            dst = os.path.join(lease_runs, run, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(src, rel), dst)
            n += 1
    print(f"state: copied {n} files the committed outputs lack into {lease_runs}", file=sys.stderr)


def save(results, lease, state=STATE, root=ROOT, skip=(), copy=False):
    m = load_manifest(state)
    abl = os.path.join(results, "ablation")
    names = [d for d in os.listdir(abl) if os.path.isdir(os.path.join(abl, d))] if os.path.isdir(abl) else []
    if len(names) != 1:
        raise StateError(f"{abl}: expected one ablation folder (ablation/NAME/), found {names or 'none'}")
    name = names[0]
    if m["ablation"] not in (None, name):
        raise StateError(f"{results} holds ablation {name!r}, the state holds {m['ablation']!r}")
    m["ablation"] = name

    made_src = os.path.join(abl, name, MADE)
    made = sha256(made_src) if os.path.isfile(made_src) else None
    if made and m["made"] not in (None, made):
        raise StateError(f"{made_src} differs from the configuration the state's ablation was made with "
                         f"({os.path.join(state, MADE)}): its runs would be reported under another protocol; "
                         "run the ablation with the configuration it was made with (bench/ablation/ablation.yaml as committed "
                         "when it began), or give a new ablation its own name and state")
    new_made = made is not None and m["made"] is None
    if made:
        m["made"] = made

    epoch = last_epoch(os.path.join(results, "sft"))
    src = os.path.join(results, "sft", epoch)
    files = digest_tree(src)
    new_init = m["init"] is None
    if new_init:
        m["init"] = {"as": f"sft/{epoch}", "files": files}
    elif m["init"]["files"] != files:
        raise StateError(f"{src} differs from the state's start ({m['init']['as']}): an ablation has one start; "
                         "restore the state's start before the runs (state.py restore) instead of making another")

    lease_rel = os.path.relpath(os.path.abspath(lease), root)
    lease_runs = os.path.join(lease, "ablation")
    if copy:
        copy_new(os.path.join(abl, name), lease_runs, m, root, skip)
    runs = sorted(os.listdir(lease_runs)) if os.path.isdir(lease_runs) else []
    for run in runs:
        if run in skip or not os.path.isdir(os.path.join(lease_runs, run)):
            continue
        if os.path.isdir(os.path.join(lease_runs, run, "checkpoints")):
            raise StateError(f"{lease_runs}/{run}/checkpoints: adapters do not belong in a lease folder; "
                             "the state keeps the latest (copy the run without checkpoints/)")
        where = m["runs"].setdefault(run, [])
        if lease_rel not in where:
            where.append(lease_rel)

    # The checkpoints: exactly those RESULTS still packs (runs not yet evaluated).
    m["checkpoints"] = {}
    copies = []  # (source, path under the new checkpoints folder)
    run_root = os.path.join(abl, name)
    for run in sorted(os.listdir(run_root)):
        ck = os.path.join(run_root, run, "checkpoints")
        latest_file = os.path.join(ck, "latest")
        if not os.path.isfile(latest_file):
            continue
        with open(latest_file) as f:
            latest = f.read().strip()
        step = os.path.join(ck, latest)
        if not os.path.isdir(step):
            continue  # an evaluated run: the device packs its pointer only
        if run not in m["runs"]:
            raise StateError(f"run {run} has a checkpoint but no outputs in {lease_runs}: copy its metrics and rollouts there first")
        copies.append((step, os.path.join(run, latest)))
        m["checkpoints"][run] = {"step": latest, "files": digest_tree(step)}
    # Everything checked: now write, the manifest last (a save cut short
    # leaves files the manifest does not name, which restore never reads).
    os.makedirs(state, exist_ok=True)
    if new_made:
        shutil.copy2(made_src, os.path.join(state, MADE))
    if new_init:
        shutil.rmtree(os.path.join(state, "init"), ignore_errors=True)
        shutil.copytree(src, os.path.join(state, "init"))
    ck_root, tmp = os.path.join(state, "checkpoints"), os.path.join(state, "checkpoints.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for step, rel in copies:
        shutil.copytree(step, os.path.join(tmp, rel))
    shutil.rmtree(ck_root, ignore_errors=True)
    os.replace(tmp, ck_root)
    write_manifest(state, m)
    return m


def check(d, files, what):
    have = digest_tree(d) if os.path.isdir(d) else {}
    if have != files:
        bad = sorted(set(have.items()) ^ set(files.items()))
        raise StateError(f"{d}: {what} does not match MANIFEST.json ({', '.join(sorted({p for p, _ in bad}))}); "
                         "restore it from git (git checkout -- bench/ablation/state)")


def restore(out, state=STATE, root=ROOT):
    m = load_manifest(state)
    if m["init"] is None:
        raise StateError(f"{state}: no saved state (MANIFEST.json): nothing to restore")
    init = os.path.join(state, "init")
    check(init, m["init"]["files"], "the start adapter")
    for run, ck in m["checkpoints"].items():
        check(os.path.join(state, "checkpoints", run, ck["step"]), ck["files"], f"run {run}'s checkpoint")
    made = os.path.join(state, MADE)
    if m["made"] is not None and (not os.path.isfile(made) or sha256(made) != m["made"]):
        raise StateError(f"{made}: the ablation's configuration record does not match MANIFEST.json; "
                         "restore it from git (git checkout -- bench/ablation/state)")
    name = m["ablation"]
    tmp = out + ".tmp"
    with tarfile.open(tmp, "w:gz") as tar:
        tar.add(init, arcname="./" + m["init"]["as"])
        for run in sorted(m["runs"]):
            base = f"./ablation/{name}/{run}"
            for rel, p in sorted(merged(m, run, root).items()):
                tar.add(p, arcname=f"{base}/{rel}")
            if run in m["checkpoints"]:
                step = m["checkpoints"][run]["step"]
                tar.add(os.path.join(state, "checkpoints", run, step), arcname=f"{base}/checkpoints/{step}")
                info = tarfile.TarInfo(f"{base}/checkpoints/latest")
                data = (step + "\n").encode()
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        if m["made"] is not None:
            tar.add(made, arcname=f"./ablation/{name}/{MADE}")
    os.replace(tmp, out)
    return m


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save", help="record a lease's runs, the start and the open runs' checkpoints")
    s.add_argument("results", help="the unpacked rl-results folder (sft/, ablation/NAME/)")
    s.add_argument("--lease", required=True, help="the lease folder the runs' outputs were copied to (LEASE/ablation/RUN/)")
    s.add_argument("--copy", action="store_true",
                   help="first copy into LEASE/ablation/RUN/ every file of RESULTS' runs (checkpoints aside) that the committed outputs lack or hold otherwise")
    s.add_argument("--skip", action="append", default=[], metavar="RUN",
                   help="a run of the lease folder that is not part of the ablation any more (e.g. one begun again from scratch)")
    r = sub.add_parser("restore", help="write the tar that bench/rl/device.sh stage restores")
    r.add_argument("out", help="e.g. .rl/results.tar.gz")
    a = ap.parse_args(argv)
    try:
        if a.cmd == "save":
            m = save(a.results, a.lease, skip=a.skip, copy=a.copy)
            cks = ", ".join(f"{k} {v['step']}" for k, v in m["checkpoints"].items()) or "none"
            print(f"state: start {m['init']['as']}, {len(m['runs'])} runs, checkpoints: {cks}")
        else:
            m = restore(a.out)
            print(f"state: wrote {a.out} ({os.path.getsize(a.out)} bytes): {m['init']['as']}, "
                  f"{len(m['runs'])} runs, checkpoints: {', '.join(m['checkpoints']) or 'none'}")
    except StateError as e:
        print(f"state: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
