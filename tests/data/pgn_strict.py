"""Reads every game of a PGN file with python-chess, strictly: the first error of any kind
(a move that is not legal or not understood, a position or variant python-chess refuses)
ends the reading with status 1 and the error on standard error; a game with a tag line
python-chess passes over is an error too.

For each game one line on standard output, its fields separated by tabs: the tag names in
the order python-chess keeps them (the seven tag roster first, then the others in the
order of the file), the number of half-moves, the board after the last move (FEN's first
field) and the side to move.

Usage: python3 pgn_strict.py FILE.pgn (python-chess on PYTHONPATH).
"""

import sys

import chess
import chess.pgn


class StrictBuilder(chess.pgn.GameBuilder):
    """Builds the game as python-chess does, but raises at the first error instead of
    noting it and reading on."""

    def handle_error(self, error):
        raise error


def tag_lines(text):
    """The tag lines of each game, counted from the text itself."""
    counts = []
    in_tags = False
    for line in text.splitlines():
        if line.startswith("["):
            if not in_tags:
                counts.append(0)
                in_tags = True
            counts[-1] += 1
        elif line.strip():
            in_tags = False
    return counts


def main(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    counts = tag_lines(text)
    with open(path, encoding="utf-8") as handle:
        number = 0
        while True:
            try:
                game = chess.pgn.read_game(handle, Visitor=StrictBuilder)
            except Exception as error:  # every error python-chess raises ends the reading
                print(f"game {number + 1}: {error!r}", file=sys.stderr)
                return 1
            if game is None:
                break
            number += 1
            # python-chess fills in the roster's tags a game lacks: hector writes all seven.
            names = list(game.headers.keys())
            if number <= len(counts) and len(names) < counts[number - 1]:
                print(f"game {number}: a tag line was passed over", file=sys.stderr)
                return 1
            board = game.end().board()
            side = "w" if board.turn == chess.WHITE else "b"
            plies = len(list(game.mainline_moves()))
            print("\t".join([" ".join(names), str(plies), board.board_fen(), side]))
    if number != len(counts):
        print(f"{number} games read, {len(counts)} in the file", file=sys.stderr)
        return 1
    return 0


sys.exit(main(sys.argv[1]))
