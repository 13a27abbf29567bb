//! Command-line interface: the modes of hector and their options.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::core::notation::language::{Language, language};
use crate::core::notation::speak::Form;

#[derive(Debug, Parser)]
#[command(
    name = "hector",
    version,
    about = "An accessible chess companion for blind and visually impaired players (FIDE Appendix D).",
    long_about = "hector speaks every move in the words of the FIDE Laws of Chess, Appendix D \
        (Anna, Bella, Cäsar … Hector; eins … acht), understands moves typed or dictated in \
        those words or in algebraic notation, keeps the record and checks games against \
        the Laws.\n\nEvery mode has its own help: hector help MODE, or hector MODE --help."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The spoken form of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    /// Like SAN: "Springer Felix drei", "Eva schlägt David fünf".
    Short,
    /// From-square and to-square: "Springer Gustav eins nach Felix drei".
    Long,
}

impl From<FormArg> for Form {
    fn from(f: FormArg) -> Form {
        match f {
            FormArg::Short => Form::Short,
            FormArg::Long => Form::Long,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a spoken game: against the computer, a second player, or a player on an e-board.
    #[command(long_about = PLAY_HELP)]
    Play(PlayArgs),
    /// Play on lichess with hector's words, questions and your own board (login first).
    Online(crate::app::online::OnlineArgs),
    /// Continue an unfinished game exactly where it stopped (the latest when none is named).
    #[command(long_about = RESUME_HELP)]
    Resume {
        /// The game: its number in hector games, or a journal file.
        game: Option<String>,
        /// Plain lines instead of the full screen.
        #[arg(long)]
        screen_reader: bool,
        /// Speech output: auto, speech-dispatcher, espeak-ng, tts, print.
        #[arg(long, value_enum, value_name = "BACKEND")]
        speech: Option<crate::core::settings::BackendChoice>,
        /// An adjourned game: its envelope (by default the one its journal names).
        #[arg(long, value_name = "FILE")]
        envelope: Option<PathBuf>,
    },
    /// Be the blind player's assistant in a game on two boards (Appendix D9, D10).
    #[command(long_about = ASSIST_HELP)]
    Assist(AssistArgs),
    /// Supervise games on two boards each: alerts when the boards differ (D2.8), the
    /// arbiter's controls, the games' logs.
    #[command(long_about = ARBITER_HELP)]
    Arbiter {
        /// The games, one TOML file each (players, colours, the two boards, time control).
        #[arg(required = true, value_name = "GAME.toml")]
        games: Vec<PathBuf>,
        /// Plain lines instead of the full screen.
        #[arg(long)]
        screen_reader: bool,
        /// Start every game afresh instead of continuing its unfinished record.
        #[arg(long)]
        new: bool,
        /// Language of the console: de (default) or en. Each game speaks its file's language.
        #[arg(long, value_name = "CODE")]
        lang: Option<String>,
        /// Speech output: auto, speech-dispatcher, espeak-ng, tts, print. In screen-reader
        /// mode the default is print.
        #[arg(long, value_enum, value_name = "BACKEND")]
        speech: Option<crate::core::settings::BackendChoice>,
    },
    /// Check every game of a PGN file against the Laws of Chess (an arbiter's tool).
    #[command(long_about = CHECK_HELP)]
    Check {
        /// The PGN file to check; - reads standard input.
        file: PathBuf,
        /// One JSON object per game, one per line, instead of sentences.
        #[arg(long)]
        json: bool,
    },
    /// Speak every move of every game of a PGN file in the Appendix D words.
    #[command(long_about = TRANSCRIPT_HELP)]
    Transcript {
        /// The PGN file; - reads standard input.
        file: PathBuf,
        /// Language of the words: de (FIDE wording, default) or en.
        #[arg(long, default_value = "de", value_name = "CODE")]
        lang: String,
        /// Short form (like SAN) or long form (from-square and to-square).
        #[arg(long, value_enum, default_value = "short")]
        form: FormArg,
        /// text: numbered lines to read; tsv: one line per ply (game, ply, san, uci, spoken).
        #[arg(long, value_enum, default_value = "text")]
        format: crate::app::transcript::Format,
    },
    /// Show which move a typed or dictated text names, or why it names none.
    #[command(long_about = PARSE_HELP)]
    Parse {
        /// The move: SAN (Nf3, Sf3, exd5, e8=D, 0-0), coordinates (g1f3) or words
        /// ("Springer Felix drei", "knight felix three", "Eva acht Dame").
        #[arg(required = true, num_args = 1.., value_name = "TEXT")]
        text: Vec<String>,
        /// The position (FEN); the start position when left out.
        #[arg(long)]
        fen: Option<String>,
        /// Read the FEN's castling rights as Chess960 (X-FEN or Shredder-FEN) and print
        /// castling as king-takes-rook.
        #[arg(long)]
        chess960: bool,
        /// Language of the answer: de (default) or en. Input is understood in every language.
        #[arg(long, default_value = "de", value_name = "CODE")]
        lang: String,
    },
    /// Say a text aloud (to try the speech output), or write it to a WAV file.
    #[command(long_about = SAY_HELP)]
    Say {
        /// What to say; several texts are said one after another; - reads lines from standard
        /// input, one announcement per line.
        #[arg(required = true, num_args = 1.., value_name = "TEXT")]
        text: Vec<String>,
        #[command(flatten)]
        speech: SpeechArgs,
        /// Write the speech to this WAV file with espeak-ng instead of saying it.
        #[arg(long, value_name = "FILE")]
        wav: Option<PathBuf>,
    },
    /// A talking chess clock for any board: full-screen, or lines for a screen reader.
    #[command(long_about = CLOCK_HELP)]
    Clock {
        /// Time control: PGN TimeControl syntax (40/5400+30:1800+30, 300+3, 3600), delays
        /// (300d5 simple delay, 300b5 Bronstein), or a preset: classical, olympiad, rapid, blitz.
        #[arg(long, value_name = "SPEC", default_value = "classical")]
        tc: String,
        /// Which lever is White's: left (default) or right.
        #[arg(long, value_enum, default_value = "left")]
        white: crate::app::clock::Side,
        /// Plain lines instead of the full screen: for screen readers and braille displays.
        #[arg(long)]
        screen_reader: bool,
        /// Tournament mode (Appendix D9d): no automatic time announcements, only on request.
        #[arg(long)]
        tournament: bool,
        /// Announce one's own time every this many minutes (5 and 15 match D5a's marks).
        #[arg(long, value_name = "MINUTES", value_parser = clap::value_parser!(u64).range(1..=600))]
        every: Option<u64>,
        /// Warnings at these remaining times, e.g. 10m,5m,2m,1m,30s,10s.
        #[arg(long, value_name = "LIST")]
        warn: Option<String>,
        /// No countdown in the last ten seconds.
        #[arg(long)]
        no_countdown: bool,
        #[command(flatten)]
        speech: SpeechArgs,
    },
    /// List the voices of speech-dispatcher and espeak-ng.
    Voices {
        /// Only voices for this language, e.g. de or en.
        #[arg(long, value_name = "CODE")]
        lang: Option<String>,
    },
    /// Electronic and sensor boards: find a board's port, watch what hector reads from it.
    #[command(subcommand, long_about = BOARD_HELP)]
    Board(BoardCommand),
    /// List the recorded games, one sentence per game.
    #[command(long_about = GAMES_HELP)]
    Games {
        /// Language of the sentences: de (default) or en.
        #[arg(long, default_value = "de", value_name = "CODE")]
        lang: String,
    },
    /// Write a recorded game as PGN or as a scoresheet.
    #[command(long_about = EXPORT_HELP)]
    Export {
        /// The game: its number as hector games shows it, or the path of a journal file.
        #[arg(value_name = "GAME")]
        game: String,
        /// PGN (the default).
        #[arg(long, conflicts_with = "text")]
        pgn: bool,
        /// The scoresheet as text, for printing or a braille display.
        #[arg(long)]
        text: bool,
        /// Language of the scoresheet and of the PGN comments: de (default) or en.
        #[arg(long, default_value = "de", value_name = "CODE")]
        lang: String,
        /// Write to this file (whole or not at all) instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Simulate a DGT or peg board on a pseudo-terminal, driven by commands (no hardware needed).
    #[command(name = "simulate-board", long_about = SIMULATE_HELP)]
    SimulateBoard {
        /// The protocol the simulated board speaks.
        #[arg(long, value_enum)]
        protocol: ProtocolArg,
        /// Read the commands from this file instead of standard input; the simulator ends
        /// after the last one.
        #[arg(long, value_name = "FILE")]
        script: Option<PathBuf>,
        /// Peg board: name the piece in every placement and snapshot (P e4 N). DGT boards
        /// always identify pieces.
        #[arg(long)]
        identify_pieces: bool,
        /// The stable device path to create (a symbolic link to the current pseudo-terminal);
        /// a new temporary folder when left out. An existing file that is not a link is
        /// never replaced.
        #[arg(long, value_name = "PATH")]
        link: Option<PathBuf>,
        /// The position on the board at the start (FEN); the start position when left out.
        #[arg(long)]
        fen: Option<String>,
        /// Read the FEN's castling rights as Chess960 (X-FEN or Shredder-FEN).
        #[arg(long, requires = "fen")]
        chess960: bool,
    },
}

/// The protocol a board speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    /// DGT electronic boards (9600 baud), which identify every piece.
    Dgt,
    /// hector's peg protocol for tactile boards (115200 baud unless --baud says otherwise).
    Peg,
}

impl From<ProtocolArg> for crate::io::board_link::Protocol {
    fn from(p: ProtocolArg) -> Self {
        match p {
            ProtocolArg::Dgt => crate::io::board_link::Protocol::Dgt,
            ProtocolArg::Peg => crate::io::board_link::Protocol::Peg,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum BoardCommand {
    /// List the serial ports, with what is known of each (USB ids, maker, product, serial number).
    #[command(long_about = BOARD_LIST_HELP)]
    List,
    /// Print every event of a board and every move hector recognises, one line each.
    #[command(long_about = BOARD_MONITOR_HELP)]
    Monitor {
        /// The board's serial port, e.g. /dev/ttyACM0 or /dev/ttyUSB0 (see hector board list),
        /// or the path hector simulate-board prints.
        port: PathBuf,
        /// The protocol the board speaks.
        #[arg(long, value_enum)]
        protocol: ProtocolArg,
        /// Baud rate; 9600 for DGT and 115200 for peg boards when left out.
        #[arg(long, value_parser = clap::value_parser!(u32).range(50..=4_000_000))]
        baud: Option<u32>,
        /// The position the board shows at the start (FEN); the start position when left out.
        #[arg(long)]
        fen: Option<String>,
        /// Read the FEN's castling rights as Chess960 (X-FEN or Shredder-FEN) and print
        /// castling as king-takes-rook.
        #[arg(long, requires = "fen")]
        chess960: bool,
        /// Language of the sentences: de (FIDE wording, default) or en.
        #[arg(long, default_value = "de", value_name = "CODE")]
        lang: String,
        /// Leave out the raw sensor lines (dgt: … and peg: …); only what hector would say.
        #[arg(long)]
        no_raw: bool,
        /// Also say every sentence for the player (moves, touched pieces, mismatches,
        /// disconnections); the raw lines are only printed.
        #[arg(long)]
        speak: bool,
        /// The speech backend for --speak (default: the configuration file's, else auto).
        #[arg(long, value_enum, value_name = "BACKEND", requires = "speak")]
        backend: Option<crate::core::settings::BackendChoice>,
    },
}

/// The options of `hector play`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The colour you play.
    #[arg(long, value_enum, default_value = "white")]
    pub color: ColorArg,
    /// Who plays the other side: auto (the computer when Stockfish is installed, else a
    /// second player at the keyboard), engine, engine:PATH (any UCI engine), keyboard, or
    /// board:PORT (the sighted player's e-board; see --opponent-protocol).
    #[arg(long, default_value = "auto", value_name = "WHO")]
    pub opponent: String,
    /// The protocol of the opponent's e-board.
    #[arg(long, value_enum, default_value = "dgt")]
    pub opponent_protocol: ProtocolArg,
    /// The computer's strength, 1 (a beginner) to 8 (full strength).
    #[arg(long, default_value = "1", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub level: u8,
    /// A clock: PGN TimeControl syntax (40/5400+30:1800+30, 300+3), delays (300d5, 300b5) or
    /// a preset (classical, olympiad, rapid, blitz). No clock when left out.
    #[arg(long, value_name = "SPEC")]
    pub tc: Option<String>,
    /// Automatic time announcements (every 15 minutes, at 10, 5, 2 and 1 minutes and 30 s,
    /// the last ten seconds). Off by default, as Appendix D9d wants: times on request only.
    #[arg(long)]
    pub announce: bool,
    /// Language of the words: de (the FIDE wording, default) or en.
    #[arg(long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum)]
    pub form: Option<FormArg>,
    /// Speech output: auto, speech-dispatcher, espeak-ng, tts, print. In screen-reader mode
    /// the default is print (your screen reader reads the lines).
    #[arg(long, value_enum, value_name = "BACKEND")]
    pub speech: Option<crate::core::settings::BackendChoice>,
    /// Plain lines and a prompt instead of the full screen: for screen readers and braille
    /// displays. Chosen by itself when the output is not a terminal.
    #[arg(long)]
    pub screen_reader: bool,
    /// Play Chess960: start position N (0 to 959; 518 is the standard position), or a random
    /// one when N is left out.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "random")]
    pub chess960: Option<String>,
    /// Continue the first game of a PGN file from its last position.
    #[arg(long, value_name = "FILE.pgn", conflicts_with = "fen")]
    pub from: Option<PathBuf>,
    /// Start from this position (FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Your board on a serial port (a peg board, or an e-board): moves are read from it
    /// (Appendix D2.2-D2.3) and the opponent's moves must be made on it.
    #[arg(long, value_name = "PORT", requires = "protocol")]
    pub board: Option<PathBuf>,
    /// The protocol of your board.
    #[arg(long, value_enum)]
    pub protocol: Option<ProtocolArg>,
    /// How pieces are drawn: letters (K D T L S B in German) or figurines.
    #[arg(long, value_enum, default_value = "letters")]
    pub pieces: crate::app::ui::view::Pieces,
    /// Colour the squares and pieces too (everything stays readable without colour).
    #[arg(long)]
    pub colors: bool,
    /// Start a new game without asking about an unfinished one.
    #[arg(long)]
    pub new: bool,
}

/// The options of `hector assist`.
#[derive(Debug, Clone, clap::Args)]
pub struct AssistArgs {
    /// The colour of the blind player.
    #[arg(long, value_enum, default_value = "white")]
    pub blind: ColorArg,
    /// The blind player's board on a serial port (a tactile peg board).
    #[arg(long, value_name = "PORT")]
    pub peg_board: Option<PathBuf>,
    /// The protocol of the blind player's board.
    #[arg(long, value_enum, default_value = "peg")]
    pub peg_protocol: ProtocolArg,
    /// The sighted player's electronic board on a serial port; without it the sighted
    /// player's moves are typed.
    #[arg(long, value_name = "PORT")]
    pub sighted_board: Option<PathBuf>,
    /// The protocol of the sighted player's board.
    #[arg(long, value_enum, default_value = "dgt")]
    pub sighted_protocol: ProtocolArg,
    /// Whose assistant hector is: blind (Appendix D9, the default) or sighted (D10: it
    /// announces and tells what to make on which board, nothing else; no clock).
    #[arg(
        long = "for",
        value_enum,
        default_value = "blind",
        value_name = "PLAYER"
    )]
    pub duty: DutyArg,
    /// The clock: PGN TimeControl syntax (40/5400+30:1800+30, 300+3), delays (300d5) or a
    /// preset (classical, olympiad, rapid, blitz). No clock when left out.
    #[arg(long, value_name = "SPEC")]
    pub tc: Option<String>,
    /// The players' names, for the record and the envelope.
    #[arg(long, value_name = "NAME")]
    pub white: Option<String>,
    #[arg(long, value_name = "NAME")]
    pub black: Option<String>,
    /// The event, for the record.
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,
    /// Start from this position (FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Where the envelope of an adjournment is written (beside the journal by default).
    #[arg(long, value_name = "FILE")]
    pub envelope: Option<PathBuf>,
    /// Language of the words: de (the FIDE wording, default) or en.
    #[arg(long, value_name = "CODE")]
    pub lang: Option<String>,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum)]
    pub form: Option<FormArg>,
    /// Speech output: auto, speech-dispatcher, espeak-ng, tts, print. In screen-reader mode
    /// the default is print (your screen reader reads the lines).
    #[arg(long, value_enum, value_name = "BACKEND")]
    pub speech: Option<crate::core::settings::BackendChoice>,
    /// Plain lines and a prompt instead of the full screen.
    #[arg(long)]
    pub screen_reader: bool,
    /// How pieces are drawn: letters or figurines.
    #[arg(long, value_enum, default_value = "letters")]
    pub pieces: crate::app::ui::view::Pieces,
    /// Colour the squares and pieces too (everything stays readable without colour).
    #[arg(long)]
    pub colors: bool,
}

/// Whose assistant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DutyArg {
    Blind,
    Sighted,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    White,
    Black,
}

impl From<ColorArg> for shakmaty::Color {
    fn from(c: ColorArg) -> shakmaty::Color {
        match c {
            ColorArg::White => shakmaty::Color::White,
            ColorArg::Black => shakmaty::Color::Black,
        }
    }
}

const ASSIST_HELP: &str = "Be the blind player's assistant in an over-the-board game on two \
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
envelope.";

const ARBITER_HELP: &str = "Supervise games between sighted and blind players on two boards \
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
records when hector arbiter is started again with the same files (--new starts afresh).";

const RESUME_HELP: &str = "Continue an unfinished game exactly where it stopped: the \
position, the moves, both clocks (as they stood at most a second before a crash or when you \
left), whose clock runs, a pending draw offer, and the settings (opponent, level, time \
control, language, boards). Every game is recorded as it is played (Appendix D6), also when \
hector or the computer stops unexpectedly. GAME is the number hector games shows, or the path \
of a journal; without it, the latest unfinished game.\n\n\
A game whose journal is damaged, or holds an entry the game refuses, is still found: hector \
says what is wrong and asks whether to continue from the last good position (ja or nein). \
Yes starts a new journal with the good part, which notes the file it continues; the damaged \
file stays as it is. No changes nothing. Without a terminal on standard input nothing is \
asked: the reason goes to standard error and the exit status is 1.";

const PLAY_HELP: &str = "Play a spoken game. Every move is announced in the words of FIDE \
Appendix D (Anna, Bella, Cäsar, David, Eva, Felix, Gustav, Hector; eins to acht; König, Dame, \
Turm, Läufer, Springer, Bauer; Kurze and Lange Rochade).\n\n\
With no options: you play White and type your moves; the computer (Stockfish, level 1) plays \
Black when it is installed, otherwise a second player types Black's moves; no clock.\n\n\
Type a move as you would say it (Springer Felix drei, knight felix three, Eva vier) or in \
notation (Nf3, Sf3, e4, g1f3, 0-0), then Enter. Questions: board, pieces, where are the \
black rooks, square e4, rank 4, file e, diagonal e4, attacks e4, moves g1, moves, last, \
turn, material, list 10, clock; and repeat, draw, accept, decline, claim, claim Nf3, resign, \
save, new, silence, mute, unmute, faster, slower, quit, help. German words work too \
(brett, figuren, feld e4, remis, reklamieren, aufgeben, ende …).\n\n\
Full-screen keys: arrows walk over the board and each square is spoken; Enter on an empty \
line reads the focused square; F1 help, F2 board, F3 last move, F4 clock, F5 whose turn, F6 \
material, F7 the game's moves, F8 moves of the piece on the focused square, F9 its attackers \
and defenders, F10 its rank, F11 its file, F12 its diagonals; Ctrl+R repeat, Escape silence, \
Ctrl+X mute, Ctrl+Up and Ctrl+Down speaking rate, Ctrl+Q quit.\n\n\
Levels of the computer: 1 is a beginner (it also picks weaker moves now and then), 8 is \
full strength; each level also thinks longer (0.1 s to 2 s).";

/// Speech options shared by the modes that speak; each overrides the configuration file.
#[derive(Debug, Clone, clap::Args)]
pub struct SpeechArgs {
    /// auto (default: speech-dispatcher, then espeak-ng, then print), speech-dispatcher,
    /// espeak-ng, tts, or print (plain lines for a screen reader or braille display).
    #[arg(long, value_enum, value_name = "BACKEND")]
    pub backend: Option<crate::core::settings::BackendChoice>,
    /// Language of the words: de (the FIDE wording, default) or en.
    #[arg(long, value_name = "CODE")]
    pub lang: Option<String>,
    /// A voice of the speech engine (see hector voices); chosen by language when left out.
    #[arg(long, value_name = "NAME")]
    pub voice: Option<String>,
    /// Speaking rate from -100 (slowest) to 100 (fastest); 0 is normal.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(i32).range(-100..=100))]
    pub rate: Option<i32>,
    /// Volume from 0 to 100.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(0..=100))]
    pub volume: Option<i32>,
}

impl SpeechArgs {
    /// The configuration file's speech settings with these options applied over them.
    pub fn apply(
        &self,
        mut s: crate::core::settings::SpeechSettings,
    ) -> crate::core::settings::SpeechSettings {
        if let Some(b) = self.backend {
            s.backend = b;
        }
        if let Some(l) = &self.lang {
            s.language = l.clone();
        }
        if let Some(v) = &self.voice {
            s.voice = v.clone();
        }
        if let Some(r) = self.rate {
            s.rate = r;
        }
        if let Some(v) = self.volume {
            s.volume = v;
        }
        s
    }
}

const SAY_HELP: &str = "Say a text aloud, to try the speech output on this machine.\n\n\
Backends, tried in this order with --backend auto: speech-dispatcher (the Linux speech \
service; hector sets the language for every phrase), espeak-ng (the program, started for \
every phrase), print (plain lines on standard output for a screen reader or braille \
display). --backend tts uses the tts crate's system speech. A backend that fails or hangs \
(speech-dispatcher without working audio can block for ever) is abandoned within two \
seconds and the next one takes over; hector says so once, on standard error.\n\n\
Settings come from ~/.config/hector/config.toml (or $HECTOR_CONFIG), [speech] section: \
backend, language, voice, rate (-100 to 100), volume (0 to 100); these options override it.\n\n\
--wav FILE writes the speech to a WAV file with espeak-ng (no sound card needed).\n\n\
Exit status: 0 when everything was said (or written), 1 when no backend could say it, \
2 on a usage error.";

const CHECK_HELP: &str = "Check every game of a PGN file against the Laws of Chess.\n\n\
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
\"errors\": [{\"line\":N,\"message\":\"…\"}].\n\n\
Exit status: 0 when every game is legal and consistent, 1 otherwise, 2 when the file cannot be \
read.";

const TRANSCRIPT_HELP: &str = "Speak every move of every game of a PGN file.\n\n\
The words are those of FIDE Appendix D2.1: files Anna, Bella, Cäsar, David, Eva, Felix, \
Gustav, Hector; ranks eins to acht; König, Dame, Turm, Läufer, Springer, Bauer; Kurze and \
Lange Rochade. --lang en uses the English ranks and piece names.\n\n\
--format text prints a heading per game, then one line per move number, White's and Black's \
phrases separated by two spaces (\"1. Eva vier  Eva fünf\"), then the result.\n\
--format tsv prints one line per ply and nothing else: game number, ply (from 1), SAN, UCI \
(Chess960 castling as king-takes-rook, e.g. e1h1), and the phrase, separated by tabs.\n\n\
A game with an illegal move is spoken up to that move; the problem goes to standard error and \
the exit status is 1.";

const PARSE_HELP: &str = "Show which legal move a text names.\n\n\
Understood in every language whatever --lang says: SAN with English or German letters \
(Nf3, Sf3, Lb5, e8=Q, e8D, 0-0, O-O-O), coordinates (g1f3, g1-f3, e7e8q), and words \
(\"Springer Felix drei\", \"knight felix three\", \"Eva schlägt David fünf\", \
\"Springer Gustav eins nach Felix drei\", \"Kurze Rochade\", \"eva eight promotes to queen\"), \
with digits for ranks and the usual spellings (Caesar, Laeufer, fuenf).\n\n\
Prints the UCI move and its short spoken form separated by a tab, and exits 0. When the text \
does not name exactly one legal move, prints why (unknown word, no piece can reach, king left \
in check, ambiguous with every candidate, promotion piece missing) and exits 1. A bad FEN or \
option exits 2.";

const BOARD_HELP: &str = "Electronic and sensor boards.\n\n\
hector board list shows the serial ports, hector board monitor shows what hector reads from \
a board. hector simulate-board makes a board to try this without hardware. docs/BOARDS.md \
explains setting a board up.";

const BOARD_LIST_HELP: &str = "List the serial ports of this computer.\n\n\
One line per port: its path (give it to hector board monitor), how it is connected, and for \
USB devices the vendor and product ids, maker, product name and serial number, as far as the \
device tells them. A port this user may not open says which group to join (on Debian the \
group dialout: sudo adduser $USER dialout, then log out and in again).\n\n\
With no board plugged in there may be no ports at all; the line then says so. Pseudo-terminals \
(such as the simulator's) are not listed.";

const BOARD_MONITOR_HELP: &str = "Watch a board: every event, one line each.\n\n\
hector opens the port (9600 baud 8N1 for DGT, 115200 8N1 for peg boards unless --baud says \
otherwise), asks the board for its position and compares it with the game: the start \
position, or the one given with --fen. Then it prints, one line per event:\n\
- raw events, beginning with the protocol's name: peg: e2 lifted, peg: e4 placed, \
dgt: e4 placed P, dgt: board … (the 64 squares, rank 8 first), versions, buttons, bytes or \
lines dropped (leave them out with --no-raw);\n\
- each recognised move in the words of FIDE Appendix D and in UCI: Springer Felix drei (g1f3);\n\
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

const SIMULATE_HELP: &str = "Simulate a board on a pseudo-terminal.\n\n\
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
                         line E supply low)\n\
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

const GAMES_HELP: &str = "List the games hector has recorded, oldest first.\n\n\
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
Exit status: 0, or 2 when the games directory cannot be read.";

const EXPORT_HELP: &str = "Write a recorded game as PGN or as a scoresheet.\n\n\
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
The output goes to standard output; --output FILE writes the file whole or not at all (a \
temporary file renamed over it) and says so.\n\n\
A last record cut off by a crash or a power cut is left out, with a note on standard error. \
A journal that replays only in part (damaged bytes, or an entry the game refuses) gives every \
move before the entry where it stops, then a last comment (a last line of the scoresheet) \
naming that entry and why, the result * unless those moves ended the game, and the same \
note on standard error.\n\n\
Exit status: 0, also for a journal that replays only in part; 1 when nothing of the journal \
can be read (the reason names the line); 2 when there is no such game or the output cannot \
be written.";

fn lang_or_exit(code: &str) -> Result<&'static Language, ExitCode> {
    language(code).map_err(|e| {
        eprintln!("hector: {e}");
        ExitCode::from(2)
    })
}

const CLOCK_HELP: &str = "A talking chess clock (FIDE Article 6, Appendix D5) for any physical board.\n\n\
Keys in the full screen: Space starts the clock with White's time running (6.6), and then \
presses for the player whose clock runs; Left and Right arrows are the two levers (a lever \
counts only when its clock runs, as on a real clock); t or Enter: both times and the move \
count; z: the move count; p: pause and resume (6.12); w: repeat; a: time announcements on \
or off; s or Escape: silence; m: mute; + and -: speaking rate; h: help; q twice: quit.\n\n\
With --screen-reader (or when not on a terminal) hector prints one line per message and \
reads commands as lines: an empty line or start presses, left, right, time, count, pause, \
repeat, announcements, silence, mute, faster, slower, help, quit; or the same letters.\n\n\
Time announcements (off with --tournament, where Appendix D9d applies): one's own time \
every 15 minutes (--every), warnings at 10, 5, 2 and 1 minutes and 30 seconds (--warn), \
each of the last ten seconds (--no-countdown to drop it), the start of a new period. A flag \
fall is always announced, at once. Time on request: \"Weiß 1 Stunde 12 Minuten, Schwarz 58 \
Minuten, 23 Züge gespielt\".\n\n\
Time controls: fields separated by a colon, each moves/seconds, seconds, seconds+increment \
(Fischer), seconds d delay (simple delay) or seconds b delay (Bronstein); presets classical \
(40/5400+30:1800+30), olympiad (5400+30), rapid (900+10), blitz (180+2).";

/// Reads a list of remaining times such as "10m,5m,30s".
fn parse_marks(text: &str) -> Result<Vec<std::time::Duration>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (digits, unit) =
                t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
            let n: u64 = digits
                .parse()
                .map_err(|_| format!("{t:?} is not a time like 5m or 30s"))?;
            match unit {
                "m" | "min" => Ok(std::time::Duration::from_secs(n * 60)),
                "s" | "" => Ok(std::time::Duration::from_secs(n)),
                _ => Err(format!("{t:?}: the unit must be m or s")),
            }
        })
        .collect()
}

/// Prints a start-up problem and says it, then gives the exit status for a usage error.
fn refuse(
    message: &str,
    settings: &crate::core::settings::SpeechSettings,
    lang: &Language,
) -> ExitCode {
    eprintln!("hector: {message}");
    // Already printed on standard error: a print backend adds nothing.
    let (speaker, _notices) = crate::app::say::quiet_speaker(settings, lang);
    speaker.urgent(message.to_string());
    speaker.wait_idle(std::time::Duration::from_secs(8));
    ExitCode::from(2)
}

/// Loads the configuration file; a problem is printed and the defaults are used.
/// An interactive mode's speech: the configuration file's settings with `--lang` and
/// `--speech` over them; whether a backend was chosen (by option or in the file); and the
/// language's words. Exit status 2 for an unknown language.
fn mode_speech(
    lang: Option<&str>,
    speech: Option<crate::core::settings::BackendChoice>,
) -> Result<
    (
        crate::core::settings::SpeechSettings,
        bool,
        &'static Language,
    ),
    ExitCode,
> {
    let config = settings_or_defaults(lang);
    let mut settings = config.speech.clone();
    if let Some(l) = lang {
        settings.language = l.to_string();
    }
    let chosen =
        speech.is_some() || config.speech.backend != crate::core::settings::BackendChoice::Auto;
    if let Some(b) = speech {
        settings.backend = b;
    }
    let words = lang_or_exit(&settings.language)?;
    Ok((settings, chosen, words))
}

fn settings_or_defaults(lang_hint: Option<&str>) -> crate::core::settings::Settings {
    let (settings, problem) = crate::io::config::load_settings();
    if let Some((path, reason)) = problem {
        let lang = lang_hint
            .and_then(|l| language(l).ok())
            .unwrap_or_else(crate::core::notation::language::default_language);
        eprintln!(
            "hector: {}",
            crate::core::notation::language::fill(
                &lang.messages.config_ignored,
                &[("path", &path.display().to_string()), ("reason", &reason)],
            )
        );
    }
    settings
}

/// A number for a random Chess960 start position, from the system clock.
fn random_chess960() -> u16 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() ^ (d.as_secs() as u32));
    (nanos % u32::from(crate::core::variant::CHESS960_POSITIONS)) as u16
}

fn play(args: PlayArgs) -> ExitCode {
    use crate::app::play::{Opponent, PlayOptions};
    use crate::core::game::Game;
    use crate::core::variant::{Variant, chess960_position, position_from_fen};

    let (speech, speech_chosen, lang) = match mode_speech(args.lang.as_deref(), args.speech) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let control = match args
        .tc
        .as_deref()
        .map(str::parse::<crate::core::clock::TimeControl>)
    {
        None => None,
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => return refuse(&format!("--tc: {e}"), &speech, lang),
    };
    let opponent = match args.opponent.as_str() {
        "auto" => Opponent::Auto,
        "engine" => Opponent::Engine(None),
        "keyboard" => Opponent::Keyboard,
        other => match other.split_once(':') {
            Some(("engine", path)) if !path.is_empty() => {
                Opponent::Engine(Some(PathBuf::from(path)))
            }
            Some(("board", port)) if !port.is_empty() => {
                Opponent::Board(PathBuf::from(port), args.opponent_protocol.into())
            }
            _ => {
                return refuse(
                    &format!(
                        "--opponent {other}: use auto, engine, engine:PATH, keyboard or board:PORT"
                    ),
                    &speech,
                    lang,
                );
            }
        },
    };
    let variant = if args.chess960.is_some() {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let fresh = args.new || args.fen.is_some() || args.chess960.is_some() || args.from.is_some();
    if !fresh && let Some(path) = crate::app::play::resume::offer(lang, &speech) {
        return resume_journal(&path, None, args.screen_reader, args.speech, speech);
    }
    let mut entries = Vec::new();
    let game = if let Some(file) = &args.from {
        let bytes = match crate::io::files::read_input(file) {
            Ok(b) => b,
            Err(e) => return refuse(&format!("--from: {e:#}"), &speech, lang),
        };
        match crate::core::record::import_pgn(&bytes, 1) {
            Ok(imported) => {
                entries = imported.entries();
                imported.game
            }
            Err(e) => return refuse(&format!("--from {}: {e}", file.display()), &speech, lang),
        }
    } else if let Some(fen) = &args.fen {
        match position_from_fen(fen, variant) {
            Ok(p) => Game::from_position(p, variant),
            Err(e) => return refuse(&format!("--fen: {e}"), &speech, lang),
        }
    } else if let Some(n) = &args.chess960 {
        let number = if n == "random" {
            random_chess960()
        } else {
            match n.parse::<u16>() {
                Ok(n) if n < crate::core::variant::CHESS960_POSITIONS => n,
                _ => {
                    return refuse(
                        &format!("--chess960 {n}: a number from 0 to 959"),
                        &speech,
                        lang,
                    );
                }
            }
        };
        match chess960_position(number) {
            Some(p) => Game::from_position(p, Variant::Chess960),
            None => {
                return refuse(
                    &format!("--chess960 {number}: a number from 0 to 959"),
                    &speech,
                    lang,
                );
            }
        }
    } else {
        Game::new(Variant::Standard)
    };
    let board = match (args.board, args.protocol) {
        (Some(port), Some(p)) => Some((port, p.into())),
        _ => None,
    };
    let options = PlayOptions {
        color: args.color.into(),
        opponent,
        level: args.level,
        control,
        announce: args.announce,
        form: args
            .form
            .map_or(crate::core::notation::speak::Form::Short, Into::into),
        speech,
        speech_chosen,
        screen_reader: args.screen_reader,
        start: crate::app::play::Start::New {
            game: Box::new(game),
            entries,
        },
        board,
        pieces: args.pieces,
        colors: args.colors,
    };
    crate::app::play::run(options, lang)
}

/// Continues the game recorded at `path`.
fn resume_path(
    path: &std::path::Path,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    mut speech: crate::core::settings::SpeechSettings,
) -> ExitCode {
    let resumed = match crate::app::play::resume::from_journal(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hector resume: {e:#}");
            return ExitCode::from(1);
        }
    };
    speech.language = resumed.language.clone();
    let speech_chosen =
        backend.is_some() || speech.backend != crate::core::settings::BackendChoice::Auto;
    if let Some(b) = backend {
        speech.backend = b;
    }
    let lang = match lang_or_exit(&speech.language) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let options = crate::app::play::PlayOptions {
        color: resumed.color,
        opponent: resumed.opponent,
        level: resumed.level,
        control: resumed.control,
        announce: resumed.announce,
        form: resumed.form,
        speech,
        speech_chosen,
        screen_reader,
        start: resumed.start,
        board: resumed.board,
        pieces: crate::app::ui::view::Pieces::Letters,
        colors: false,
    };
    crate::app::play::run(options, lang)
}

fn resume(
    game: Option<String>,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    envelope: Option<PathBuf>,
) -> ExitCode {
    let speech = settings_or_defaults(None).speech;
    let lang = crate::core::notation::language::language(&speech.language)
        .unwrap_or_else(|_| crate::core::notation::language::default_language());
    let path = match game {
        Some(g) => match crate::app::games::resolve(&g, lang) {
            Ok(p) => p,
            Err(code) => return code,
        },
        None => match crate::app::play::resume::latest() {
            Ok(Some(p)) => p,
            Ok(None) => {
                eprintln!("hector resume: {}", lang.record.no_unfinished);
                return ExitCode::from(1);
            }
            Err(e) => {
                eprintln!("hector resume: {e:#}");
                return ExitCode::from(1);
            }
        },
    };
    // A journal that replays only in part is continued from its last good position in a new
    // journal, when the player says so.
    let mut asked = speech.clone();
    if let Some(b) = backend {
        asked.backend = b;
    }
    // In the game's own language, as the game that follows.
    let path = match crate::app::play::resume::continue_damaged(&path, &asked, None) {
        Ok(crate::app::play::resume::Continue::Journal(p)) => p,
        Ok(crate::app::play::resume::Continue::Declined) => return ExitCode::SUCCESS,
        Ok(crate::app::play::resume::Continue::NotAsked) => return ExitCode::from(1),
        Err(e) => {
            eprintln!("hector resume: {e:#}");
            return ExitCode::from(1);
        }
    };
    resume_journal(&path, envelope.as_deref(), screen_reader, backend, speech)
}

/// Continues a journal in the mode that wrote it.
fn resume_journal(
    path: &std::path::Path,
    envelope: Option<&std::path::Path>,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    speech: crate::core::settings::SpeechSettings,
) -> ExitCode {
    match crate::io::journal::mode_of(path).as_deref() {
        Some("assist") => resume_assist(path, envelope, screen_reader, backend, speech),
        Some("arbiter") => {
            eprintln!(
                "hector resume: {} is a game of hector arbiter; start hector arbiter with its game \
                 files again to continue it",
                path.display()
            );
            ExitCode::from(1)
        }
        _ => resume_path(path, screen_reader, backend, speech),
    }
}

fn resume_assist(
    path: &std::path::Path,
    envelope: Option<&std::path::Path>,
    screen_reader: bool,
    backend: Option<crate::core::settings::BackendChoice>,
    mut speech: crate::core::settings::SpeechSettings,
) -> ExitCode {
    let (table, start, language) = match crate::app::assist::resume_spec(path, envelope) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hector resume: {e:#}");
            return ExitCode::from(1);
        }
    };
    speech.language = language;
    let speech_chosen =
        backend.is_some() || speech.backend != crate::core::settings::BackendChoice::Auto;
    if let Some(b) = backend {
        speech.backend = b;
    }
    let lang = match lang_or_exit(&speech.language) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let options = crate::app::assist::AssistOptions {
        table,
        speech,
        speech_chosen,
        screen_reader,
        pieces: crate::app::ui::view::Pieces::Letters,
        colors: false,
        start,
    };
    crate::app::assist::run(options, lang)
}

fn assist(args: AssistArgs) -> ExitCode {
    use crate::app::table::{BoardSpec, TableSpec};
    use crate::core::matchplay::two_boards::Duty;

    let (speech, speech_chosen, lang) = match mode_speech(args.lang.as_deref(), args.speech) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let duty = match args.duty {
        DutyArg::Blind => Duty::Blind,
        DutyArg::Sighted => Duty::Sighted,
    };
    if args.peg_board.is_none() && args.sighted_board.is_none() {
        return refuse(
            "hector assist needs a board: --peg-board PORT, --sighted-board PORT, or both",
            &speech,
            lang,
        );
    }
    let control = match args
        .tc
        .as_deref()
        .map(str::parse::<crate::core::clock::TimeControl>)
    {
        None => None,
        Some(Ok(_)) if duty == Duty::Sighted => {
            return refuse(
                "--tc with --for sighted: under Appendix D10 the players keep their own clock",
                &speech,
                lang,
            );
        }
        Some(Ok(c)) => Some(c),
        Some(Err(e)) => return refuse(&format!("--tc: {e}"), &speech, lang),
    };
    let start = match crate::app::assist::new_start(args.fen.as_deref()) {
        Ok(s) => s,
        Err(e) => return refuse(&format!("{e:#}"), &speech, lang),
    };
    let blind = shakmaty::Color::from(args.blind);
    let board = |port: &Option<PathBuf>, p: ProtocolArg| {
        port.as_ref().map(|port| BoardSpec {
            port: port.clone(),
            protocol: p.into(),
        })
    };
    let name = |given: &Option<String>, c: shakmaty::Color| {
        given.clone().unwrap_or_else(|| {
            if c == blind {
                lang.play.player.clone()
            } else {
                lang.play.second_player.clone()
            }
        })
    };
    let table = TableSpec {
        blind,
        peg: board(&args.peg_board, args.peg_protocol),
        sighted: board(&args.sighted_board, args.sighted_protocol),
        control,
        form: args
            .form
            .map_or(crate::core::notation::speak::Form::Short, Into::into),
        duty,
        white: name(&args.white, shakmaty::Color::White),
        black: name(&args.black, shakmaty::Color::Black),
        event: args.event.clone().unwrap_or_default(),
        site: String::new(),
        round: String::new(),
        envelope: args.envelope.clone(),
        settings: vec![("mode".into(), "assist".into())],
    };
    let options = crate::app::assist::AssistOptions {
        table,
        speech,
        speech_chosen,
        screen_reader: args.screen_reader,
        pieces: args.pieces,
        colors: args.colors,
        start,
    };
    crate::app::assist::run(options, lang)
}

/// Parses the command line and runs the chosen mode.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Play(args) => play(args),
        Command::Online(args) => match mode_speech(args.lang.as_deref(), args.speech) {
            Ok((speech, chosen, lang)) => crate::app::online::main(args, speech, chosen, lang),
            Err(code) => code,
        },
        Command::Resume {
            game,
            screen_reader,
            speech,
            envelope,
        } => resume(game, screen_reader, speech, envelope),
        Command::Assist(args) => assist(args),
        Command::Arbiter {
            games,
            screen_reader,
            new,
            lang,
            speech,
        } => {
            let (settings, speech_chosen, lang) = match mode_speech(lang.as_deref(), speech) {
                Ok(s) => s,
                Err(code) => return code,
            };
            crate::app::arbiter::run(
                crate::app::arbiter::ArbiterOptions {
                    files: games,
                    speech: settings,
                    speech_chosen,
                    screen_reader,
                    new,
                },
                lang,
            )
        }
        Command::Say { text, speech, wav } => {
            let settings = speech.apply(settings_or_defaults(speech.lang.as_deref()).speech);
            match lang_or_exit(&settings.language) {
                Ok(lang) => crate::app::say::run(&text, &settings, lang, wav.as_deref()),
                Err(code) => code,
            }
        }
        Command::Voices { lang } => crate::app::say::voices(lang.as_deref()),
        Command::Clock {
            tc,
            white,
            screen_reader,
            tournament,
            every,
            warn,
            no_countdown,
            speech,
        } => {
            let settings = speech.apply(settings_or_defaults(speech.lang.as_deref()).speech);
            let lang = match lang_or_exit(&settings.language) {
                Ok(l) => l,
                Err(code) => return code,
            };
            let control: crate::core::clock::TimeControl = match tc.parse() {
                Ok(c) => c,
                Err(e) => return refuse(&format!("--tc {tc}: {e}"), &settings, lang),
            };
            let mut announce = if tournament {
                crate::core::clock::AnnounceSettings::tournament()
            } else {
                crate::core::clock::AnnounceSettings::casual()
            };
            if let Some(m) = every {
                announce.every = Some(std::time::Duration::from_secs(m * 60));
            }
            if let Some(list) = warn {
                match parse_marks(&list) {
                    Ok(marks) => announce.thresholds = marks,
                    Err(e) => return refuse(&format!("--warn: {e}"), &settings, lang),
                }
            }
            if no_countdown {
                announce.countdown = false;
            }
            crate::app::clock::run(
                crate::app::clock::ClockOptions {
                    control,
                    white,
                    screen_reader,
                    announce,
                    speech_chosen: settings.backend != crate::core::settings::BackendChoice::Auto,
                    speech: settings,
                },
                lang,
            )
        }
        Command::Check { file, json } => crate::app::check::run(&file, json),
        Command::Games { lang } => match lang_or_exit(&lang) {
            Ok(lang) => crate::app::games::list(lang),
            Err(code) => code,
        },
        Command::Export {
            game,
            pgn: _,
            text,
            lang,
            output,
        } => match lang_or_exit(&lang) {
            Ok(lang) => {
                let format = if text {
                    crate::app::games::ExportFormat::Text
                } else {
                    crate::app::games::ExportFormat::Pgn
                };
                crate::app::games::export(&game, format, lang, output.as_deref())
            }
            Err(code) => code,
        },
        Command::Transcript {
            file,
            lang,
            form,
            format,
        } => match lang_or_exit(&lang) {
            Ok(lang) => crate::app::transcript::run(&file, lang, form.into(), format),
            Err(code) => code,
        },
        Command::Parse {
            text,
            fen,
            chess960,
            lang,
        } => match lang_or_exit(&lang) {
            Ok(lang) => crate::app::parse::run(&text.join(" "), fen.as_deref(), chess960, lang),
            Err(code) => code,
        },
        Command::Board(BoardCommand::List) => crate::app::board::list(),
        Command::Board(BoardCommand::Monitor {
            port,
            protocol,
            baud,
            fen,
            chess960,
            lang,
            no_raw,
            speak,
            backend,
        }) => match lang_or_exit(&lang) {
            Ok(lang) => {
                let speaker = speak.then(|| {
                    let mut s = settings_or_defaults(Some(&lang.code)).speech;
                    if let Some(b) = backend {
                        s.backend = b;
                    }
                    // The monitor prints every sentence itself.
                    crate::app::say::quiet_speaker(&s, lang).0
                });
                let opts = crate::app::board::MonitorOptions {
                    port,
                    protocol: protocol.into(),
                    baud,
                    fen,
                    chess960,
                    raw: !no_raw,
                    speaker,
                };
                crate::app::board::monitor(&opts, lang)
            }
            Err(code) => code,
        },
        Command::SimulateBoard {
            protocol,
            script,
            identify_pieces,
            link,
            fen,
            chess960,
        } => crate::app::simulate::run(crate::app::simulate::Options {
            protocol: protocol.into(),
            identify_pieces,
            script,
            link,
            fen,
            chess960,
        }),
    }
}
