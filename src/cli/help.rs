//! The help texts of the modes: what `hector MODE --help` says after the options' own lines.

/// How a time control is typed, the same in every mode (play, assist, clock, online's --time
/// and --seek, the arbiter's game files).
macro_rules! time_controls {
    () => {
        "Time controls are typed as players say them: 3+2 is 3 minutes plus 2 seconds after \
each move, 90+30 ninety minutes plus thirty seconds, 5 five minutes for the game, 0.5+0 half \
a minute. PGN's forms, in seconds, are understood where they cannot be minutes: with a move \
count (40/5400+30), several periods separated by a colon (40/5400+30:1800+30), a delay \
(300d5 simple, 300b5 Bronstein), a sandclock (*180), or a base over 180, since no clock \
gives more than 180 minutes (300+3 is 300 seconds plus 3). Presets: classical \
(40/5400+30:1800+30), olympiad (5400+30), rapid (900+10), blitz (180+2 in seconds). hector \
says how it read the control before the clock starts: 3 Minuten plus 2 Sekunden pro Zug."
    };
}

/// How the words of the announcements are chosen, for a mode that speaks the language's own
/// words unless told otherwise.
macro_rules! own_words {
    ($mode:literal) => {
        concat!(
            "\n\nThe words: hector announces in the words of the --lang language, for \
example with --lang es Caballo Felix tres (German's own words are the FIDE words). --words \
fide gives the FIDE words of Appendix D2.1 (Anna … Hector, eins … acht, König, Dame, Turm, \
Läufer, Springer, Bauer, Kurze and Lange Rochade) in that language's sentences, as in a FIDE \
event: Springer Felix drei, Springer captura Eva fünf (capture and check stay in the \
language's own words). In the configuration file, [announcement] ",
            $mode,
            " = \"fide\" does it every time. Typed and spoken moves are understood in both."
        )
    };
}

/// The same for the tournament modes, whose default is the FIDE words.
macro_rules! fide_words {
    ($mode:literal) => {
        concat!(
            "\n\nThe words: the FIDE words of Appendix D2.1 in every language (Anna … \
Hector, eins … acht, König, Dame, Turm, Läufer, Springer, Bauer, Kurze and Lange Rochade), as \
a tournament has them: with --lang fr, Springer Felix drei, with capture and check in French. \
--words language gives the language's own words (Cavalier Felix trois), the arbiter's \
\"otherwise\" of D2.1; in the configuration file, [announcement] ",
            $mode,
            " = \"language\" does it every time. Typed and spoken moves are understood in both."
        )
    };
}

pub(crate) const ASSIST_HELP: &str = concat!(
    "Be the blind player's assistant in an over-the-board game on two \
boards (FIDE Appendix D9): the blind player's peg board on one port (--peg-board), the sighted \
player's electronic board on another (--sighted-board), or the sighted player's moves typed at \
the keyboard; one clock (--tc).\n\n\
What hector does: announces the moves of both players in the Appendix D words (D9b) and, for a \
board that no sensor reads, says on which board a move must be made (D9a); keeps the record \
for the blind player and starts the opponent's clock only when a move is complete (D2.3, D9c: \
the captured piece removed, the piece in its new hole); tells the move count and the time \
used by both players only when asked (D9d: clock, uhr); claims the win when the opponent's \
flag falls and says when the sighted player touched a piece (D9e); does the formalities of an \
adjournment (D9f, Appendix E). When the two boards differ (D2.8) it says which board and how, \
in the Appendix D words.\n\n\
What to type: the questions of hector play (board, last, list, clock, square e4, …), draw, \
accept, decline, claim, resign, save, quit; a move for a side without a board; \
abgeben MOVE; DATE, TIME AND PLACE (or: seal MOVE; …) to adjourn: the player to move seals \
MOVE, it is not played, and the envelope (E2) is written; open (öffnen) plays the sealed move \
when the game resumes. The arbiter's decisions, typed after sr (or arbiter): sr zurück \
(confirm: back to the last move both records share), sr berichtigen weiß (correct white: that \
board is to follow the record), sr pause, sr weiter, sr zeit weiß 1:30:00, sr zeit schwarz +2, \
sr zähler weiß 20, sr strafe weiß, sr regelwidrig schwarz, sr remis, sr ergebnis 1-0, sr notiz \
TEXT.\n\n\
--for sighted serves the sighted player's side when the blind player has no assistant \
(D10): moves are announced and it says what to make on which board; nothing else.\n\n\
Every game is recorded as it is played; hector resume continues it, an adjourned one with its \
envelope.",
    fide_words!("assist")
);

pub(crate) const ARBITER_HELP: &str = concat!(
    "Supervise games between sighted and blind players on two boards \
each (FIDE Appendix D1, D2.8): the sighted player's board and the blind player's peg board, \
both on serial ports, one clock per game. Each game is a small TOML file:\n\n\
  white = \"Anna Schmidt\"\n\
  black = \"Bernd Weber\"\n\
  blind = \"black\"                      # the blind player's colour\n\
  time_control = \"40/5400+30:1800+30\"  # no clock when left out\n\
  language = \"de\"                      # the game's words; the console's when left out\n\
  event = \"Stadtmeisterschaft\"          # also site, round, fen\n\
  [peg_board]                          # the blind player's board\n\
  port = \"/dev/ttyACM0\"\n\
  protocol = \"peg\"                     # peg (default) or dgt\n\
  [sighted_board]\n\
  port = \"/dev/ttyUSB0\"\n\
  protocol = \"dgt\"                     # dgt (default) or peg\n\n\
The console lists every game: the players, the last move, both clocks, whose clock runs and \
the alerts. When the two boards of a game differ you hear it at once, with the game's number, \
the board and how it differs in the Appendix D words. If the two records (each board's moves \
as it produced them) agree, the board that deviates is named square by square until it is \
right again; if they disagree, hector names the last move both share, and zurück (confirm) \
takes the game back to it, pauses the clock and asks for the clocks to be set; berichtigen \
FARBE (correct COLOUR) has that board follow the record instead.\n\n\
Commands, for the chosen game (a number alone chooses it) or with the game's number in front: \
pause, weiter (resume), zeit weiß 1:30:00 / +2 / -30s (time), zähler weiß 20 (counter, 7.1), \
strafe weiß (penalty: the opponent of White gets the penalty time, two minutes, one in \
blitz), regelwidrig schwarz (illegal: 7.5, the second one loses), reklamation [ZUG] (claim \
9.2/9.3 for the player to move, checked; 9.5b when wrong), remis (draw agreed), ergebnis 1-0 \
(result), umwandlung dame (promote: the piece a peg board cannot tell), abgeben ZUG; ZEIT UND \
ORT (seal: adjourn, Appendix E), öffnen (open the envelope), notiz TEXT (note); questions as in \
hector play (brett, letzter, liste, uhr …); protokoll [N] (log: the game's events read back); \
partien (games: every game in one line); hilfe; ende (quit).\n\n\
Every action goes to the game's record and its PGN as a comment. Games continue from their \
records when hector arbiter is started again with the same files (--new starts afresh).\n\n\
--broadcast ROUND pushes every game's PGN (players, moves, result) to a lichess broadcast round \
you may contribute to, after each move and at the end, with the token stored by hector online \
login (it needs the scope study:write; docs/ONLINE.md). A refused push is said on the console \
and tried again, waiting longer each time; the games and their records never wait for it.",
    fide_words!("arbiter")
);

pub(crate) const RESUME_HELP: &str = concat!(
    "Continue an unfinished game exactly where it stopped: the \
position, the moves, both clocks (as they stood at most a second before a crash or when you \
left), whose clock runs, a pending draw offer, and the settings (opponent, level, time \
control, language and the words moves are announced with, boards). Every game is recorded \
as it is played (Appendix D6), also when hector or the computer stops unexpectedly. GAME is \
the number hector games shows, or the path of a journal; without it, the latest unfinished \
game.\n\n\
A game whose journal is damaged, or holds an entry the game refuses, is still found: hector \
says what is wrong and asks whether to continue from the last good position (ja or nein). \
Yes starts a new journal with the good part, which notes the file it continues; the damaged \
file stays as it is. No changes nothing. Without a terminal on standard input nothing is \
asked: the reason goes to standard error and the exit status is 1.",
    own_words!("play")
);

pub(crate) const PLAY_HELP: &str = concat!(
    "Play a spoken game. Every move is announced in the words of FIDE \
Appendix D (Anna, Bella, Cäsar, David, Eva, Felix, Gustav, Hector; eins to acht; König, Dame, \
Turm, Läufer, Springer, Bauer; Kurze and Lange Rochade): in German, and with --words fide in \
every language (see The words below).\n\n\
With no options: you play White and type your moves; the computer (Stockfish, level 1) plays \
Black when it is installed, otherwise a second player types Black's moves; no clock.\n\n\
Type a move as you would say it (Springer Felix drei, knight felix three, Eva vier) or in \
notation (Nf3, Sf3, e4, g1f3, 0-0), then Enter. Questions: board, pieces, where are the \
black rooks, square e4, rank 4, file e, diagonal e4, attacks e4, moves g1, moves, captures \
(only the capturing moves; captures e4: of that piece), last, turn, opponent, material, \
captured, threats, list 10, clock, opening; and repeat, draw, accept, decline, \
claim, claim Nf3, resign, takeback (against the computer at once, a person is asked; off with \
--no-takeback), abort (before both sides have moved), rematch (after the game, colours \
swapped), save, new, silence, mute, unmute, faster, slower, quit, help. Against the \
computer, eval says how the position stands and hint the move the computer would play (both \
noted in the record; --no-hints switches them off). German words work too (brett, figuren, \
feld e4, remis, reklamieren, aufgeben, zurücknehmen, abbrechen, revanche, geschlagen, \
drohungen, schlagzüge, gegner, eröffnung, bewertung, tipp, ende …).\n\n\
Premoves: a move typed (or made on the board) while the computer, the sighted player's \
e-board or the online opponent is to move is kept (Vorauszug gemerkt) and played as soon as \
the opponent's move makes it legal (Vorauszug: …), or dropped with the reason; Enter on an \
empty line cancels it, a new one replaces it. It is not recorded until it is played.\n\n\
Line mode (--screen-reader): each answer is printed once, wrapped at spaces to the \
terminal's width, and the prompt follows the last line of the answer; while the opponent's \
move is awaited there is no prompt. The opponent's move carries its label (Computer: …, \
Schwarz: …), in speech too.\n\n\
Looking back: position 12 (after Black's 12th move; position 12 white: after White's) shows \
that position, every question answers for it and moves wait; next and previous step one \
half-move, current returns (stellung, vor, vorher, aktuell).\n\n\
Resign, quit (while the game runs), new (while a game runs) and a take-back asked of a person \
wait for an answer: only yes (ja) confirms and no (nein) answers; Enter alone or the same \
command again asks again, anything else lets the question go.\n\n\
Full-screen keys: arrows walk over the board and each square is spoken; Enter on an empty \
line reads the focused square; F1 help, F2 board, F3 last move, F4 clock, F5 whose turn, F6 \
material, F7 the game's moves, F8 moves of the piece on the focused square, F9 its attackers \
and defenders, F10 its rank, F11 its file, F12 its diagonals; Ctrl+R repeat, Escape silence, \
Ctrl+X mute, Ctrl+Up and Ctrl+Down speaking rate, Ctrl+Q quit; Home and End the edge of the \
rank, Ctrl+Home and Ctrl+End the far and the near rank. Page Down and Page Up page through \
the newest answer when it is longer than the panel (its last line then says weiter mit Bild \
ab): the lines shown are said, and the cursor rests on them for a braille display until \
another key.\n\n\
Tab gives the keys to the board (and back to the input line): Space picks up the piece on \
the focused square and Space on the target plays it, Escape puts it down (at a promotion \
the piece's letter answers); the board's \
letters (K Q R B N P; German K D T L S B, where Q R N P work too) jump to your next such piece, with Shift to the \
opponent's; 1 to 8 go to that rank. At the board's edge the arrows say Edge. As in \
lichess's blind mode: m the moves of the focused piece, Shift+M only its captures, Shift+1 \
to 8 that file, Shift+A and Shift+D one half-move back and forward in the game (previous, \
next; in German the opponent's queen is then Shift+Q), v eval, g hint, f turns the board, o \
the opponent.\n\n\
Openings: opening (eröffnung) names the opening the game has reached, from the lichess \
opening table (names in English; German names for the common families); with --openings \
each newly reached named opening is said once, after the move.\n\n\
Wording: --square-first (Eva vier weißer Bauer) or --piece-first (weißer Bauer Eva vier) in \
board readings (the default keeps each reading's usual order); --no-colour-words leaves out \
weiß and schwarz where the sentence tells the colour (the pieces a side attacks, attackers \
and defenders); --no-check-words does not say Schach after a checking move (mate is still \
said; last and list keep it).\n\n\
The configuration file (~/.config/hector/config.toml or $HECTOR_CONFIG) sets the same: \
[play] openings = true; [words] order = \"usual\" | \"square-first\" | \"piece-first\", \
colour_words = false, check_words = false. The options override it; hector resume uses the \
file.\n\n\
Levels of the computer: 1 is a beginner (it also picks weaker moves now and then), 8 is \
full strength; each level also thinks longer (0.1 s to 2 s).\n\n",
    time_controls!(),
    own_words!("play")
);

pub(crate) const SAY_HELP: &str = "Say a text aloud, to try the speech output on this machine.\n\n\
Backends, tried in this order with --speech auto: speech-dispatcher (the Linux speech \
service; hector sets the language for every phrase), espeak-ng (the program, started for \
every phrase), print (plain lines on standard output for a screen reader or braille \
display). --speech tts uses the tts crate's system speech. A backend that fails or hangs \
(speech-dispatcher without working audio can block for ever) is abandoned within two \
seconds and the next one takes over; hector says so once, on standard error.\n\n\
Settings come from ~/.config/hector/config.toml (or $HECTOR_CONFIG; empty for none), \
[speech] section: backend, language, voice, rate (-100 to 100), volume (0 to 100); these \
options override it. Only a regular file of at most 64 KiB is read; a file named by \
$HECTOR_CONFIG that does not exist is reported.\n\n\
--wav FILE writes the speech to a WAV file with espeak-ng (no sound card needed).\n\n\
Exit status: 0 when everything was said (or written), 1 when no backend could say it, \
2 on a usage error.";

pub(crate) const CHECK_HELP: &str = "Check every game of a PGN file against the Laws of Chess.\n\n\
For each game hector replays the moves (standard chess, and Chess960 with [Variant \"Chess960\"] \
and a [FEN] tag) and reports: the first illegal move (ply, move and reason); the first ply at \
which a draw could be claimed by threefold repetition (Article 9.2b) and by the fifty-move rule \
(9.3b); the first automatic end (checkmate 5.1a, stalemate 5.2a, dead position 5.2b with \
insufficient material or locked pawns, fivefold repetition 9.6a, seventy-five-move rule 9.6b); \
and whether the Result tag agrees. A ply number counts the half-moves played when the position \
arose (0 is the start position).\n\n\
Without --json, one sentence per game and a summary line. With --json, one object per game:\n\
{\"game\":1,\"plies\":85,\"illegal\":null,\"claims\":{\"threefold\":40,\"fifty_move\":null},\
\"automatic\":{\"ply\":85,\"rule\":\"checkmate\"},\"result_tag\":\"1-0\",\"status\":\"1-0\"}\n\
rule is one of checkmate, stalemate, insufficient-material, dead-position (locked pawns), \
fivefold, seventy-five-move. A game with syntax problems also has \
\"errors\": [{\"line\":N,\"message\":\"…\"}]; each kind of problem is reported once per \
game, at its first line, with \"more\":N when it recurs N more times.\n\n\
FILE may be compressed with zstd (.zst), gzip (.gz) or bzip2 (.bz2), recognised by its first \
bytes, also on standard input (-); a file named so that holds other data is an error. The \
input is read as it streams, so memory depends on the longest game, not on the file. A game \
longer than 1 MiB is not read: it gets one error and is skipped up to the next line that \
starts with [Event. Moves and tag names in messages are cut to 40 characters, players' names \
to 100; control characters and bytes that are not UTF-8 are shown as \\xNN.\n\n\
--jobs N works on N games at a time (default: one per core); the output is the same, in the \
same order, for every N. On a terminal, a progress line on standard error shows the games, \
megabytes and speed so far (and the time left for a file), from the first second on; --quiet \
leaves it out.\n\n\
Exit status: 0 when every game is legal and consistent, 1 otherwise, 2 when the file cannot be \
read (a device, or a file over 512 MiB, is not read) or the report cannot be written. When the reader of standard output goes away (hector … | head) hector stops quietly \
with status 0; another output error (a full disk) is reported and the status is 2.";

pub(crate) const TRANSCRIPT_HELP: &str = concat!(
    "Speak every move of every game of a PGN file.\n\n\
The words are those of FIDE Appendix D2.1: files Anna, Bella, Cäsar, David, Eva, Felix, \
Gustav, Hector; ranks eins to acht; König, Dame, Turm, Läufer, Springer, Bauer; Kurze and \
Lange Rochade. --lang en uses the English ranks and piece names.\n\n\
--format text prints a heading per game, then one line per move number, White's and Black's \
White's and Black's phrases separated by a semicolon (\"1. Eva vier; Eva fünf\"), then the \
result.\n\
--format tsv prints one line per ply and nothing else: game number, ply (from 1), SAN, UCI \
(Chess960 castling as king-takes-rook, e.g. e1h1), and the phrase, separated by tabs.\n\n\
Games are numbered by their place in the file, as hector check numbers them.\n\n\
FILE may be compressed with zstd (.zst), gzip (.gz) or bzip2 (.bz2), recognised by its first \
bytes, also on standard input (-); a file named so that holds other data is an error. The \
input is read as it streams, so memory depends on the longest game, not on the file. A game \
longer than 1 MiB is not read: it gets one error and is skipped up to the next line that \
starts with [Event. Control characters and bytes that are not UTF-8 are shown as \\xNN.\n\n\
--jobs N works on N games at a time (default: one per core); the output is the same, in the \
same order, for every N. On a terminal, a progress line on standard error shows the games, \
megabytes and speed so far (and the time left for a file), from the first second on; --quiet \
leaves it out.\n\n\
A game with an illegal move is spoken up to that move, and a game too long to read not at \
all; the problem goes to standard error and the exit status is 1 (2 when the file cannot be \
read). When the reader of standard output goes away (hector … | head) hector stops quietly \
with status 0; another output error (a full disk) is reported and the status is 2.",
    own_words!("transcript")
);

pub(crate) const PARSE_HELP: &str = "Show which legal move a text names.\n\n\
Understood in every language whatever --lang says: SAN with English or German letters \
(Nf3, N f3, Sf3, Lb5, e8=Q, e8D, 0-0, O-O-O, OO), coordinates (g1f3, g1-f3, e7e8q), and \
words (\"Springer Felix drei\", \"knight felix three\", \"Eva schlägt David fünf\", \
\"Springer Gustav eins nach Felix drei\", \"Kurze Rochade\", \"Rochade\" when only one \
castling is legal, \"eva eight promotes to queen\"), with digits for ranks and the usual \
spellings (Caesar, Laeufer, fuenf). An upper-case piece letter before a square is the \
piece (Bb4 is the bishop), and a bare square is a pawn's push.\n\n\
Prints the UCI move and its short spoken form separated by a tab, and exits 0. When the text \
does not name exactly one legal move, prints why (unknown word with the nearest known one, no \
piece can reach, a pawn that would have to capture, king left in check, ambiguous with every \
candidate, promotion piece missing, which castling) and exits 1. A bad FEN or option exits 2. Control characters in the text are shown as \\xNN. When the reader of \
standard output goes away (hector … | head) hector stops quietly with status 0; another output \
error (a full disk) is reported and the status is 2.";

pub(crate) const LISTEN_HELP: &str = "Show which move a recording of a spoken move names.\n\n\
The recording (WAV, any rate and channels; one phrase such as \"Springer Felix drei\", \
\"knight felix three\", \"Eva schlägt David fünf\", \"Uhr\") is heard as hector hears the \
microphone in a game: with the legal moves of the position (--fen, else the start), with \
every move phrase of the language (--lang), and the decision of docs/VOICE.md.\n\n\
A move heard with confidence: prints the UCI move and its short spoken form separated by a \
tab, as hector parse does, and exits 0. A move or command heard without confidence: prints \
it with a question mark (g1f3?, then \"Springer Felix drei?\"), as hector would ask it back, \
and exits 3; two moves asked back in one question: both, each with its question mark, then \
the question (e2e4?, e2e3?, \"Eva vier, oder zweitens: Eva drei?\"), and exits 3. A command: \
its typed word and its name. Nothing understood: says so and exits 1. \
A file that cannot be read, a bad FEN, or no recogniser (PocketSphinx and its model: sudo \
apt install libpocketsphinx3 pocketsphinx-en-us) is reported and the status is 2.\n\n\
--answer hears the recording as the answer to a question (ja, zweitens for the second of \
two moves, nein). --details adds what each grammar heard, the tests' results, the move named \
second and the move one near word away, and the milliseconds from the end of the recording \
to the decision. --voice-model DIR uses a PocketSphinx model the player installed.";

pub(crate) const BOARD_HELP: &str = "Electronic and sensor boards.\n\n\
hector board list shows the serial ports, hector board monitor shows what hector reads from \
a board. hector simulate-board makes a board to try this without hardware. docs/BOARDS.md \
explains setting a board up.";

pub(crate) const BOARD_LIST_HELP: &str = "List the serial ports of this computer.\n\n\
One line per port: its path (give it to hector board monitor), how it is connected, and for \
USB devices the vendor and product ids, maker, product name and serial number, as far as the \
device tells them. A port this user may not open says which group to join (on Debian the \
group dialout: sudo adduser $USER dialout, then log out and in again).\n\n\
With no board plugged in there may be no ports at all; the line then says so. Pseudo-terminals \
(such as the simulator's) are not listed.";

pub(crate) const BOARD_MONITOR_HELP: &str = "Watch a board: every event, one line each.\n\n\
hector opens the port at the protocol's rate and framing (listed under --protocol; --baud \
sets another rate), asks the board for its position and compares it with the game: the start \
position, or the one given with --fen. Then it prints, one line per event:\n\
- raw events, beginning with the protocol's name: peg: e2 lifted, peg: e4 placed, \
dgt: e4 placed P, dgt: board … (the 64 squares, rank 8 first), versions, buttons, bytes or \
lines dropped (leave them out with --no-raw);\n\
- each recognised move in the words of the --lang language (with --words fide, the FIDE words \
of Appendix D2.1 in any language; mismatches and touched pieces follow) and in UCI: Springer \
Felix drei (g1f3);\n\
- touched pieces (D2.2): Eva zwei: weißer Bauer berührt;\n\
- a board that has settled in a position that is not the game's, square by square: Eva vier: \
weißer Bauer fehlt; Felix drei: hier sollte kein Stein stehen; and Brett stimmt wieder when \
it is put right;\n\
- take-backs (the board shows the position before the last move);\n\
- promotions the board cannot read (peg boards): type the piece and Enter (Dame, Turm, \
Läufer, Springer, queen, rook, bishop, knight, or D, T, L, S, Q, R, B, N);\n\
- faults the board reports; Brett getrennt when the board is unplugged, Brett wieder \
verbunden when it is back (the port is looked for every half second), and whether it still \
shows the game. A move made while the cable was out is recognised then.\n\n\
The lines contain no control sequences: they suit screen readers and braille displays. \
The monitor ends at the end of standard input (Ctrl-D), on quit, or on Ctrl-C.\n\n\
A port that cannot be opened is explained: missing (not plugged in), busy (another program \
has it), or no permission (with the group to join, on Debian usually dialout). Exit status: 0, or 2 when the port or \
an option is wrong.\n\n\
Example: hector board monitor /dev/ttyACM0 --protocol peg --lang en";

pub(crate) const SIMULATE_HELP: &str = "Simulate a board on a pseudo-terminal.\n\n\
The simulator prints the path of its device (a symbolic link, stable across unplugging; \
choose it with --link) and a hector board monitor command line for it. It answers the \
host's requests as a real board does: DGT board dump (0x42), update mode (0x43, 0x44, 0x4b; \
a DGT board sends no field updates before it), version (0x4d), trademark (0x47), serial \
number (0x45); peg snapshot (?) and version (V). Peg lines carry their checksum.\n\n\
Commands, one per line, from standard input or from --script FILE (# starts a comment):\n\
  lift SQUARE            take the piece off a square (lift e2)\n\
  place SQUARE [PIECE]   set a piece down: the one last lifted, or the FEN letter given\n\
                         (place e4, place e8 Q)\n\
  move MOVE              a whole move of the game, in UCI, SAN or words (move e2e4, move Nf3,\n\
                         move Sf3, move Springer Felix drei), reported in a realistic order:\n\
                         DGT shows a capturing piece on its target before its start square\n\
                         empty, and a sliding bishop, rook or queen on the squares it passes;\n\
                         a peg board reports the captured peg lifted before the capturing one\n\
                         goes in; castling: king lifted, rook lifted, king and rook set down\n\
  pgn FILE [GAME]        every move of a game (the first when GAME is left out) of a PGN\n\
                         file, with the pause between moves; the board is set up first\n\
  wait DURATION          wait, answering the host meanwhile (wait 300ms, wait 2s, wait 1.5s)\n\
  await-host [DURATION]  wait until hector has connected and listens (a DGT host asked for\n\
                         updates, a peg host for a snapshot), at most DURATION (30s); a script\n\
                         begins with it so that no move is made before anyone listens\n\
  gap DURATION           time between the sensor changes of one move (default 50ms)\n\
  pause DURATION         time between the moves of pgn (default 1s; for DGT keep it above\n\
                         half a second: hector takes a move that a sliding piece could still\n\
                         extend after 0.5 s of quiet)\n\
  slide on|off           DGT: report sliding pieces on the squares they pass (default on)\n\
  noise COUNT            COUNT random bytes (a peg board ends them with a line end)\n\
  raw HEX…               bytes as given (raw 8e 00 05 24 01)\n\
  line TEXT              a peg line as given, checksum added unless it has one (line B done,\n\
                         line E supply low; a DGT board has no text lines)\n\
  snapshot               the whole board unasked (DGT board dump, peg S line)\n\
  setup FEN              set the pieces of a position square by square; the game continues\n\
                         from it\n\
  unplug                 like pulling the cable: the device closes and the link disappears;\n\
                         lift, place and move still change the board, unseen\n\
  replug                 a new device behind the same link; the board starts as after\n\
                         power-up and answers the host's requests again\n\
  echo TEXT              print TEXT\n\
  quit                   end (so does the end of the input, and Ctrl-C)\n\n\
Example, in one terminal: hector simulate-board --protocol peg --link /tmp/board; in \
another: hector board monitor /tmp/board --protocol peg; then type move e2e4 into the \
first.\n\n\
Exit status: 0, 1 when a command could not be carried out (explained on standard error), \
2 when the device cannot be made.";

pub(crate) const GAMES_HELP: &str = "List the games hector has recorded, oldest first.\n\n\
One sentence per game: its number (for hector export), when it began (UTC), the players, \
the result or \"in progress\", and the number of moves played, e.g. \
\"3. 2026-11-21 14:03 UTC: Anna Schmidt against Stockfish, White wins, 41 moves\".\n\n\
hector records every game it plays in a journal, one file per game, in \
~/.local/share/hector/games/ (the XDG data directory), or in $HECTOR_DATA/games when the \
environment variable HECTOR_DATA is set. Every event is on the disk before hector announces \
it, so a crash, a power cut or a closed terminal loses no move.\n\n\
A journal that cannot be read is listed with the reason: written by a newer hector, or \
damaged (with the line and byte). A game whose journal replays only in part (damaged bytes \
or an entry the game refuses) is listed with the moves that can be read and where and why \
the rest cannot. hector never changes such a file.\n\n\
Exit status: 0, or 2 when the games directory cannot be read or the list cannot be written. \
When the reader of standard output goes away (hector … | head) hector stops quietly with \
status 0; another output error (a full disk) is reported and the status is 2.";

pub(crate) const EXPORT_HELP: &str = "Write a recorded game as PGN or as a scoresheet.\n\n\
GAME is the number hector games shows, or the path of a journal file (a file whose name is \
only digits: write ./12).\n\n\
--pgn (the default): PGN in export format, for any chess program: the seven tags Event, \
Site, Date, Round, White, Black, Result; TimeControl; Termination (normal, time forfeit, \
rules infraction, unterminated); Variant, SetUp and FEN for Chess960 and set-up positions. \
The moves in SAN, each followed by the mover's remaining time as { [%clk h:mm:ss] } when a \
clock ran; draw offers as { (=) } (Appendix C12); claims, penalties, illegal moves, \
take-backs and the arbiter's notes as comments in the language of --lang; lines shorter than \
80 columns; the result at the end.\n\n\
--text: the scoresheet, for printing or a braille display: the players, event, site, date, \
time control and opponent; one line per move number with the piece letters of --lang \
(Appendix C3: K D T L S in German, K Q R B N in English; castling 0-0 and 0-0-0); (=) after \
a move with a draw offer; the result in words with its article.\n\n\
--format brf: the scoresheet on braille paper for an embosser (docs/BRAILLE.md): Braille \
ASCII, 40 cells by 25 lines unless --cells and --lines say otherwise, CR LF after each line \
and a form feed after each page, the braille page number at the right of each page's last \
line; the headers and the result in literary braille through liblouis (lou_translate, \
Debian's liblouis-bin and liblouis-data) in the language of --lang and the grade of --grade; \
the moves in the UKAAF braille chess code, one move pair per line with its number (1 E4 E5), \
check after the move (dots 3-4-5 1-2-3-4, Braille ASCII >P, UKAAF 1.4); a first page, the \
legend, says what the signs are and that castling and promotion are hector's own choice. \
Without liblouis nothing is written and the missing package is named.\n\n\
The output goes to standard output; --output FILE writes a file and says so. A new file or \
a regular file is written whole or not at all (a temporary file beside it, renamed over it); \
an existing file keeps its permissions and owner (a file with other hard links, or one \
hector may change but not replace, is overwritten in place). A symbolic link stays: the file \
it leads to is written. A directory, a device (such as /dev/null), a named pipe or a socket \
is refused and left as it is.\n\n\
When the reader of standard output goes away (hector export 1 | head) hector ends quietly \
with status 0. A last record cut off by a crash or a power cut is left out, with a note on \
standard error. A journal that replays only in part (damaged bytes, or an entry the game \
refuses) gives every move before the entry where it stops, then a last comment (a last line \
of the scoresheet) naming that entry and why, the result * unless those moves ended the game, \
and the same note on standard error.\n\n\
Exit status: 0, also for a journal that replays only in part; 1 when nothing of the journal \
can be read (the reason names the line); 2 when there is no such game or the output cannot \
be written.";

pub(crate) const CLOCK_HELP: &str = concat!(
    "A talking chess clock (FIDE Article 6, Appendix D5) for any physical board.\n\n\
Keys in the full screen: Space starts the clock with White's time running (6.6), and then \
presses for the player whose clock runs; Left and Right arrows are the two levers (a lever \
counts only when its clock runs, as on a real clock); t or Enter: both times and the move \
count; z: the move count; p: pause and resume (6.12); w: repeat; a: time announcements on \
or off; s or Escape: silence; m: mute; + and -: speaking rate; h: help; q: quit (once the \
clock has run, it asks first, since the times would be lost: j or y quits, n or any other key \
lets the question go).\n\n\
With --screen-reader (or when not on a terminal) hector prints one line per message and \
reads commands as lines: an empty line or start presses, left, right, time, count, pause, \
repeat, announcements, silence, mute, faster, slower, help, quit (asks the same way: yes \
quits, no answers, Enter alone asks again); or the same letters. Each press is answered with \
whose clock runs now, and a lever that does not count says so.\n\n\
Time announcements (off with --tournament, where Appendix D9d applies): one's own time \
every 15 minutes (--every), warnings at 10, 5, 2 and 1 minutes and 30 seconds (--warn), \
each of the last ten seconds (--no-countdown to drop it), the start of a new period. A flag \
fall is always announced, at once. Time on request: \"Weiß 1 Stunde 12 Minuten, Schwarz 58 \
Minuten, 23 Züge gespielt\".\n\n\
",
    time_controls!()
);

pub(crate) const ANALYSE_HELP: &str = concat!(
    "Judge a game with the chess engine (Stockfish unless --engine \
names another): how every position stands, and which moves were mistakes.\n\n\
GAME is the number hector games shows, the path of a journal file, or a PGN file (a name \
ending in .pgn, or any file with --game N: game N of the file, 1 for the first; the moves of \
its main line).\n\n\
Every line says a half-move in the Appendix D words of --lang and how the position stands \
after it, in words and as a number from White's point of view with one decimal: \"Weiß steht \
deutlich besser, plus 1,8\", \"Schwarz setzt in 3 Zügen matt\". Equal below 0.3 pawns, \
slightly better below 1, clearly better below 2.5, winning from there.\n\n\
A move is judged by how much it lowered the mover's chances to win (0 to 100, from the \
engine's evaluation before the move, with its best play, and after it): 10 points make an \
inaccuracy, 20 a mistake, 30 a blunder; the line then names the engine's better move. The \
engine's own choice is never judged. At the end, per side, how many of each.\n\n\
--errors says only the turning points: the mistakes and blunders, each with the better move. \
--pgn writes the game as PGN instead: every move followed by { [%eval 1.80] } (pawns, White's \
view; #3 and #-3 for mates), judged moves with $6, $2 or $4 (?!, ?, ??) and the better move \
as a variation with its evaluation; --output FILE writes a file as hector export does.\n\n\
The engine looks at every position to --depth half-moves (14 when neither --depth nor \
--movetime is given, at most a second per position: about ten seconds for a 40-move game) or \
for --movetime milliseconds. --speak also says every line.\n\n\
The positions are shared among one engine per core (--engines N to choose), each taking the \
next position: on two cores a game takes about 0.6 of the time of one engine. --all judges \
every recorded game that has no kept analysis yet, with a line per game; stopped, it goes on \
where it stopped, since each game's analysis is kept as soon as it is done.",
    own_words!("analyse")
);

pub(crate) const TRAIN_HELP: &str = concat!(
    "Learn from your own mistakes: the positions of your recorded \
games (hector play) where a move of yours was a mistake or a blunder are asked again, one \
after another: \"1 von 3. Partie vom 2026-11-25 14:03 UTC gegen Stockfish. Ihr 14. Zug, Weiß \
am Zug: finden Sie einen besseren Zug. In der Partie: Springer Felix drei, Fehler\".\n\n\
Type a move (or make it on your board with --board and --protocol). The engine's best move is right, \
and so is any move it finds as good (at most 5 points of winning chances below it, the scale \
of hector analyse); a right answer is praised with the line that follows. A wrong one is \
answered with the engine's reply to it and how the position then stands, and asked again; \
after three wrong answers the solution is shown. tipp (hint) names the piece, a second tipp \
where it goes; lösung (solution) shows the move, weiter (next) skips the position; every \
question of hector play about the position works (brett, feld e4, figuren, angriffe, züge, \
material, gefahren); ende (quit) ends.\n\n\
A game not yet judged is judged first, with every core (as hector analyse; its analysis is \
kept beside the game, so each game is judged once). What you solved is kept in \
training.progress in hector's data directory: a position comes back in later sessions until \
you have solved it twice. A damaged progress file is named and training starts afresh.",
    own_words!("train")
);

pub(crate) const PUZZLE_HELP: &str = concat!(
    "Puzzles from the lichess puzzle database (3,000 shipped with \
hector, CC0; assets/puzzles), one after another, each near your rating: \"Aufgabe 00LII, \
Wertung 1661: Vorteil, Hängende Figur. Schwarz am Zug nach Turm Gustav zwei. Finden Sie den \
besten Zug\".\n\n\
Type (or make on your board) each move of the solution; after a right move the opponent's \
answer is said and played, until the puzzle is solved. A wrong move ends the puzzle with the \
solution. A mating move solves the puzzle at any step, as on lichess. tipp (hint) names the piece, a second tipp the \
square; lösung (solution) shows the solution (the puzzle counts as missed); weiter (next) \
skips it; the questions of hector play about the position work; ende (quit) ends.\n\n\
Your rating starts at 1500 and follows your results by the Elo formula: after each puzzle it \
moves by 32 x (result - expected), the expected result 1 / (1 + 10^((puzzle - you) / 400)), \
the result 1 for solved and 0 for missed. It and the puzzles played are kept in \
puzzles.progress in hector's data directory; a puzzle played does not come again. A record \
hector cannot read (damaged, from a newer hector, larger than 4 MiB) is kept under a name \
that says so (puzzles.progress.unreadable-DATE), and you are told where. --theme \
chooses a theme by its name in any language or lichess's key; --rating chooses puzzles near \
another rating. hector play --from-puzzle ID plays a puzzle's position out against the \
computer at full strength.\n\n\
From lichess: --daily plays lichess's puzzle of the day, --online a new lichess puzzle (of \
--theme if given). Logged in (hector online login, a token allowing puzzle:read and \
puzzle:write), lichess gives a puzzle you have not seen, the result is recorded on lichess and \
your lichess puzzle rating is said; a token made without puzzle:read is said, and the puzzle \
comes without it; without a login the result is kept here only. When lichess cannot be reached or refuses, the reason is said and hector's own puzzles \
follow.",
    own_words!("puzzle")
);

/// What `hector online play --help` says after the options.
pub(crate) const ONLINE_PLAY_HELP: &str = concat!(
    "In the game every question and key of hector play works \
(hector play --help): the moves in the Appendix D words, the opponent's with its label \
(Schwarz: Eva fünf); chat, sag TEXT, remis, annehmen, zurück, aufgeben, abbrechen and sieg go \
to lichess; gegner (opponent) names the opponent with the rating lichess gives. A move typed \
while the opponent is to move is a premove: kept (Vorauszug gemerkt), sent to lichess as soon \
as the opponent's move has come, or dropped with the reason; Enter on an empty line cancels \
it. On the full screen F1 lists the keys: Tab gives them to the board (Space picks up and \
plays, m and Shift+M the moves and captures of the focused piece, Shift+1 to 8 a file, \
Shift+A and Shift+D back and forward in the game, f turns the board, o the opponent), Page Up \
and Page Down page through the newest answer. --screen-reader prints each answer once, \
wrapped at spaces, with the prompt after its last line.\n\n\
Correspondence: --days N (1, 2, 3, 5, 7, 10 or 14 days per move) with --seek, --challenge or \
--ai; a daily seek stays on lichess until someone accepts (hector online games lists the game \
then). In a daily game uhr says the time left in days and hours, and ende after your move \
leaves without resigning; --game comes back to it. --rating-range 1500-1800 limits a seek to \
opponents rated in that range. Every seek and challenge is said back before it is sent.",
    own_words!("online")
);

pub(crate) const STUDY_HELP: &str = concat!(
    "Study the games of a PGN file in words: the main line, its variations to any depth, \
the comments, the annotation glyphs (as words: guter Zug, Fehler), the clock times ([%clk]) and \
evaluations ([%eval]). The file may be of any size and compressed (.gz, .zst, .bz2): it is read \
as it streams and never changed. The first game opens (--game N another); partien lists ten \
games, partien NAME finds a player, an event, an opening or ECO code, a date or a result, partien \
NAME 57 goes on from game 57, öffnen 3 opens game 3. The file is read once in the background to \
know where each game is: stand says how far it is, abbrechen or Escape stops a search or a game \
still waited for. vor and vorher go one half-move on or back and say the move (Zug 12, Schwarz: \
Springer Felix drei) with what the file says of it; stellung 12 goes to move 12 of the line, \
anfang and schluss to its start and end. Where the file has several moves, they are said (Zwei \
Varianten: Springer Felix drei, oder Läufer Cäsar vier): variante 2 enters the second, zurück \
leaves it for the line above. kommentar says the comment, clock and evaluation again, uhr each \
side's time as the file last gave it. A typed \
move that the file has follows it; another starts a variation of your own, and speichern FILE \
writes the game with your variations to a new file (speichern alone: beside the original, \
NAME-study-1.pgn). Every question of hector play answers for the position reached: brett, \
feld e4, letzter, liste, züge, material…; explorer says the moves masters and lichess players \
chose most often from it (with a lichess token: hector online login). hilfe says the commands, \
hilfe again all of them.\
\n\nExamples:\n  hector study games.pgn\n  hector study --game 12 twic1500.pgn.gz\n  hector study \
--lang en --screen-reader lichess_db.pgn.zst",
    own_words!("study")
);

pub(crate) const WATCH_HELP: &str = concat!(
    "Follow games on lichess that you do not play: a broadcast round \
(a tournament's live boards), one game being played, or lichess TV. Every new move is said in \
the Appendix D words as it arrives (Springer Felix drei); with --all-boards the other boards' \
moves too, after the board's name (Brett 2, Anna gegen Bert: Eva vier). The questions of hector \
play are answered for the board followed: brett, letzter, uhr (the times the broadcast gives), \
stellung 12, liste, züge, figuren, material… bretter names the round's boards, folgen 3 or \
folgen NAME follows another. Nothing can be moved or sent: a typed move is refused. A dropped \
connection is said once and made again by itself (waiting 1, 2, 4 … up to 30 seconds); when \
lichess asks to wait (HTTP 429) hector waits a full minute; a connection is said back once it \
holds. A round keeps at most 100 boards; --board and --all-boards go only with --broadcast. \
No login is needed: rounds, games and TV are public, and no token is sent.\n\nExamples:\n  hector watch --broadcast K8nB1xYz --board Carlsen\n  hector \
watch --broadcast K8nB1xYz --all-boards\n  hector watch --game LuGQwhBb\n  hector watch --tv",
    own_words!("watch")
);
