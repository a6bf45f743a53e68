"""Pair players' misses (sliderzero accuracy --misses) against the first
player's: for each other player, the positions only the first gave away
and those only the other did, with the exact two-sided sign test's p
(McNemar's exact test), per set and in all."""
import collections
import math
import sys

misses = collections.defaultdict(set)
order = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 3 or f[0] == "player":
        continue
    if f[0] not in misses:
        order.append(f[0])
    misses[f[0]].add((f[1], f[2]))


def sign_p(a, b):
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    p = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * p)


if not order:
    sys.exit("no misses in " + sys.argv[1])
first = order[0]
sets = sorted({s for m in misses.values() for s, _ in m})
for other in order[1:]:
    for s in sets + ["all"]:
        a = {x for x in misses[first] if s == "all" or x[0] == s}
        b = {x for x in misses[other] if s == "all" or x[0] == s}
        only_a, only_b = len(a - b), len(b - a)
        print(f"{other}\t{s}\tmisses {len(b)} (first {len(a)})\tonly first {only_a}, only this {only_b}\tp = {sign_p(only_a, only_b):.3g}")
