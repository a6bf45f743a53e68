#!/usr/bin/env python3
"""The smallest engine that plays Slider over sliderzero's engine protocol
(docs/protocol.md), with Python's standard library only: a starting point
for your own. It keeps the board, answers what a referee sends (game,
position, play, genmove, isready, quit) and plays a random legal move.
Replace choose() with your own search.

    sliderzero match --a "engine:cmd=python3 examples/engine-python/engine.py" --b random
"""
import random
import sys

# Each side's directions (letter, dx, dy), forward first.
STEPS = {"H": [("R", 1, 0), ("U", 0, 1), ("D", 0, -1)],
         "V": [("U", 0, 1), ("L", -1, 0), ("R", 1, 0)]}


class Board:
    """A Slider position: cells[y][x], y = 0 the bottom row."""

    def __init__(self, n=5):
        self.n, self.to_move = n, "H"
        self.cells = [["+"] * n for _ in range(n)]
        for i in range(1, n):
            self.cells[i][0] = "H"  # H on the left edge
            self.cells[0][i] = "V"  # V on the bottom edge

    @classmethod
    def parse(cls, text):
        """Reads 'ROWS SIDE [pass [pass]]', rows top first split by '/'."""
        fields = text.split()
        if len(fields) < 2 or fields[1] not in ("H", "V"):
            raise ValueError("want rows separated by '/' and the side to move")
        rows = fields[0].split("/")
        b = cls(len(rows))
        for i, row in enumerate(rows):
            if len(row) != b.n:
                raise ValueError("row %d has %d cells, want %d" % (i + 1, len(row), b.n))
            b.cells[b.n - 1 - i] = list(row)
        b.to_move = fields[1]
        return b

    def legal(self):
        out = []
        for y in range(self.n):
            for x in range(self.n):
                if self.cells[y][x] != self.to_move:
                    continue
                for k, (letter, dx, dy) in enumerate(STEPS[self.to_move]):
                    nx, ny = x + dx, y + dy
                    off = nx >= self.n or ny >= self.n
                    if (off and k == 0) or (not off and nx >= 0 and ny >= 0 and self.cells[ny][nx] == "+"):
                        out.append("%s%d%s" % (chr(ord("a") + x), y + 1, letter))
        return out or ["pass"]

    def apply(self, move):
        if move != "pass":
            x, y = ord(move[0]) - ord("a"), int(move[1]) - 1
            for letter, dx, dy in STEPS[self.to_move]:
                if letter == move[2]:
                    self.cells[y][x] = "+"
                    if x + dx < self.n and y + dy < self.n:
                        self.cells[y + dy][x + dx] = self.to_move
        self.to_move = "V" if self.to_move == "H" else "H"


def choose(board, rng):
    """The engine's brain: here, any legal move."""
    return rng.choice(board.legal())


def main():
    rng, board = random.Random(1), Board()
    for line in sys.stdin:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        ident = ""
        if f[0].isdigit():
            ident, f = f[0], f[1:]
        if not f:
            continue
        cmd, args, result, error = f[0], f[1:], "", None
        if cmd == "protocol_version":
            result = "2"
        elif cmd == "name":
            result = "engine-python"
        elif cmd == "version":
            result = "1"
        elif cmd == "isready":
            result = "ready"
        elif cmd == "list_commands":
            result = "\n".join(["protocol_version", "name", "version", "isready", "list_commands",
                                "game", "position", "play", "genmove", "set", "quit"])
        elif cmd == "game":
            size = 5
            for kv in args[1:]:
                k, _, v = kv.partition("=")
                if k == "size" and v.isdigit():
                    size = int(v)
            if not args or args[0] != "slider" or not 3 <= size <= 8:
                error = "this engine plays only slider, size 3 to 8"
            else:
                board = Board(size)
        elif cmd == "position":
            try:
                board = Board.parse(" ".join(args))
            except ValueError as e:
                error = str(e)
        elif cmd == "play":
            if len(args) != 2 or args[0] != board.to_move:
                error = "want play %s MOVE" % board.to_move
            elif args[1] not in board.legal():
                error = "illegal move %s" % args[1]
            else:
                board.apply(args[1])
        elif cmd == "genmove":
            if len(args) != 1 or args[0] != board.to_move:
                error = "it is %s's turn" % board.to_move
            else:
                result = choose(board, rng)
                board.apply(result)
        elif cmd == "set":
            pass  # movetime and the like: a random player needs no time
        elif cmd == "quit":
            print("=%s\n" % ident, flush=True)
            return
        else:
            error = "unknown command %s" % cmd
        if error:
            print("?%s %s\n" % (ident, error), flush=True)
        else:
            print("=%s %s\n" % (ident, result), flush=True)


if __name__ == "__main__":
    main()
