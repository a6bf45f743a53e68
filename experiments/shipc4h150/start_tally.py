"""Tallies a Connect Four match from random starts by each start's exact
value for the network, read from a file of solved starts (the output of
`sliderzero solve --game connect4 --weak`: position, score for the side
to move, each column's score), and lists the games the network lost from
a start not lost for it.
Usage: python3 start_tally.py RECORDS.jsonl SOLVED.txt"""
import json, sys
from collections import Counter

solved = {}
for line in open(sys.argv[2]):
    if line.strip() and not line.startswith('#'):
        fields = line.rstrip('\n').split('\t')
        solved[fields[0]] = int(fields[1])

tally = Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    net = 0 if not r['players'][0].startswith('solver') else 1
    start = r['start']
    mover = 0 if start.split()[1] == 'X' else 1
    v = solved[start]
    v = (v > 0) - (v < 0)
    value = v if mover == net else -v
    w = r.get('winner')
    result = 'win' if w == net else ('loss' if w in (0, 1) else 'tie')
    kind = {1: 'won', 0: 'drawn', -1: 'lost'}[value]
    tally[(kind, result)] += 1
    if value >= 0 and result != ('win' if value > 0 else 'tie'):
        print(f"game {r['number']}: {kind} start {start}, the network: {result}")
for kind in ('won', 'drawn', 'lost'):
    n = sum(c for (s, _), c in tally.items() if s == kind)
    print(f"{kind} starts for the network: {n} games: " + ", ".join(f"{tally[(kind, r)]}" for r in ('win', 'tie', 'loss')) + " (wins, ties, losses)")
