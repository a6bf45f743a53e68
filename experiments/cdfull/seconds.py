"""The mean seconds a move each player spent in each seat, from Cats &
Dogs match records (JSON lines): the Cats move once a turn, the Dogs
twice (or pass, which hands the turn back), and the Dogs win every game,
so the winner's seat is the Dogs'. The last ten plies of each game, where
proofs and forced moves end searches early, are left out.
Usage: python3 experiments/cdfull/seconds.py RECORDS.jsonl..."""
import json
import sys

for path in sys.argv[1:]:
    spent = {}
    for line in open(path):
        r = json.loads(line)
        dogs = r["players"][r["winner"]]
        cats = r["players"][1 - r["winner"]]
        side, step = r["start"].split()[-1], 0
        for i, (m, s) in enumerate(zip(r["moves"], r["seconds"])):
            if i < len(r["moves"]) - 10:
                who = dogs if side == "D" else cats
                spent.setdefault((who.split(":")[0], side), []).append(s)
            if m == "pass":
                side, step = "C", 0
            elif side == "C":
                side, step = "D", 0
            elif step == 0:
                step = 1
            else:
                side, step = "C", 0
    for (p, side), v in sorted(spent.items()):
        print("%s as %s: %d moves, mean %.2f s, %d under 4.9 s" % (p, "Dogs" if side == "D" else "Cats", len(v), sum(v) / len(v), sum(1 for s in v if s < 4.9)))
