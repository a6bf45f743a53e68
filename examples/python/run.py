#!/usr/bin/env python3
"""Runs a sliderzero network outside the project, with Python's standard
library alone: reads a safetensors file written by

    sliderzero export --checkpoint PLAYER_OR_CHECKPOINT --format safetensors --out NET.safetensors

encodes positions given in the game's notation (Slider and Connect Four:
the one-line forms of docs/rules.md) as the file's metadata describes
(Connect Four's threat planes too, for a network trained with
features=1), and prints, one JSON line a position, the network's value
for the side to move (-1 to 1), its policy logits (one per action; the game's legal moves
are for the caller to pick out) and, for a network with the plies head,
the plies to the end it predicts.

    python3 examples/python/run.py NET.safetensors "H+++/H+B+/HB++/+VVV H" ...
"""
import array
import json
import math
import struct
import sys


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    body = data[8 + n:]
    tensors = {}
    for name, t in header.items():
        if t["dtype"] != "F32":
            raise ValueError(f"{name}: dtype {t['dtype']}, want F32")
        a, b = t["data_offsets"]
        values = array.array("f")
        values.frombytes(body[a:b])
        if sys.byteorder == "big":
            values.byteswap()
        tensors[name] = (t["shape"], values)
    return meta, tensors


def encode_slider(position, size):
    board, side = position.split()
    rows = board.split("/")
    if len(rows) != size or any(len(r) != size for r in rows):
        raise ValueError(f"{position!r} is not a {size}x{size} Slider position")
    area = size * size
    x_in = [0.0] * (3 * area)
    own, opp = (side, "V" if side == "H" else "H")
    for i, row in enumerate(rows):
        y = size - 1 - i  # the first row written is the top one
        for x, ch in enumerate(row):
            cell = y * size + x if side == "H" else x * size + y
            plane = {own: 0, opp: 1, "B": 2}.get(ch)
            if plane is not None:
                x_in[plane * area + cell] = 1.0
    return x_in


def encode_connect4(position, features=False):
    board, side = position.split()
    rows = board.split("/")
    n_rows, n_cols = len(rows), len(rows[0])
    cells = n_rows * n_cols
    x_in = [0.0] * ((4 if features else 2) * cells)
    other = "O" if side == "X" else "X"
    grid = [rows[n_rows - 1 - r] for r in range(n_rows)]  # row 0 at the bottom
    for r in range(n_rows):
        for c in range(n_cols):
            plane = {side: 0, other: 1}.get(grid[r][c])
            if plane is not None:
                x_in[plane * cells + r * n_cols + c] = 1.0
    if not features:
        return x_in

    def run(r, c, dr, dc, who):
        n = 0
        r, c = r + dr, c + dc
        while 0 <= r < n_rows and 0 <= c < n_cols and grid[r][c] == who:
            n, r, c = n + 1, r + dr, c + dc
        return n

    # The threat planes (features=1): the empty cells where a disc of the
    # side to move, then of the opponent, would make four in a line.
    for p, who in enumerate((side, other)):
        for r in range(n_rows):
            for c in range(n_cols):
                if grid[r][c] in (side, other):
                    continue
                if any(run(r, c, dr, dc, who) + run(r, c, -dr, -dc, who) >= 3
                       for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))):
                    x_in[(2 + p) * cells + r * n_cols + c] = 1.0
    return x_in


def encode(meta, position):
    game = json.loads(meta["game"])
    name = game["name"]
    if name == "slider":
        return encode_slider(position, game.get("size") or 5)
    if name == "connect4":
        return encode_connect4(position, str(game.get("features") or 0) not in ("0", "false"))
    raise ValueError(f"this example encodes Slider and Connect Four, not {name}")


def dense(x, shape_values, bias, relu, skip=None):
    (n_in, n_out), w = shape_values
    out = list(bias)
    for i, xi in enumerate(x):
        if xi == 0.0:
            continue
        row = i * n_out
        for j in range(n_out):
            out[j] += xi * w[row + j]
    if skip is not None:
        out = [o + s for o, s in zip(out, skip)]
    if relu:
        out = [o if o > 0 else 0.0 for o in out]
    return out


def conv(x, shape_values, bias, relu, c, skip=None):
    """A zero-padded convolution: values channel by channel, each a board
    of rows x cols; weight row (in channel, kernel row, kernel column),
    column the out channel."""
    (_, n_out), w = shape_values
    c_in, rows, cols, k = c["in_channels"], c["rows"], c["cols"], c["kernel"]
    cells, half = rows * cols, k // 2
    out = []
    for co in range(n_out):
        for y in range(rows):
            for xx in range(cols):
                acc = bias[co]
                for ci in range(c_in):
                    for ky in range(k):
                        sy = y + ky - half
                        if sy < 0 or sy >= rows:
                            continue
                        for kx in range(k):
                            sx = xx + kx - half
                            if 0 <= sx < cols:
                                acc += x[ci * cells + sy * cols + sx] * w[((ci * k + ky) * k + kx) * n_out + co]
                out.append(acc)
    if skip is not None:
        out = [o + s for o, s in zip(out, skip)]
    if relu:
        out = [o if o > 0 else 0.0 for o in out]
    return out


def forward(meta, tensors, x):
    layers = json.loads(meta["layers"])
    trunk_out = []
    h = x
    result = {}
    for layer in layers:
        name, role = layer["name"], layer["role"]
        w, b = tensors[name + ".w"], tensors[name + ".b"][1]
        if role == "trunk":
            skip = trunk_out[layer["skip"]] if layer["skip"] >= 0 else None
            if layer.get("conv"):
                h = conv(h, w, b, layer["relu"], layer["conv"], skip)
            else:
                h = dense(h, w, b, layer["relu"], skip)
            trunk_out.append(h)
        elif role == "policy":
            result["logits"] = dense(trunk_out[-1], w, b, False)
        elif role == "value":
            result["value"] = math.tanh(dense(trunk_out[-1], w, b, False)[0])
        elif role == "wdl":
            # Win, draw and loss logits: the value is P(win) - P(loss).
            logits = dense(trunk_out[-1], w, b, False)
            top = max(logits)
            e = [math.exp(v - top) for v in logits]
            result["value"] = (e[0] - e[2]) / sum(e)
        elif role == "plies":
            result["plies"] = dense(trunk_out[-1], w, b, False)[0] * float(meta.get("plies_scale", "100"))
    return result


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    meta, tensors = read_safetensors(sys.argv[1])
    for position in sys.argv[2:]:
        out = forward(meta, tensors, encode(meta, position))
        out["position"] = position
        print(json.dumps(out))


if __name__ == "__main__":
    main()
