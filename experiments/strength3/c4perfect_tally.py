"""Tallies Connect Four games against the perfect player by what each
game's start was worth to the network, read from `sliderzero solve --weak`
output (position, tab, its value for the side to move: 1, 0 or -1, or
the bounds LO..HI proven when --time cut the solve). Lists every game
lost from a start not lost and every won start not won; a start cut with
bounds that still say "not lost" (0..1) is judged as such, one with
bounds -1..1 is counted apart, unjudged.
Usage: python3 c4perfect_tally.py SOLVED.txt RECORDS.jsonl..."""
import json, sys
from collections import Counter

value = {}  # start -> (lo, hi) for the side to move
for line in open(sys.argv[1]):
    fields = line.rstrip('\n').split('\t')
    if len(fields) < 2:
        continue
    lo, _, hi = fields[1].partition('..')
    if lo in ('1', '0', '-1') and hi in ('', '1', '0', '-1'):
        value[fields[0]] = (int(lo), int(hi or lo))

tally, faults = Counter(), []
for path in sys.argv[2:]:
    for line in open(path):
        r = json.loads(line)
        net = 1 if r['players'][0].startswith('solver') else 0
        start = r['start']
        if start not in value:
            sys.exit(f"{path}: game {r['number']}: start {start!r} is not in {sys.argv[1]}")
        mover = 0 if start.endswith(' X') else 1
        lo, hi = value[start] if mover == net else (-value[start][1], -value[start][0])
        w = r.get('winner')
        result = 'win' if w == net else ('loss' if w in (0, 1) else 'tie')
        if lo == hi:
            kind = {1: 'won', 0: 'drawn', -1: 'lost'}[lo]
        else:
            kind = {(0, 1): 'not lost', (-1, 0): 'not won'}.get((lo, hi), 'unknown')
        tally[(kind, result)] += 1
        if (lo >= 0 and result == 'loss') or (kind == 'won' and result != 'win'):
            faults.append(f"{path.split('/')[-1]} game {r['number']}: {kind} start {start}, network as {'XO'[net]}: {result}")
for kind in ('won', 'drawn', 'not lost', 'not won', 'lost', 'unknown'):
    n = sum(c for (k, _), c in tally.items() if k == kind)
    if n == 0 and kind not in ('won', 'drawn', 'lost'):
        continue
    print(f"{kind} starts for the network: {n} games: "
          f"{tally[(kind, 'win')]} wins, {tally[(kind, 'tie')]} ties, {tally[(kind, 'loss')]} losses")
print(f"games lost from a start not lost, or won starts not won: {len(faults)}")
for f in faults:
    print("  " + f)
