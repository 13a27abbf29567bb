/* A small UCI engine for the Windows tests, built with mingw by scripts/windows-test: it
 * speaks UCI over its standard input and output and plays Black's moves of one opening line
 * (the Italian game). It follows the position it is given: when White's moves leave that
 * line, or the line is over, it answers "bestmove 0000" (no move), which hector reports as an
 * engine that failed, so a test cannot pass on a game the engine did not follow. */
#include <stdio.h>
#include <string.h>

static const char *const white[] = {"e2e4", "g1f3", "f1c4", "e1g1"};
static const char *const black[] = {"e7e5", "b8c6", "g8f6", "f8c5"};
#define LINE (sizeof black / sizeof black[0])

/* Black's answer to the position "startpos moves ...", or NULL off the line. */
static const char *answer(char *moves) {
  size_t ply = 0;
  for (char *m = strtok(moves, " \r\n"); m; m = strtok(NULL, " \r\n"), ply++) {
    if (ply / 2 >= LINE) return NULL;
    const char *expected = ply % 2 == 0 ? white[ply / 2] : black[ply / 2];
    if (strcmp(m, expected) != 0) return NULL;
  }
  return ply % 2 == 1 && ply / 2 < LINE ? black[ply / 2] : NULL;
}

int main(void) {
  char line[4096];
  char position[4096] = "";
  setvbuf(stdout, NULL, _IONBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    if (strncmp(line, "uci", 3) == 0 && (line[3] == '\n' || line[3] == '\r' || line[3] == 0)) {
      printf("id name hector line engine\nid author hector tests\nuciok\n");
    } else if (strncmp(line, "isready", 7) == 0) {
      printf("readyok\n");
    } else if (strncmp(line, "position startpos", 17) == 0) {
      const char *moves = strstr(line, "moves");
      snprintf(position, sizeof position, "%s", moves ? moves + 5 : "");
    } else if (strncmp(line, "position", 8) == 0) {
      snprintf(position, sizeof position, "off the line");
    } else if (strncmp(line, "go", 2) == 0) {
      char copy[4096];
      snprintf(copy, sizeof copy, "%s", position);
      const char *move = answer(copy);
      if (move) {
        printf("info depth 1 score cp 0 pv %s\nbestmove %s\n", move, move);
      } else {
        printf("info string the position left the line this engine knows\nbestmove 0000\n");
      }
    } else if (strncmp(line, "quit", 4) == 0) {
      return 0;
    }
  }
  return 0;
}
