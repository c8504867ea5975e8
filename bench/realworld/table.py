#!/usr/bin/env python3
"""table.py OUT AUDIT: the precision table of bench/realworld/RESULTS.md.

OUT is the folder run.sh wrote (findings.jsonl, summary.txt); AUDIT the
labels (audit.tsv: project, path, line, check, severity, verdict, reason).
Every error and warning of the run must have a label, and every label a
finding: a run of a changed linter is re-audited, not matched loosely.
Prints a Markdown table: per check, findings audited, true, precision and
its 95% Wilson interval; then the overall line. Exits 1 on a mismatch.
"""
import collections, csv, json, math, os, sys


def wilson(k, n, z=1.959964):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def main(out, audit):
    found = collections.Counter()
    for line in open(os.path.join(out, 'findings.jsonl')):
        x = json.loads(line)
        if x['severity'] in ('error', 'warning'):
            found[(x['project'], x['path'], x['line'], x['check'])] += 1
    labels = collections.Counter()
    by_check = collections.defaultdict(lambda: [0, 0])
    with open(audit) as f:
        for r in csv.DictReader(f, delimiter='\t'):
            labels[(r['project'], r['path'], int(r['line']), r['check'])] += 1
            by_check[r['check']][0] += 1
            by_check[r['check']][1] += r['verdict'] == 'true'
    if found != labels:
        for k in sorted(set(found) | set(labels)):
            if found[k] != labels[k]:
                print(f'{k}: {found[k]} findings, {labels[k]} labels', file=sys.stderr)
        print('table.py: the audit does not match this run; label the new findings', file=sys.stderr)
        return 1
    print('| check | errors + warnings | true | precision | 95% CI (Wilson) |')
    print('|---|---:|---:|---:|---|')
    tn = tk = 0
    for c in sorted(by_check):
        n, k = by_check[c]
        lo, hi = wilson(k, n)
        tn, tk = tn + n, tk + k
        print(f'| {c} | {n} | {k} | {100*k/n:.1f}% | [{100*lo:.1f}, {100*hi:.1f}] |')
    lo, hi = wilson(tk, tn)
    print(f'| **all** | **{tn}** | **{tk}** | **{100*tk/tn:.1f}%** | [{100*lo:.1f}, {100*hi:.1f}] |')
    return 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
