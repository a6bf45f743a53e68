"""Tallies a match against the perfect player from the empty board and the
seven one-disc openings (experiments/connect4/perfect-openings.txt) by the
start's known value for the network: the first player wins only by the
centre column; columns c and e draw; the rest lose for the first player.
Usage: python3 perfect_tally.py RECORDS.jsonl"""
import json, sys
from collections import Counter

def start_value(start):
    board, to_move = start.split()
    bottom = board.split('/')[-1]
    col = bottom.find('X')
    if col < 0:
        v = 1           # empty board: the side to move (X) wins
    elif col == 3:
        v = -1          # X in the centre: O, to move, loses
    elif col in (2, 4):
        v = 0
    else:
        v = 1           # O, to move, wins
    return v, 0 if to_move == 'X' else 1

tally = Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    net = 0 if not r['players'][0].startswith('solver') else 1
    v, mover = start_value(r['start'])
    value = v if mover == net else -v
    w = r.get('winner')
    result = 'win' if w == net else ('loss' if w in (0, 1) else 'tie')
    tally[({1: 'won', 0: 'drawn', -1: 'lost'}[value], result)] += 1
for start in ('won', 'drawn', 'lost'):
    n = sum(c for (s, _), c in tally.items() if s == start)
    print(f"{start} starts for the network: {n} games: " + ", ".join(f"{tally[(start, r)]} {r}s" for r in ('win', 'tie', 'loss')).replace('losss', 'losses'))
