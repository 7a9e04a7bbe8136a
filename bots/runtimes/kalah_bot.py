#!/usr/bin/env python3
"""A correct Kalah bot in Python (a sample bot of bots/runtimes/).

It reads its opening hole from the data file `opening.txt` beside it (a bot
that reads a file of its own folder must pass sandboxed: the folder of the
bot's program is readable), then plays the Manchester protocol: the first
non-empty hole of its own row, read from every `CHANGE` state string (North
holes, North store, South holes, South store). It never swaps; after the
opponent's `SWAP` it plays the other row. It flushes after every message and
exits at `END` or at the end of its input.

protocheck must report: nothing (pass), sandboxed or not.
"""
import os
import sys


def opening():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "opening.txt"), encoding="ascii") as f:
        return int(f.read().split()[0])


def own_row(values, side):
    n = (len(values) - 2) // 2
    return values[:n] if side == "North" else values[n + 1 : 2 * n + 1]


def main():
    first = opening()
    side = None
    for line in sys.stdin:
        fields = line.rstrip("\n").split(";")
        if fields[0] == "START":
            side = fields[1]
            if side == "South":
                print(f"MOVE;{first}", flush=True)
        elif fields[0] == "CHANGE" and len(fields) == 4:
            if fields[1] == "SWAP":
                side = "North" if side == "South" else "South"
            if fields[3] == "YOU":
                row = own_row([int(v) for v in fields[2].split(",")], side)
                hole = next(i + 1 for i, seeds in enumerate(row) if seeds > 0)
                print(f"MOVE;{hole}", flush=True)
        elif fields[0] == "END":
            return


if __name__ == "__main__":
    main()
