#!/usr/bin/env python3
"""Tallies a self-match of one player on N threads against itself on one
(sliderzero match --records, possibly appended from several runs): the
score of the player whose spec has name=A (default 2threads), and its Elo
with a 95% interval from the pentanomial counts of consecutive pairs of
games (each pair plays one start with the colours swapped).
Usage: python3 experiments/threads/tally-pairs.py RECORDS.jsonl [NAME]"""
import json
import math
import sys

name = sys.argv[2] if len(sys.argv) > 2 else "2threads"
scores = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    me = next(i for i, p in enumerate(r["players"]) if "name=" + name in p)
    w = r.get("winner")
    scores.append(0.5 if w is None or w < 0 else (1.0 if w == me else 0.0))
n = len(scores)
if n == 0:
    sys.exit("no games in " + sys.argv[1])
wins, ties = scores.count(1.0), scores.count(0.5)
print("games %d: %s +%d =%d -%d, %.1f%%" % (n, name, wins, ties, n - wins - ties, 100 * sum(scores) / n))
pairs = [scores[i] + scores[i + 1] for i in range(0, n - 1, 2)]
penta = [sum(1 for p in pairs if p == k / 2) for k in range(5)]
print("pairs by %s's score 0, 0.5, 1, 1.5, 2: %s" % (name, penta))


def elo(s):
    s = min(max(s, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / s - 1) + 0.0  # no "-0"


m = len(pairs)
if m > 1:
    mean = sum(p / 2 for p in pairs) / m
    var = sum((p / 2 - mean) ** 2 for p in pairs) / (m - 1)
    half = 1.96 * math.sqrt(var / m)
    print("Elo %+.0f [%+.0f, %+.0f] (pentanomial, 95%%, %d pairs)" % (elo(mean), elo(mean - half), elo(mean + half), m))
