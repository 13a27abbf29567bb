#!/usr/bin/env python3
"""A DGT electronic board on a pseudo-terminal, for the Windows tests: wine maps the link
LINK to a COM port, and hector.exe reads the board through it as through a real cable.

    dgt_board.py LINK        (commands on standard input, one a line)

It makes a pseudo-terminal, points LINK at it and answers the host as a DGT board does: a
board dump (0x86) for SEND_BRD (0x42); after SEND_UPDATE_BRD (0x44), SEND_UPDATE (0x43) or
SEND_UPDATE_NICE (0x4b) it reports every change of a field (0x8e). Commands:

    move e2e4    the piece on e2 is lifted and set down on e4 (two field updates)
    listening    waits (up to 60 s) until the host has asked for updates
    quit         ends; so does the end of standard input

Each command is answered on standard output ("done move e2e4", "listening"), so that a test
knows when the board has spoken. Ends after 300 s in any case, and removes LINK.
"""

import os
import pty
import select
import sys
import time
import tty

# DGT piece codes: 1..6 white pawn, rook, knight, bishop, king, queen; 7..12 black.
CODES = {"P": 1, "R": 2, "N": 3, "B": 4, "K": 5, "Q": 6}
CODES.update({k.lower(): v + 6 for k, v in CODES.items()})
START = ["rnbqkbnr", "pppppppp", "........", "........",
         "........", "........", "PPPPPPPP", "RNBQKBNR"]


def field(square):
    """The wire's field number of a square: 0 is a8, 63 is h1."""
    return (8 - int(square[1])) * 8 + (ord(square[0]) - ord("a"))


class Board:
    def __init__(self, link):
        self.fields = [CODES.get(c, 0) for row in START for c in row]
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.slave = slave  # kept open: the device lives as long as the board
        self.link = link
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(os.ttyname(slave), link)
        self.listening = False

    def serve(self, seconds):
        """Answers the host's requests for up to `seconds`."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.master, 256)
            except OSError:
                return
            for byte in data:
                if byte == 0x42:
                    os.write(self.master, bytes([0x86, 0x00, 0x43]) + bytes(self.fields))
                elif byte in (0x43, 0x44, 0x4B):
                    self.listening = True

    def update(self, square, code):
        self.fields[field(square)] = code
        os.write(self.master, bytes([0x8E, 0x00, 0x05, field(square), code]))

    def move(self, uci):
        origin, target = uci[:2], uci[2:4]
        piece = self.fields[field(origin)]
        self.update(origin, 0)
        self.serve(0.05)
        self.update(target, piece)

    def close(self):
        if os.path.islink(self.link):
            os.unlink(self.link)
        os.close(self.master)
        os.close(self.slave)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: dgt_board.py LINK")
    board = Board(sys.argv[1])
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([board.master, sys.stdin], [], [], 1)
            if board.master in ready:
                board.serve(0.01)
            if sys.stdin not in ready:
                continue
            command = sys.stdin.readline()
            if not command or command.strip() == "quit":
                return
            words = command.split()
            if words[:1] == ["move"] and len(words) == 2:
                board.move(words[1])
                print("done move", words[1], flush=True)
            elif words == ["listening"]:
                wait = time.monotonic() + 60
                while not board.listening and time.monotonic() < wait:
                    board.serve(0.2)
                print("listening" if board.listening else "not listening", flush=True)
    finally:
        board.close()


if __name__ == "__main__":
    main()
