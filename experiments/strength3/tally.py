"""Tally a match's records (sliderzero match --records) for issue 64: the
trained player's wins, ties and losses by colour, and on the open board
(no blocked cell, B, in the start)."""
import collections
import json
import sys

games = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
score = collections.Counter()
for g in games:
    seat = next(i for i, p in enumerate(g["players"]) if p.startswith("player:"))
    side = "H" if seat == 0 else "V"  # players[0] moves first as the start's side to move
    result = "tie" if g["winner"] < 0 else ("win" if g["winner"] == seat else "loss")
    board = "open" if "B" not in g["start"] else "blocked"
    score[("all", result)] += 1
    score[(board, result)] += 1
    score[("seat " + str(seat + 1), result)] += 1
for key in ("all", "open", "blocked", "seat 1", "seat 2"):
    w, t, l = (score[(key, r)] for r in ("win", "tie", "loss"))
    n = w + t + l
    if n:
        print(f"{key:8} {w:3}-{t}-{l}  score {100 * (w + t / 2) / n:.1f}% of {n}")
