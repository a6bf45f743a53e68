"""For the games c4perfect_tally.py lists as faults, writes the position
before each of the network's moves and after it (the game's one-line
form, one a line, with a comment naming the game and ply), for
`sliderzero solve --game connect4 --weak`; given that output too, prints
each game's network moves that turned a position's value for the
network down (won to drawn or lost, drawn to lost), with the plies left.
Usage: python3 c4perfect_blame.py positions TALLY.txt DIR > P.txt
       python3 c4perfect_blame.py blame TALLY.txt DIR SOLVED.txt"""
import json
import re
import sys


def play(board, side, col):
    rows = [list(r) for r in board]
    c = ord(col) - ord('a')
    for r in range(5, -1, -1):
        if rows[r][c] == '.':
            rows[r][c] = side
            return [''.join(x) for x in rows]
    sys.exit(f"column {col} is full")


def form(board, side):
    return '/'.join(board) + ' ' + side


def faults(tally, folder):
    for line in open(tally):
        m = re.match(r'\s+(random\d\.jsonl) game (\d+):', line)
        if m:
            recs = [json.loads(l) for l in open(f"{folder}/{m.group(1)}")]
            r = next(x for x in recs if x['number'] == int(m.group(2)))
            yield f"{m.group(1)} game {m.group(2)}", r


def steps(r):
    """(ply, before, after) for each network move."""
    board, side = r['start'][:-2].split('/'), r['start'][-1]
    # players are by side: players[0] is X, whoever moves first
    net_side = 'O' if r['players'][0].startswith('solver') else 'X'
    for ply, mv in enumerate(r['moves']):
        before = form(board, side)
        board = play(board, side, mv)
        nxt = 'O' if side == 'X' else 'X'
        if side == net_side:
            yield ply + 1, before, form(board, nxt), len(r['moves']) - ply - 1
        side = nxt


def main():
    mode, tally, folder = sys.argv[1:4]
    if mode == 'positions':
        for name, r in faults(tally, folder):
            print(f"# {name}")
            for ply, before, after, _ in steps(r):
                print(before)
                print(after)
        return
    value = {}
    for line in open(sys.argv[4]):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 2 and f[1] in ('1', '0', '-1'):
            value[f[0]] = int(f[1])
    for name, r in faults(tally, folder):
        print(f"{name}:")
        given = 0
        for ply, before, after, left in steps(r):
            vb, va = value.get(before), value.get(after)
            if vb is None or va is None:
                continue
            # before: for the network (to move); after: for the opponent
            if -va < vb:
                given += 1
                print(f"  ply {ply} ({left} plies before the end) turned "
                      f"{ {1: 'won', 0: 'drawn'}[vb]} into { {0: 'drawn', -1: 'lost'}[-va]}: {before} -> {after}")
        if not given:
            print("  no value given away by the network (positions not solved?)")


main()
