"""What a GRPO run's rollouts say, per turn: code blocks, compiles, correct
answers, answers cut at the token limit, prompt lengths, and why attempts
did not compile (the first compiler error that the next turn's feedback
quotes). The numbers in plugins/policy/hf/RESULTS.md about a run's
rollouts come from this script.

Usage: python3 bench/rl/rollout_stats.py RUN/rollouts [MORE/rollouts...] [--max-tokens 768] [--steps]
  e.g. python3 bench/rl/rollout_stats.py bench/h200/2026-12-03-lease2/rl/grpo/rollouts

Several folders are read as one run (a run continued in another lease keeps
its later steps in another folder). --export DIR writes instead each
distinct code block the policy wrote to DIR/TASK-HASH.cu (--sample N: N of
them drawn with a fixed seed), e.g. for bench/lean-parity.sh. --steps adds a line per step: answers
without code, compiles, the groups in which every candidate had the same
Rver (their advantage came from the structural term alone), and the mean
structural term of code that did not compile: the signs of a policy
climbing the ranker instead of the benchmark (docs/rl.md, "Rewards").
"""

import argparse
import collections
import glob
import gzip
import json
import os
import re
import statistics
import sys


def load(folders):
    files = []
    for folder in folders:
        got = sorted(glob.glob(os.path.join(folder, "step-*.jsonl.gz")) + glob.glob(os.path.join(folder, "step-*.jsonl")))
        if not got:
            sys.exit(f"rollout_stats: no step-N.jsonl(.gz) in {folder}: give a run's rollouts folder")
        files += got
    rows = []
    for f in files:
        opener = gzip.open if f.endswith(".gz") else open
        with opener(f, "rt") as fh:
            for n, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as e:
                        sys.exit(f"rollout_stats: {f}:{n}: {e}")
    return files, rows


# A fenced block and the language tags that make it a candidate, as
# host/grpo/extract.go reads them (without its preference for the block
# that defines the task's entry point, which the rows do not name).
FENCE = re.compile(r"(?s)(```|~~~)[ \t]*([A-Za-z0-9_+.-]*)[^\n]*\n(.*?)(?:\n[ \t]*)?(```|~~~)")
CUDA_TAGS = {"cuda", "cu", "c++", "cpp", "c", ""}


def code_of(completion):
    """The last fenced CUDA block of a completion, or None."""
    blocks = [m.group(3) for m in FENCE.finditer(completion) if m.group(2).lower() in CUDA_TAGS and m.group(3).strip()]
    return blocks[-1] + "\n" if blocks else None


def export(rows, out, sample):
    """Writes the distinct code blocks of rows to out; returns how many."""
    import hashlib
    import random
    code = {}
    for r in rows:
        c = code_of(r.get("completion", ""))
        if c:
            code.setdefault((r["task"], hashlib.sha256(c.encode()).hexdigest()[:12]), c)
    keys = sorted(code)
    if sample and sample < len(keys):
        keys = sorted(random.Random(1).sample(keys, sample))
    os.makedirs(out, exist_ok=True)
    for task, h in keys:
        with open(os.path.join(out, f"{task}-{h}.cu"), "w") as f:
            f.write(code[(task, h)])
    return len(keys), len(code)


def first_error(feedback):
    """The first compiler error quoted in a refinement prompt's feedback, or None."""
    if not feedback.startswith("Your code did not compile"):
        return None
    m = re.search(r"error: ([^\n]*)", feedback)
    return m.group(1) if m else "(no error line)"


def per_step(rows, max_tokens):
    """One line per step; returns the count of groups with one Rver."""
    print("step  no code  compiled  same-Rver groups  str term of non-compiling code (mean, n)  cut at limit")
    steps = sorted({r["step"] for r in rows})
    same_total = groups_total = 0
    for st in steps:
        rs = [r for r in rows if r["step"] == st]
        groups = collections.defaultdict(set)
        for r in rs:
            groups[r["group"]].add(r["reward"]["ver"])
        same = sum(len(v) == 1 for v in groups.values())
        same_total += same
        groups_total += len(groups)
        nc = [r["reward"]["str_used"] for r in rs if r["has_code"] and not r["compiled"]]
        term = f"{statistics.mean(nc):+.2f} ({len(nc)})" if nc else "- (0)"
        print(f"{st:<5} {sum(not r['has_code'] for r in rs):<8} {sum(r['compiled'] for r in rs):<9} "
              f"{same}/{len(groups):<16} {term:<41} {sum(r['completion_tokens'] >= max_tokens for r in rs)}")
    print(f"groups in which every candidate had the same Rver: {same_total} of {groups_total}\n")


def outcome(r):
    if r["correct"]:
        return "correct"
    if r["compiled"]:
        return "compiled, wrong"
    return "did not compile" if r["has_code"] else "no code"


def transitions(rows):
    """Each refinement by what the attempt it refines did: does feedback
    help, against the first turn's rates (what a fresh sample would do)?
    A refinement's group is its first attempt's with another ":tN" suffix,
    the member the same."""
    key = lambda r: (r["step"], r["group"].rsplit(":t", 1)[0], r["member"])  # noqa: E731
    by = {(key(r), r["turn"]): r for r in rows}
    table = collections.defaultdict(collections.Counter)
    for r in rows:
        prev = by.get((key(r), r["turn"] - 1)) if r["turn"] > 0 else None
        if prev is None:
            continue
        c = table[(r["turn"], outcome(prev))]
        c["n"] += 1
        c["code"] += r["has_code"]
        c["compiled"] += r["compiled"]
        c["correct"] += r["correct"]
    if not table:
        return
    print("\nrefinements by the outcome of the attempt they refine (turn 1's own rates above are a fresh sample's):")
    print("turn  attempt refined     n     code  compiled  correct")
    for (t, o), c in sorted(table.items()):
        print(f"{t + 1:<5} {o:<19} {c['n']:<5} {c['code']:<5} {c['compiled']:<9} {c['correct']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rollouts", nargs="+", help="a run's rollouts folder (RUN/rollouts); several are one run")
    ap.add_argument("--max-tokens", type=int, default=768, help="the run's sampling limit (cut answers reach it)")
    ap.add_argument("--steps", action="store_true", help="a line per step (see above)")
    ap.add_argument("--export", metavar="DIR", help="write the distinct code blocks to DIR instead (see above)")
    ap.add_argument("--sample", type=int, default=0, help="with --export: only N of them, drawn with a fixed seed")
    a = ap.parse_args()
    files, rows = load(a.rollouts)
    if a.export:
        n, of = export(rows, a.export, a.sample)
        print(f"{n} of {len(rows)} rollouts' {of} distinct code blocks written to {a.export}")
        return
    if a.steps:
        per_step(rows, a.max_tokens)
    turns = sorted({r["turn"] for r in rows})
    print(f"{len(files)} steps, {len(rows)} rollouts, tasks: {len({r['task'] for r in rows})}")
    print("turn  n     code  compiled  correct  cut at limit  prompt chars (median, min-max)")
    for t in turns:
        rs = [r for r in rows if r["turn"] == t]
        chars = [sum(len(m["content"]) for m in r["prompt"]["messages"]) for r in rs]
        print(f"{t + 1:<5} {len(rs):<5} {sum(r['has_code'] for r in rs):<5} {sum(r['compiled'] for r in rs):<9} "
              f"{sum(r['correct'] for r in rs):<8} {sum(r['completion_tokens'] >= a.max_tokens for r in rs):<13} "
              f"{statistics.median(chars):.0f} ({min(chars)}-{max(chars)})")
    transitions(rows)
    nocode = [r for r in rows if not r["has_code"]]
    print(f"no code block: {len(nocode)}, of which cut at the limit: "
          f"{sum(r['completion_tokens'] >= a.max_tokens for r in nocode)}")
    # Why the attempts before a refinement failed: the feedback of turn t+1
    # describes the attempt of turn t.
    kinds, errors, undefined = collections.Counter(), collections.Counter(), collections.Counter()
    for r in rows:
        if r["turn"] < 1:
            continue
        fb = r["prompt"]["messages"][-1]["content"]
        kinds[fb.split(".")[0].split(":")[0]] += 1
        e = first_error(fb)
        if e is None:
            continue
        m = re.match(r'identifier "([^"]*)" is undefined', e)
        if m:
            undefined[m.group(1)] += 1
            errors["identifier ... is undefined"] += 1
        else:
            errors[re.sub(r'"[^"]*"', '"…"', e)[:70]] += 1
    if kinds:
        print("\nthe attempts refined, by their feedback:")
        for k, v in kinds.most_common():
            print(f"  {v:5}  {k}")
        print("first compiler error of those that did not compile:")
        for k, v in errors.most_common(8):
            print(f"  {v:5}  {k}")
        print(f"undefined identifiers: {len(undefined)} names, most often: "
              + ", ".join(f"{k} {v}" for k, v in undefined.most_common(8)))


if __name__ == "__main__":
    main()
