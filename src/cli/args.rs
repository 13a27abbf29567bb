//! The command line's words: the modes, their options and the values they take, as clap
//! reads them. What the options mean for each mode is resolved in `modes`.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use super::help::*;
use crate::core::board::Protocol;
use crate::core::notation::Form;
use crate::core::settings::BackendChoice;

/// `hector --version`: the version and the commit it was built from (build.rs).
pub(crate) const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("HECTOR_COMMIT"),
    ")"
);

#[derive(Debug, Parser)]
#[command(
    name = "hector",
    version = VERSION,
    about = "An accessible chess companion for blind and visually impaired players (FIDE Appendix D).",
    long_about = "hector speaks every move in the words of the FIDE Laws of Chess, Appendix D \
        (Anna, Bella, Cäsar … Hector; eins … acht), understands moves typed or dictated in \
        those words or in algebraic notation, keeps the record and checks games against \
        the Laws.\n\nEvery mode has its own help: hector help MODE, or hector MODE --help."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The spoken form of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormArg {
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
pub(crate) enum Command {
    /// Play a spoken game: against the computer, a second player, or a player on an e-board.
    #[command(long_about = PLAY_HELP)]
    Play(PlayArgs),
    /// Play on lichess with hector's words, questions and your own board (login first).
    Online(OnlineArgs),
    /// Follow a lichess broadcast round, a game or lichess TV: every move said as it comes.
    #[command(long_about = WATCH_HELP)]
    Watch(WatchArgs),
    /// Study a PGN file's games: walk them with their variations and comments, in words.
    #[command(long_about = STUDY_HELP)]
    Study(StudyArgs),
    /// Continue an unfinished game exactly where it stopped (the latest when none is named).
    #[command(long_about = RESUME_HELP)]
    Resume(ResumeArgs),
    /// Be the blind player's assistant in a game on two boards (Appendix D9, D10).
    #[command(long_about = ASSIST_HELP)]
    Assist(AssistArgs),
    /// Supervise games on two boards each: alerts when the boards differ (D2.8), the
    /// arbiter's controls, the games' logs.
    #[command(long_about = ARBITER_HELP)]
    Arbiter(ArbiterArgs),
    /// Check every game of a PGN file against the Laws of Chess (an arbiter's tool).
    #[command(long_about = CHECK_HELP)]
    Check(CheckArgs),
    /// Speak every move of every game of a PGN file in the Appendix D words.
    #[command(long_about = TRANSCRIPT_HELP)]
    Transcript(TranscriptArgs),
    /// Show which move a typed or dictated text names, or why it names none.
    #[command(long_about = PARSE_HELP)]
    Parse(ParseArgs),
    /// Show which move a recording of a spoken move names (voice input), or that it would be
    /// asked back.
    #[command(long_about = LISTEN_HELP)]
    Listen(ListenArgs),
    /// Say a text aloud (to try the speech output), or write it to a WAV file.
    #[command(long_about = SAY_HELP)]
    Say(SayArgs),
    /// A talking chess clock for any board: full-screen, or lines for a screen reader.
    #[command(long_about = CLOCK_HELP)]
    Clock(ClockArgs),
    /// List the voices of speech-dispatcher and espeak-ng.
    Voices(VoicesArgs),
    /// Electronic and sensor boards: find a board's port, watch what hector reads from it.
    #[command(subcommand, long_about = BOARD_HELP)]
    Board(BoardCommand),
    /// List the recorded games, one sentence per game.
    #[command(long_about = GAMES_HELP)]
    Games(GamesArgs),
    /// Judge a game with the engine: evaluations, mistakes and blunders with the better move.
    #[command(long_about = ANALYSE_HELP)]
    Analyse(AnalyseArgs),
    /// Learn from your mistakes: the positions of your games where you erred, asked again.
    #[command(long_about = TRAIN_HELP)]
    Train(TrainArgs),
    /// Puzzles from the lichess puzzle database, near your rating, of a theme if you like.
    #[command(long_about = PUZZLE_HELP)]
    Puzzle(PuzzleArgs),
    /// Write a recorded game as PGN or as a scoresheet.
    #[command(long_about = EXPORT_HELP)]
    Export(ExportArgs),
    /// Simulate a DGT or peg board on a pseudo-terminal, driven by commands (no hardware needed).
    #[command(name = "simulate-board", long_about = SIMULATE_HELP)]
    SimulateBoard(SimulateArgs),
    /// Write the manual pages (DIR/man) and the bash, zsh and fish completions
    /// (DIR/completions), for the Debian package (scripts/package).
    #[command(name = "package-files", hide = true)]
    PackageFiles(PackageFilesArgs),
    /// Sets the recogniser up with a speech model the player named and exits: 0 when it
    /// works, 2 when it is refused in words. hector runs it before it loads such a model
    /// itself, since PocketSphinx ends or crashes the process on some damaged models.
    #[command(name = "voice-model-check", hide = true)]
    VoiceModelCheck(VoiceModelCheckArgs),
}

/// Which speech output to use (`--speech`, `--backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BackendArg {
    /// The first that works: speech-dispatcher, then espeak-ng, then print. On Windows: NVDA
    /// when it runs, else JAWS when it runs, else the system's voices (tts, then sapi), else
    /// print.
    Auto,
    /// speech-dispatcher (Linux's speech service).
    SpeechDispatcher,
    /// The espeak-ng program, started for every phrase.
    EspeakNg,
    /// The system speech of the tts crate (speech-dispatcher, WinRT or Tolk, AVFoundation).
    Tts,
    /// Plain lines on standard output, for screen readers and braille displays.
    Print,
    /// NVDA, speech and braille (Windows; nvdaControllerClient64.dll beside hector.exe, or
    /// NVDA 2024.1's nvdaControllerClient.dll, which tells hector the end of NVDA's words;
    /// with the older one sounds wait by their length at [speech] screen_reader_rate). NVDA
    /// speaks at the rate set in NVDA: faster and slower change nothing.
    Nvda,
    /// JAWS (Windows). JAWS speaks at the rate set in JAWS: faster and slower change nothing;
    /// sounds wait for its words by their length at [speech] screen_reader_rate.
    Jaws,
    /// SAPI 5, Windows' classic voices.
    Sapi,
}

impl From<BackendArg> for BackendChoice {
    fn from(b: BackendArg) -> BackendChoice {
        match b {
            BackendArg::Auto => BackendChoice::Auto,
            BackendArg::SpeechDispatcher => BackendChoice::SpeechDispatcher,
            BackendArg::EspeakNg => BackendChoice::EspeakNg,
            BackendArg::Tts => BackendChoice::Tts,
            BackendArg::Print => BackendChoice::Print,
            BackendArg::Nvda => BackendChoice::Nvda,
            BackendArg::Jaws => BackendChoice::Jaws,
            BackendArg::Sapi => BackendChoice::Sapi,
        }
    }
}

/// The protocol a board speaks: one of the core's protocols, named and described by its
/// codec, so that a new protocol needs nothing here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProtocolArg(Protocol);

/// Every protocol as a value of the option, in the core's order.
const PROTOCOL_ARGS: [ProtocolArg; Protocol::ALL.len()] = {
    let mut args = [ProtocolArg(Protocol::ALL[0]); Protocol::ALL.len()];
    let mut i = 0;
    while i < args.len() {
        args[i] = ProtocolArg(Protocol::ALL[i]);
        i += 1;
    }
    args
};

impl ValueEnum for ProtocolArg {
    fn value_variants<'a>() -> &'a [Self] {
        &PROTOCOL_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let codec = self.0.codec();
        let help = format!("{} ({})", codec.summary(), codec.serial());
        Some(clap::builder::PossibleValue::new(codec.name()).help(help))
    }
}

impl From<ProtocolArg> for Protocol {
    fn from(p: ProtocolArg) -> Self {
        p.0
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum BoardCommand {
    /// List the serial ports, with what is known of each (USB ids, maker, product, serial number).
    #[command(long_about = BOARD_LIST_HELP)]
    List,
    /// Print every event of a board and every move hector recognises, one line each.
    #[command(long_about = BOARD_MONITOR_HELP)]
    Monitor(MonitorArgs),
}

/// The options of `hector play`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct PlayArgs {
    /// The colour you play.
    #[arg(long, value_enum, default_value = "white")]
    pub(crate) color: ColorArg,
    /// Who plays the other side: auto (the computer when Stockfish is installed, else a
    /// second player at the keyboard), engine, engine:PATH (any UCI engine), keyboard, or
    /// board:PORT (the sighted player's e-board; see --opponent-protocol).
    #[arg(long, default_value = "auto", value_name = "WHO")]
    pub(crate) opponent: OpponentArg,
    /// The protocol of the opponent's e-board.
    #[arg(long, value_enum, default_value = "dgt")]
    pub(crate) opponent_protocol: ProtocolArg,
    /// The computer's strength, 1 (a beginner) to 8 (full strength); 1 by default, 8 with
    /// --fen and --from-puzzle.
    #[arg(long, value_parser = |s: &str| super::usage::in_range::<u8>(s, 1, 8))]
    pub(crate) level: Option<u8>,
    /// No bewertung (eval) and no tipp (hint) from the computer in this game.
    #[arg(long)]
    pub(crate) no_hints: bool,
    /// A clock, as players type it: 3+2 is 3 minutes plus 2 seconds per move; PGN's seconds
    /// where they cannot be minutes (40/5400+30:1800+30, 300d5, a base over 180); or a preset
    /// (classical, olympiad, rapid, blitz). No clock when left out.
    #[arg(long, value_name = "SPEC")]
    pub(crate) tc: Option<String>,
    /// Automatic time announcements (every 15 minutes, at 10, 5, 2 and 1 minutes and 30 s,
    /// the last ten seconds). Off by default, as Appendix D9d wants: times on request only.
    #[arg(long)]
    pub(crate) announce: bool,
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum)]
    pub(crate) form: Option<FormArg>,
    /// Plain lines and a prompt instead of the full screen: for screen readers and braille
    /// displays. Chosen by itself when the output is not a terminal.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    /// Play Chess960: start position N (0 to 959; 518 is the standard position), or a random
    /// one when N is left out.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "random")]
    pub(crate) chess960: Option<Chess960Arg>,
    /// Continue the first game of a PGN file from its last position.
    #[arg(long, value_name = "FILE.pgn", conflicts_with = "fen")]
    pub(crate) from: Option<PathBuf>,
    /// Start from this position (FEN); the computer plays at full strength and hector says
    /// whether to win or to hold it.
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Start from the position of this puzzle (hector puzzle names them), playing the side
    /// that solves it, against the computer at full strength.
    #[arg(long, value_name = "ID", conflicts_with_all = ["fen", "from", "chess960"])]
    pub(crate) from_puzzle: Option<String>,
    /// Your board on a serial port (a peg board, or an e-board): moves are read from it
    /// (Appendix D2.2-D2.3) and the opponent's moves must be made on it.
    #[arg(long, value_name = "PORT", requires = "protocol")]
    pub(crate) board: Option<PathBuf>,
    /// The protocol of your board.
    #[arg(long, value_enum)]
    pub(crate) protocol: Option<ProtocolArg>,
    /// How pieces are drawn: letters (K D T L S B in German) or figurines.
    #[arg(long, value_enum, default_value = "letters")]
    pub(crate) pieces: PiecesArg,
    /// Colour the squares and pieces too (everything stays readable without colour).
    #[arg(long)]
    pub(crate) colors: bool,
    /// Start a new game without asking about an unfinished one.
    #[arg(long)]
    pub(crate) new: bool,
    /// Taking moves back (zurücknehmen, takeback) is refused in this game.
    #[arg(long)]
    pub(crate) no_takeback: bool,
    /// Every capture names the piece taken: "Springer schlägt Bauer auf Felix fünf" (also
    /// say_captured in the configuration's [play] section).
    #[arg(long)]
    pub(crate) say_captured: bool,
    /// Say the name of each newly reached named opening after the move (the lichess opening
    /// table). Also `[play] openings = true` in the configuration file.
    #[arg(long)]
    pub(crate) openings: bool,
    #[command(flatten)]
    pub(crate) wording: WordingArgs,
    #[command(flatten)]
    pub(crate) voice: VoiceArg,
    #[command(flatten)]
    pub(crate) explorer: ExplorerArg,
}

/// How much board readings and move announcements say; over the configuration file's
/// `[words]` table.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct WordingArgs {
    /// Board readings name the square first: "Eva vier weißer Bauer".
    #[arg(long, conflicts_with = "piece_first")]
    pub(crate) square_first: bool,
    /// Board readings name the piece first: "weißer Bauer Eva vier".
    #[arg(long)]
    pub(crate) piece_first: bool,
    /// Leave out "weiß" and "schwarz" where the sentence tells the colour anyway (the pieces a
    /// side attacks, a square's attackers and defenders).
    #[arg(long, visible_alias = "no-color-words")]
    pub(crate) no_colour_words: bool,
    /// Do not say "Schach" after a move that gives check (mate is still said).
    #[arg(long)]
    pub(crate) no_check_words: bool,
}

impl WordingArgs {
    /// The configuration file's wording with these options applied over it.
    pub(crate) fn apply(
        &self,
        mut w: crate::core::notation::Wording,
    ) -> crate::core::notation::Wording {
        use crate::core::notation::Order;
        if self.square_first {
            w.order = Order::SquareFirst;
        }
        if self.piece_first {
            w.order = Order::PieceFirst;
        }
        if self.no_colour_words {
            w.colour_words = false;
        }
        if self.no_check_words {
            w.check_words = false;
        }
        w
    }
}

/// The options of `hector assist`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct AssistArgs {
    /// The colour of the blind player.
    #[arg(long, value_enum, default_value = "white")]
    pub(crate) blind: ColorArg,
    /// The blind player's board on a serial port (a tactile peg board).
    #[arg(long, value_name = "PORT")]
    pub(crate) peg_board: Option<PathBuf>,
    /// The protocol of the blind player's board.
    #[arg(long, value_enum, default_value = "peg")]
    pub(crate) peg_protocol: ProtocolArg,
    /// The sighted player's electronic board on a serial port; without it the sighted
    /// player's moves are typed.
    #[arg(long, value_name = "PORT")]
    pub(crate) sighted_board: Option<PathBuf>,
    /// The protocol of the sighted player's board.
    #[arg(long, value_enum, default_value = "dgt")]
    pub(crate) sighted_protocol: ProtocolArg,
    /// Whose assistant hector is: blind (Appendix D9, the default) or sighted (D10: it
    /// announces and tells what to make on which board, nothing else; no clock).
    #[arg(
        long = "for",
        value_enum,
        default_value = "blind",
        value_name = "PLAYER"
    )]
    pub(crate) duty: DutyArg,
    /// The clock, as players type it: 90+30 is 90 minutes plus 30 seconds per move; PGN's
    /// seconds where they cannot be minutes (40/5400+30:1800+30, 300d5, a base over 180); or a
    /// preset (classical, olympiad, rapid, blitz). No clock when left out.
    #[arg(long, value_name = "SPEC")]
    pub(crate) tc: Option<String>,
    /// The players' names, for the record and the envelope.
    #[arg(long, value_name = "NAME")]
    pub(crate) white: Option<String>,
    #[arg(long, value_name = "NAME")]
    pub(crate) black: Option<String>,
    /// The event, for the record.
    #[arg(long, value_name = "TEXT")]
    pub(crate) event: Option<String>,
    /// Start from this position (FEN).
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Where the envelope of an adjournment is written (beside the journal by default).
    #[arg(long, value_name = "FILE")]
    pub(crate) envelope: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum)]
    pub(crate) form: Option<FormArg>,
    /// Plain lines and a prompt instead of the full screen.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    /// How pieces are drawn: letters or figurines.
    #[arg(long, value_enum, default_value = "letters")]
    pub(crate) pieces: PiecesArg,
    /// Colour the squares and pieces too (everything stays readable without colour).
    #[arg(long)]
    pub(crate) colors: bool,
    #[command(flatten)]
    pub(crate) voice: VoiceArg,
}

/// Whose assistant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DutyArg {
    Blind,
    Sighted,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
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

/// Speech options shared by the modes that speak; each overrides the configuration file.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SpeechArgs {
    #[command(flatten)]
    pub(crate) speech: SpeechArg,
    #[command(flatten)]
    pub(crate) lang: LangArg,
    /// A voice of the speech engine (see hector voices); chosen by language when left out.
    #[arg(long, value_name = "NAME")]
    pub(crate) voice: Option<String>,
    /// Speaking rate from -100 (slowest) to 100 (fastest); 0 is normal.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = |s: &str| super::usage::in_range::<i32>(s, -100, 100))]
    pub(crate) rate: Option<i32>,
    /// Volume from 0 to 100.
    #[arg(long, value_name = "N", value_parser = |s: &str| super::usage::in_range::<i32>(s, 0, 100))]
    pub(crate) volume: Option<i32>,
}

impl SpeechArgs {
    /// The configuration file's speech settings with these options applied over them.
    pub(crate) fn apply(
        &self,
        mut s: crate::core::settings::SpeechSettings,
    ) -> crate::core::settings::SpeechSettings {
        if let Some(b) = self.speech.speech {
            s.backend = b.into();
        }
        if let Some(l) = &self.lang.lang {
            s.language = Some(l.clone());
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

/// How `check` and `transcript` go through a PGN input.
#[derive(clap::Args, Debug)]
pub(crate) struct PgnRunArgs {
    /// Games judged at the same time, on as many threads (default: one per core). The output
    /// is the same, in the same order, for any number.
    #[arg(long, value_name = "N", value_parser = |s: &str| super::usage::in_range::<u16>(s, 1, 256))]
    jobs: Option<u16>,
    /// No progress line on standard error (it appears only on a terminal, after a second).
    #[arg(long)]
    pub(crate) quiet: bool,
}

impl PgnRunArgs {
    pub(crate) fn jobs(&self) -> usize {
        self.jobs
            .map_or_else(crate::app::services::pgn_jobs::default_jobs, usize::from)
    }
}

/// The options of `hector clock`.
#[derive(Debug, clap::Args)]
pub(crate) struct ClockArgs {
    #[command(flatten)]
    pub(crate) braille: BrailleArg,
    /// Time control as players type it: 3+2 is 3 minutes plus 2 seconds per move; PGN's
    /// seconds where they cannot be minutes (40/5400+30:1800+30, 300d5, a base over 180);
    /// or a preset: classical, olympiad, rapid, blitz.
    #[arg(long, value_name = "SPEC", default_value = "classical")]
    pub(crate) tc: String,
    /// Which lever is White's: left (default) or right.
    #[arg(long, value_enum, default_value = "left")]
    pub(crate) white: SideArg,
    /// Plain lines instead of the full screen: for screen readers and braille displays.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    /// Tournament mode (Appendix D9d): no automatic time announcements, only on request.
    #[arg(long)]
    pub(crate) tournament: bool,
    /// Announce one's own time every this many minutes (5 and 15 match D5a's marks).
    #[arg(long, value_name = "MINUTES", value_parser = |s: &str| super::usage::in_range::<u32>(s, 1, 600).map(u64::from))]
    pub(crate) every: Option<u64>,
    /// Warnings at these remaining times, e.g. 10m,5m,2m,1m,30s,10s.
    #[arg(long, value_name = "LIST")]
    pub(crate) warn: Option<Marks>,
    /// No countdown in the last ten seconds.
    #[arg(long)]
    pub(crate) no_countdown: bool,
    #[command(flatten)]
    pub(crate) speech: SpeechArgs,
    /// The low-clock sound (--low-clock, --sound, --sound-volume).
    #[command(flatten)]
    pub(crate) sound: SoundArgs,
}

/// The recogniser's model and how sure it must be: one definition for `listen` and the
/// modes that listen.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct VoiceModelArgs {
    /// A PocketSphinx acoustic model the player installed (the folder with mdef, or one
    /// above it), with its pronunciation dictionary (a .dic or .dict file) beside it; without
    /// it, Debian's US English model (package pocketsphinx-en-us).
    #[arg(long, value_name = "DIR")]
    pub(crate) voice_model: Option<PathBuf>,
    /// Ask back every move heard, however sure ("Springer Felix drei?"), and play it only
    /// on "ja".
    #[arg(long)]
    pub(crate) voice_always_ask: bool,
}

/// `--voice`: one definition for every mode that listens (play, resume, online, assist).
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct VoiceArg {
    /// Listen for moves and commands said aloud in the Appendix D words (docs/VOICE.md): on
    /// the full screen Ctrl+V starts listening, in line mode hector listens after each prompt.
    #[arg(long)]
    pub(crate) voice: bool,
    #[command(flatten)]
    pub(crate) model: VoiceModelArgs,
}

/// `--lang`: one definition for every mode. Global, so that a mode with subcommands (online)
/// takes it after the subcommand too.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct LangArg {
    // The help names the languages of the tables in assets/lang.
    #[arg(long, global = true, value_name = "CODE", help = lang_help())]
    pub(crate) lang: Option<String>,
}

/// `--words`: one definition for every mode that announces moves. Global, so that online
/// takes it after its subcommand too.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct WordsArg {
    /// The words of moves, squares, pieces and castling: fide (the FIDE Laws' Appendix D2.1:
    /// Anna … Hector, eins … acht, König, Dame, Turm, Läufer, Springer, Bauer, Kurze and Lange
    /// Rochade, in the sentences of the --lang language, capture and check in its own words)
    /// or language (the --lang language's own words). Without it, the configuration file's
    /// [announcement], else fide in assist and arbiter (tournaments) and language elsewhere.
    /// Typed and spoken moves are understood in both.
    #[arg(long, global = true, value_enum, value_name = "WORDS")]
    pub(crate) words: Option<WordsChoice>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum WordsChoice {
    /// The FIDE words of Appendix D2.1 in any language.
    Fide,
    /// The language's own words.
    Language,
}

impl From<WordsChoice> for crate::core::notation::WordSet {
    fn from(c: WordsChoice) -> Self {
        match c {
            WordsChoice::Fide => Self::Fide,
            WordsChoice::Language => Self::Language,
        }
    }
}

/// `--braille`: one definition for every interactive mode. Global, so that online takes it
/// after its subcommand too.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct BrailleArg {
    /// The braille display through BrlAPI (BRLTTY): auto (when a server answers), on (say
    /// when none does), off; without it, the configuration file's [braille] display.
    #[arg(long, global = true, value_enum, value_name = "WHEN")]
    pub(crate) braille: Option<BrailleChoiceArg>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum BrailleChoiceArg {
    /// When a BrlAPI server answers; nothing is said when none does.
    Auto,
    /// Always; a missing display is said once.
    On,
    /// Never.
    Off,
}

impl From<BrailleChoiceArg> for crate::core::settings::BrailleChoice {
    fn from(c: BrailleChoiceArg) -> Self {
        match c {
            BrailleChoiceArg::Auto => Self::Auto,
            BrailleChoiceArg::On => Self::On,
            BrailleChoiceArg::Off => Self::Off,
        }
    }
}

impl Command {
    /// The interactive modes' `--braille`.
    pub(crate) fn braille(&self) -> Option<BrailleChoiceArg> {
        let player = match self {
            Command::Play(a) => &a.player,
            Command::Online(a) => &a.player,
            Command::Watch(a) => &a.player,
            Command::Study(a) => &a.player,
            Command::Assist(a) => &a.player,
            Command::Arbiter(a) => &a.player,
            Command::Analyse(a) => &a.player,
            Command::Train(a) => &a.front.player,
            Command::Puzzle(a) => &a.front.player,
            Command::Clock(a) => return a.braille.braille,
            Command::Resume(a) => return a.braille.braille,
            _ => return None,
        };
        player.braille.braille
    }
}

/// `hector export --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormatArg {
    Pgn,
    Text,
    /// Braille ASCII pages for an embosser.
    Brf,
}

/// The braille page of `--format brf`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct PaperArgs {
    /// Cells per braille line (20 to 100).
    #[arg(long, value_name = "N", default_value_t = 40,
          value_parser = clap::value_parser!(u16).range(20..=100))]
    pub(crate) cells: u16,
    /// Lines per braille page, the page number's included (5 to 100).
    #[arg(long, value_name = "N", default_value_t = 25,
          value_parser = clap::value_parser!(u16).range(5..=100))]
    pub(crate) lines: u16,
    /// The literary braille of headers and result, 0 to 2: in German Basisschrift,
    /// Vollschrift, Kurzschrift (the default); in English (UEB) 0 and 1 uncontracted, 2
    /// contracted (the default); docs/BRAILLE.md.
    #[arg(long, value_name = "GRADE", value_parser = clap::value_parser!(u8).range(0..=2))]
    pub(crate) grade: Option<u8>,
}

impl From<PaperArgs> for crate::app::services::paper::Paper {
    fn from(p: PaperArgs) -> Self {
        let size = crate::core::braille::PageSize::new(usize::from(p.cells), usize::from(p.lines))
            .unwrap_or_default();
        Self {
            size,
            grade: p.grade,
        }
    }
}

/// `--lang`'s help: the codes of every embedded language table.
fn lang_help() -> String {
    format!(
        "Language of the words: {} (de is the FIDE wording); without it, the configuration \
         file's, else the system's (LC_ALL, LC_MESSAGES, LANG) when hector has it, else German",
        crate::core::notation::codes().join(", ")
    )
}

/// `--pieces`: how pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PiecesArg {
    /// The language's letters: K D T L S B in German, K Q R B N P in English.
    Letters,
    /// Chess figurines (♔ ♕ ♖ ♗ ♘ ♙).
    Figurines,
}

impl From<PiecesArg> for crate::app::services::ui::view::Pieces {
    fn from(p: PiecesArg) -> Self {
        match p {
            PiecesArg::Letters => Self::Letters,
            PiecesArg::Figurines => Self::Figurines,
        }
    }
}

/// `hector clock --white`: which lever is White's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SideArg {
    Left,
    Right,
}

impl From<SideArg> for crate::app::modes::clock::Side {
    fn from(s: SideArg) -> Self {
        match s {
            SideArg::Left => Self::Left,
            SideArg::Right => Self::Right,
        }
    }
}

/// `hector transcript --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// "1. Eva vier; Eva fünf": lines a person or a screen reader reads.
    Text,
    /// One line per ply: game, ply, SAN, UCI, spoken phrase, separated by tabs.
    Tsv,
    /// Braille ASCII pages for an embosser (docs/BRAILLE.md).
    Brf,
}

impl FormatArg {
    /// The mode's format, with the braille page of `--cells`, `--lines` and `--grade`.
    pub(crate) fn with_paper(self, paper: PaperArgs) -> crate::app::modes::transcript::Format {
        use crate::app::modes::transcript::Format;
        match self {
            FormatArg::Text => Format::Text,
            FormatArg::Tsv => Format::Tsv,
            FormatArg::Brf => Format::Brf(paper.into()),
        }
    }
}

/// The options of `hector analyse`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("spoken").args(["speak", "walk"]).multiple(true))]
#[command(mut_arg("speech", |a| a.requires("spoken")
    .help("The speech output for --speak or --walk, as in every mode (default: the \
        configuration file's, else auto); --backend is the old name")))]
pub(crate) struct AnalyseArgs {
    /// The game: its number in hector games, a journal file, or a PGN file.
    #[arg(value_name = "GAME", required_unless_present = "all")]
    pub(crate) game: Option<String>,
    /// Every recorded game not yet judged, one after another, each analysis kept beside its
    /// game (stopped, it goes on where it stopped).
    #[arg(long, conflicts_with_all = ["game", "pgn_game", "errors", "pgn", "walk", "speak"])]
    pub(crate) all: bool,
    /// Which game of a PGN file (1 for the first, the default); GAME is then read as PGN.
    #[arg(long = "game", id = "pgn_game", value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) pgn_game: Option<u64>,
    /// Only the turning points: the mistakes and blunders, each with the better move.
    #[arg(long)]
    pub(crate) errors: bool,
    /// Write the game as PGN with the evaluations as [%eval] comments and the better moves
    /// as variations, instead of sentences.
    #[arg(long, conflicts_with = "errors")]
    pub(crate) pgn: bool,
    /// Write the PGN to this file instead of standard output (as hector export --output).
    #[arg(long, short, value_name = "FILE", requires = "pgn")]
    pub(crate) output: Option<PathBuf>,
    /// Search depth per position, in half-moves (default 14, at most 1 second a position).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub(crate) depth: Option<u32>,
    /// Time per position in milliseconds: the limit with --depth, else the only limit.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub(crate) movetime: Option<u64>,
    /// The engine: stockfish (default), a name looked up like a command, or a path.
    #[arg(long, value_name = "PATH")]
    pub(crate) engine: Option<PathBuf>,
    /// How many engines (one thread each) judge positions side by side: one per core by
    /// default, at most 8.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=8))]
    pub(crate) engines: Option<u64>,
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum, default_value = "short")]
    pub(crate) form: FormArg,
    /// Also say every line (they are printed too).
    #[arg(long, conflicts_with = "pgn")]
    pub(crate) speak: bool,
    /// Walk through the game with its analysis, as a review in play: vor and vorher step,
    /// fehler goes to the next mistake, besser says and shows the better line, zurück
    /// leaves it, bewertung says how the position stands; every question of play answers
    /// for the position looked at.
    #[arg(long, conflicts_with_all = ["pgn", "errors", "speak"])]
    pub(crate) walk: bool,
    /// With --walk: lines for a screen reader instead of the full screen.
    #[arg(long, requires = "walk")]
    pub(crate) screen_reader: bool,
    #[command(flatten)]
    pub(crate) explorer: ExplorerArg,
}

/// How a player is asked and answers in `hector train` and `hector puzzle`: language,
/// speech, screen, board.
#[derive(Debug, clap::Args)]
pub(crate) struct PracticeArgs {
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum, default_value = "short")]
    pub(crate) form: FormArg,
    /// Plain lines and a prompt instead of the full screen: for screen readers and braille
    /// displays. Chosen by itself when the output is not a terminal.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    /// Your board on a serial port (a peg board, or an e-board): answers are read from it.
    #[arg(long, value_name = "PORT", requires = "protocol")]
    pub(crate) board: Option<PathBuf>,
    /// The protocol of your board.
    #[arg(long, value_enum)]
    pub(crate) protocol: Option<ProtocolArg>,
    /// How pieces are drawn: letters (K D T L S B in German) or figurines.
    #[arg(long, value_enum, default_value = "letters")]
    pub(crate) pieces: PiecesArg,
    /// Colour the squares and pieces too (everything stays readable without colour).
    #[arg(long)]
    pub(crate) colors: bool,
    #[command(flatten)]
    pub(crate) wording: WordingArgs,
}

/// The options of `hector train`.
#[derive(Debug, clap::Args)]
pub(crate) struct TrainArgs {
    #[command(flatten)]
    pub(crate) front: PracticeArgs,
    /// Search depth per position when games are judged and answers checked (default 14).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub(crate) depth: Option<u32>,
    /// Time per position in milliseconds: the limit with --depth, else the only limit.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub(crate) movetime: Option<u64>,
    /// The engine: stockfish (default), a name looked up like a command, or a path.
    #[arg(long, value_name = "PATH")]
    pub(crate) engine: Option<PathBuf>,
    /// How many engines judge positions side by side (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=8))]
    pub(crate) engines: Option<u64>,
}

/// The options of `hector puzzle`.
#[derive(Debug, clap::Args)]
pub(crate) struct PuzzleArgs {
    /// Only puzzles of this theme: its name in any language (Gabel, fork, fourchette) or
    /// lichess's key (mateIn2).
    #[arg(long, value_name = "THEME")]
    pub(crate) theme: Option<String>,
    /// Choose puzzles near this rating instead of yours.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(100..=3500))]
    pub(crate) rating: Option<u32>,
    /// lichess's puzzle of the day (no login needed). The result is recorded on lichess
    /// when you are logged in (hector online login), else kept here only.
    #[arg(long, conflicts_with_all = ["online", "rating"])]
    pub(crate) daily: bool,
    /// A new puzzle from lichess, of --theme if given; recorded on lichess like --daily.
    /// Without a connection hector's own puzzles follow.
    #[arg(long, conflicts_with = "rating")]
    pub(crate) online: bool,
    /// The server for --daily and --online (lichess, or a server with the same API).
    #[arg(long, default_value = "https://lichess.org", value_name = "URL")]
    pub(crate) server: String,
    #[command(flatten)]
    pub(crate) front: PracticeArgs,
}

/// `hector online`'s command line.
#[derive(Debug, clap::Args)]
pub(crate) struct OnlineArgs {
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    #[command(subcommand)]
    pub(crate) command: OnlineCommand,
    /// The server (lichess, or a server with the same API).
    #[arg(
        long,
        global = true,
        default_value = "https://lichess.org",
        value_name = "URL"
    )]
    pub(crate) server: String,
}

#[derive(Debug, Subcommand)]
pub(crate) enum OnlineCommand {
    /// Store your lichess token (created on lichess with the scope board:play).
    Login,
    /// Delete the stored token.
    Logout,
    /// Play a game on lichess: a public seek, a challenge, or lichess's computer; or continue
    /// a game in progress (--game).
    #[command(after_long_help = ONLINE_PLAY_HELP)]
    Play(Box<OnlinePlayArgs>),
    /// List your games in progress on lichess.
    Games,
}

/// `hector online play --color`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum OnlineColorArg {
    White,
    Black,
    Random,
}

impl From<OnlineColorArg> for crate::app::modes::online::ColorChoice {
    fn from(c: OnlineColorArg) -> Self {
        match c {
            OnlineColorArg::White => Self::White,
            OnlineColorArg::Black => Self::Black,
            OnlineColorArg::Random => Self::Random,
        }
    }
}

/// `hector online play --variant`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum VariantArg {
    Standard,
    Chess960,
}

impl From<VariantArg> for crate::app::modes::online::VariantChoice {
    fn from(v: VariantArg) -> Self {
        match v {
            VariantArg::Standard => Self::Standard,
            VariantArg::Chess960 => Self::Chess960,
        }
    }
}

/// The options of `hector online play`.
#[derive(Debug, clap::Args)]
pub(crate) struct OnlinePlayArgs {
    /// A public seek with this time control, as everywhere: minutes plus seconds per move,
    /// e.g. 15+10.
    /// With --days no time is given: `--seek --days 3`.
    #[arg(long, value_name = "MIN+SEC", num_args = 0..=1, default_missing_value = "", conflicts_with_all = ["challenge", "ai", "game"])]
    pub(crate) seek: Option<String>,
    /// Challenge this lichess user.
    #[arg(long, value_name = "USER", conflicts_with_all = ["ai", "game"])]
    pub(crate) challenge: Option<String>,
    /// Play lichess's computer at this level (1-8).
    #[arg(long, value_name = "LEVEL", value_parser = |s: &str| super::usage::in_range::<u8>(s, 1, 8), conflicts_with = "game")]
    pub(crate) ai: Option<u8>,
    /// Continue a game in progress: its number in hector online games, or its lichess id.
    #[arg(long, value_name = "GAME")]
    pub(crate) game: Option<String>,
    /// The time control of a challenge or a game against the computer, minutes plus seconds
    /// per move as everywhere (default 15+10).
    #[arg(long, value_name = "MIN+SEC")]
    pub(crate) time: Option<String>,
    #[arg(long, value_enum, default_value = "random")]
    pub(crate) color: OnlineColorArg,
    /// A rated game.
    #[arg(long)]
    pub(crate) rated: bool,
    #[arg(long, value_enum, default_value = "standard")]
    pub(crate) variant: VariantArg,
    /// Your board on a serial port: your moves are read from it.
    #[arg(long, value_name = "PORT", requires = "protocol")]
    pub(crate) board: Option<PathBuf>,
    #[arg(long, value_enum)]
    pub(crate) protocol: Option<ProtocolArg>,
    /// Plain lines instead of the full screen.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    /// Your own time said without asking, from the server's clock: every 15 minutes, at 10,
    /// 5, 2 and 1 minutes and 30 s left, and each of the last ten seconds. Off by default
    /// (Appendix D9d: times on request, with `uhr`).
    #[arg(long)]
    pub(crate) announce: bool,
    #[command(flatten)]
    pub(crate) voice: VoiceArg,
    /// A correspondence (daily) game with --seek, --challenge or --ai: days per move (1, 2, 3,
    /// 5, 7, 10 or 14). No clock: the time left is said in days and hours; `ende` after your
    /// move leaves the game without resigning, and --game comes back to it.
    #[arg(long, value_name = "DAYS", value_parser = days_per_move, conflicts_with = "game")]
    pub(crate) days: Option<u32>,
    /// With --seek: only opponents rated within this range, e.g. 1500-1800.
    #[arg(long, value_name = "LOW-HIGH", requires = "seek")]
    pub(crate) rating_range: Option<String>,
}

/// `--days`: the days per move lichess allows.
fn days_per_move(text: &str) -> Result<u32, String> {
    let allowed = crate::core::online::daily::DAYS;
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|d| allowed.contains(d))
        .ok_or_else(|| "1, 2, 3, 5, 7, 10 or 14".to_string())
}

/// `--opponent`: who plays the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OpponentArg {
    Auto,
    Engine(Option<PathBuf>),
    Keyboard,
    Board(PathBuf),
}

impl std::str::FromStr for OpponentArg {
    type Err = super::usage::ValueProblem;

    fn from_str(text: &str) -> Result<OpponentArg, Self::Err> {
        match text {
            "auto" => Ok(OpponentArg::Auto),
            "engine" => Ok(OpponentArg::Engine(None)),
            "keyboard" => Ok(OpponentArg::Keyboard),
            other => match other.split_once(':') {
                Some(("engine", path)) if !path.is_empty() => {
                    Ok(OpponentArg::Engine(Some(PathBuf::from(path))))
                }
                Some(("board", port)) if !port.is_empty() => {
                    Ok(OpponentArg::Board(PathBuf::from(port)))
                }
                _ => Err(super::usage::ValueProblem::Opponent),
            },
        }
    }
}

/// `--chess960`: a start position by its number, or a random one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chess960Arg {
    Random,
    Number(u16),
}

impl std::str::FromStr for Chess960Arg {
    type Err = super::usage::ValueProblem;

    fn from_str(text: &str) -> Result<Chess960Arg, Self::Err> {
        if text == "random" {
            return Ok(Chess960Arg::Random);
        }
        match text.parse::<u16>() {
            Ok(n) if n < crate::core::variant::CHESS960_POSITIONS => Ok(Chess960Arg::Number(n)),
            _ => Err(super::usage::ValueProblem::Chess960),
        }
    }
}

/// `--warn`: remaining times such as `10m,5m,30s`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Marks(pub Vec<std::time::Duration>);

impl std::str::FromStr for Marks {
    type Err = super::usage::ValueProblem;

    fn from_str(text: &str) -> Result<Marks, Self::Err> {
        parse_marks(text).map(Marks)
    }
}

/// Reads a list of remaining times such as "10m,5m,30s".
fn parse_marks(text: &str) -> Result<Vec<std::time::Duration>, super::usage::ValueProblem> {
    use super::usage::ValueProblem;
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (digits, unit) =
                t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
            let n: u64 = digits
                .parse()
                .map_err(|_| ValueProblem::NotATime(t.to_string()))?;
            match unit {
                "m" | "min" => Ok(std::time::Duration::from_secs(n.saturating_mul(60))),
                "s" | "" => Ok(std::time::Duration::from_secs(n)),
                _ => Err(ValueProblem::TimeUnit(t.to_string())),
            }
        })
        .collect()
}

/// `hector watch`'s command line.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["broadcast", "game", "tv"])))]
pub(crate) struct WatchArgs {
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// A broadcast round: its id (the last part of the round's address on lichess).
    #[arg(long, value_name = "ROUND", value_parser = lichess_id)]
    pub(crate) broadcast: Option<String>,
    /// One game being played: its lichess id.
    #[arg(long, value_name = "GAME", value_parser = lichess_id)]
    pub(crate) game: Option<String>,
    /// lichess TV: its best game, or a channel's (blitz, rapid, classical, chess960…).
    #[arg(long, value_name = "CHANNEL", num_args = 0..=1, default_missing_value = "", value_parser = tv_channel)]
    pub(crate) tv: Option<String>,
    /// The board of the round to follow: its number, or part of a player's name (default 1).
    #[arg(long, value_name = "N|NAME", requires = "broadcast")]
    pub(crate) board: Option<String>,
    /// Say the moves of every board of the round, the others' with their board's name.
    #[arg(long, requires = "broadcast")]
    pub(crate) all_boards: bool,
    /// The server (lichess, or a server with the same API).
    #[arg(long, default_value = "https://lichess.org", value_name = "URL")]
    pub(crate) server: String,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum, default_value = "short")]
    pub(crate) form: FormArg,
    /// Plain lines instead of the full screen.
    #[arg(long)]
    pub(crate) screen_reader: bool,
}

/// The opening explorer's address, for the modes that ask it (play, analyse --walk, study).
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct ExplorerArg {
    /// The opening explorer's address (lichess's by default, or a server with the same
    /// API); also `[explorer] server` in the configuration file.
    #[arg(long, value_name = "URL")]
    pub(crate) explorer: Option<String>,
}

/// `hector study`'s command line.
#[derive(Debug, clap::Args)]
pub struct StudyArgs {
    /// The PGN file (compressed with zstd, gzip or bzip2 or not; any size: it is read as it
    /// streams, never changed).
    #[arg(value_name = "FILE.pgn")]
    pub file: PathBuf,
    /// The game opened first: its number in the file (1 for the first).
    #[arg(long, value_name = "N", default_value = "1",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub game: u64,
    #[command(flatten)]
    pub player: PlayerArgs,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum, default_value = "short")]
    pub form: FormArg,
    /// Plain lines instead of the full screen.
    #[arg(long)]
    pub screen_reader: bool,
    #[command(flatten)]
    pub wording: WordingArgs,
    #[command(flatten)]
    pub(crate) explorer: ExplorerArg,
}

/// A lichess id (a round's, a game's): letters and digits only, so that it names one path on
/// the server and nothing else.
pub(crate) fn lichess_id(text: &str) -> Result<String, String> {
    let text = text.trim();
    if (1..=64).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(text.to_string())
    } else {
        Err("letters and digits, as in the address on lichess".to_string())
    }
}

/// A TV channel's name (camel case), or none for the best game.
fn tv_channel(text: &str) -> Result<String, String> {
    if text.is_empty() {
        return Ok(String::new());
    }
    lichess_id(text)
}

/// The spoken player's options: the language, the words of the announcements, the speech
/// output and the braille display. One group, flattened into every mode that talks to a
/// player, and resolved once (`cli::player`) into the value the mode is handed.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct PlayerArgs {
    #[command(flatten)]
    pub(crate) lang: LangArg,
    #[command(flatten)]
    pub(crate) words: WordsArg,
    #[command(flatten)]
    pub(crate) speech: SpeechArg,
    #[command(flatten)]
    pub(crate) braille: BrailleArg,
    #[command(flatten)]
    pub(crate) sound: SoundArgs,
}

/// The sound cues: one definition for every mode that speaks moves. Global, so that online
/// takes them after its subcommand too.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct SoundArgs {
    /// Short sounds before the words (a move, a capture, check, castling, a promotion, a
    /// refused move, the end, a low clock, the board's edge): on or off. Played by
    /// speech-dispatcher, in order with its speech; without it, the configuration file's
    /// [sound] cues, else on.
    #[arg(long = "sound", global = true, value_enum, value_name = "ON|OFF")]
    pub(crate) sound: Option<OnOffArg>,
    /// The sounds' volume from 0 to 100 (the file's [sound] volume, else 100).
    #[arg(long = "sound-volume", global = true, value_name = "N", value_parser = |s: &str| super::usage::in_range::<u8>(s, 0, 100))]
    pub(crate) sound_volume: Option<u8>,
    /// A sound when a side's clock first falls under this many seconds ("30" or "30s"; 0:
    /// none; the file's [sound] low_clock, else 30).
    #[arg(long = "low-clock", global = true, value_name = "SECONDS", value_parser = |s: &str| super::usage::in_range::<u32>(s.trim().trim_end_matches('s'), 0, 3600))]
    pub(crate) low_clock: Option<u32>,
    /// Leave out the words a sound says: captures (the capture word), check (the check
    /// word; mate is always said), comma-separated.
    #[arg(
        long = "cues-only-for",
        global = true,
        value_enum,
        value_delimiter = ',',
        value_name = "CUES"
    )]
    pub(crate) cues_only_for: Option<Vec<CueWordArg>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum OnOffArg {
    On,
    Off,
}

/// The words a sound can stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CueWordArg {
    /// The capture word ("schlägt", "takes").
    Captures,
    /// The check word ("Schach", "check").
    Check,
}

impl SoundArgs {
    /// The file's `[sound]` with these options over it.
    pub(crate) fn apply(
        &self,
        mut s: crate::core::settings::SoundSettings,
    ) -> crate::core::settings::SoundSettings {
        if let Some(on) = self.sound {
            s.cues = on == OnOffArg::On;
        }
        if let Some(v) = self.sound_volume {
            s.volume = v;
        }
        if let Some(l) = self.low_clock {
            s.low_clock = l;
        }
        if let Some(words) = &self.cues_only_for {
            s.only_for = words
                .iter()
                .map(|w| match w {
                    CueWordArg::Captures => "captures".to_string(),
                    CueWordArg::Check => "check".to_string(),
                })
                .collect();
        }
        s
    }
}

/// The language and the words of a tool that prints (transcript, parse, listen, board
/// monitor): the part of [`PlayerArgs`] it takes.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct ToolWordsArgs {
    #[command(flatten)]
    pub(crate) lang: LangArg,
    #[command(flatten)]
    pub(crate) words: WordsArg,
}

/// `--speech`: one definition for every mode that speaks; --backend, its old name, is still
/// read. Global, so that online takes it after its subcommand too.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub(crate) struct SpeechArg {
    /// Speech output: auto, speech-dispatcher, espeak-ng, tts, print; nvda, jaws, sapi on
    /// Windows. Without it, the configuration file's, else auto; in screen-reader mode auto
    /// is print (your screen reader reads the lines). --backend is the old name.
    #[arg(
        long = "speech",
        alias = "backend",
        global = true,
        value_enum,
        value_name = "BACKEND"
    )]
    pub(crate) speech: Option<BackendArg>,
}

/// The options of `hector resume`. No `--lang`: a game goes on in the language it was
/// played in.
#[derive(Debug, clap::Args)]
pub(crate) struct ResumeArgs {
    #[command(flatten)]
    pub(crate) braille: BrailleArg,
    #[command(flatten)]
    pub(crate) words: WordsArg,
    /// The game: its number in hector games, or a journal file.
    pub(crate) game: Option<String>,
    /// Plain lines instead of the full screen.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    #[command(flatten)]
    pub(crate) speech: SpeechArg,
    /// An adjourned game: its envelope (by default the one its journal names).
    #[arg(long, value_name = "FILE")]
    pub(crate) envelope: Option<PathBuf>,
    /// Taking moves back (zurücknehmen, takeback) is refused in this game.
    #[arg(long)]
    pub(crate) no_takeback: bool,
    #[command(flatten)]
    pub(crate) voice: VoiceArg,
    #[command(flatten)]
    pub(crate) sound: SoundArgs,
}

/// The options of `hector arbiter`. Its `--lang` is the console's; each game speaks its
/// file's language.
#[derive(Debug, clap::Args)]
pub(crate) struct ArbiterArgs {
    #[command(flatten)]
    pub(crate) player: PlayerArgs,
    /// The games, one TOML file each (players, colours, the two boards, time control).
    #[arg(required = true, value_name = "GAME.toml")]
    pub(crate) games: Vec<PathBuf>,
    /// Plain lines instead of the full screen.
    #[arg(long)]
    pub(crate) screen_reader: bool,
    /// Start every game afresh instead of continuing its unfinished record.
    #[arg(long)]
    pub(crate) new: bool,
    /// Push every game to this lichess broadcast round after each move and at its end
    /// (the round's id; a token with study:write from hector online login).
    #[arg(long, value_name = "ROUND", value_parser = lichess_id)]
    pub(crate) broadcast: Option<String>,
    /// The server of --broadcast (lichess, or a server with the same API).
    #[arg(
        long,
        default_value = "https://lichess.org",
        value_name = "URL",
        requires = "broadcast"
    )]
    pub(crate) server: String,
}

/// The options of `hector check`.
#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// The PGN file to check; - reads standard input.
    pub(crate) file: PathBuf,
    /// One JSON object per game, one per line, instead of sentences.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) run: PgnRunArgs,
}

/// The options of `hector transcript`.
#[derive(Debug, clap::Args)]
pub(crate) struct TranscriptArgs {
    /// The PGN file; - reads standard input.
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) words: ToolWordsArgs,
    /// Short form (like SAN) or long form (from-square and to-square).
    #[arg(long, value_enum, default_value = "short")]
    pub(crate) form: FormArg,
    /// text: numbered lines to read; tsv: one line per ply (game, ply, san, uci, spoken);
    /// brf: braille paper for an embosser, each game on pages of its own.
    #[arg(long, value_enum, default_value = "text")]
    pub(crate) format: FormatArg,
    #[command(flatten)]
    pub(crate) paper: PaperArgs,
    #[command(flatten)]
    pub(crate) run: PgnRunArgs,
}

/// The options of `hector parse`.
#[derive(Debug, clap::Args)]
pub(crate) struct ParseArgs {
    /// The move: SAN (Nf3, Sf3, exd5, e8=D, 0-0), coordinates (g1f3) or words
    /// ("Springer Felix drei", "knight felix three", "Eva acht Dame").
    #[arg(required = true, num_args = 1.., value_name = "TEXT")]
    pub(crate) text: Vec<String>,
    /// The position (FEN); the start position when left out.
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Read the FEN's castling rights as Chess960 (X-FEN or Shredder-FEN) and print
    /// castling as king-takes-rook.
    #[arg(long)]
    pub(crate) chess960: bool,
    // The answer's language; input is understood in every language.
    #[command(flatten)]
    pub(crate) words: ToolWordsArgs,
}

/// The options of `hector listen`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListenArgs {
    /// A WAV recording of one phrase ("Springer Felix drei").
    #[arg(value_name = "FILE.wav")]
    pub(crate) file: PathBuf,
    /// The position (FEN); the start position when left out.
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Read the FEN's castling rights as Chess960.
    #[arg(long)]
    pub(crate) chess960: bool,
    /// The recording answers a question: prints yes, no, or that it asks again.
    #[arg(long)]
    pub(crate) answer: bool,
    /// After the answer: what each grammar heard, the tests' results and the time taken.
    #[arg(long)]
    pub(crate) details: bool,
    #[command(flatten)]
    pub(crate) voice: VoiceModelArgs,
    #[command(flatten)]
    pub(crate) words: ToolWordsArgs,
}

/// The options of `hector say`.
#[derive(Debug, clap::Args)]
pub(crate) struct SayArgs {
    /// What to say; several texts are said one after another; - reads lines from standard
    /// input, one announcement per line.
    #[arg(required = true, num_args = 1.., value_name = "TEXT")]
    pub(crate) text: Vec<String>,
    #[command(flatten)]
    pub(crate) speech: SpeechArgs,
    /// Write the speech to this WAV file with espeak-ng instead of saying it.
    #[arg(long, value_name = "FILE")]
    pub(crate) wav: Option<PathBuf>,
}

/// The options of `hector voices`.
#[derive(Debug, clap::Args)]
pub(crate) struct VoicesArgs {
    /// Only voices for this language, e.g. de or en.
    #[arg(long, value_name = "CODE")]
    pub(crate) lang: Option<String>,
}

/// The options of `hector games`.
#[derive(Debug, clap::Args)]
pub(crate) struct GamesArgs {
    #[command(flatten)]
    pub(crate) lang: LangArg,
}

/// The options of `hector export`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// The game: its number as hector games shows it, or the path of a journal file.
    #[arg(value_name = "GAME")]
    pub(crate) game: String,
    /// PGN (the default).
    #[arg(long, conflicts_with = "text")]
    pub(crate) pgn: bool,
    /// The scoresheet as text, for printing or a braille display.
    #[arg(long, conflicts_with = "format")]
    pub(crate) text: bool,
    /// pgn, text, or brf: the scoresheet on braille paper for an embosser (Braille
    /// ASCII; the headers in literary braille through liblouis, the moves in the UKAAF
    /// braille chess code; docs/BRAILLE.md).
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "pgn")]
    pub(crate) format: Option<ExportFormatArg>,
    #[command(flatten)]
    pub(crate) paper: PaperArgs,
    // The language of the scoresheet, the PGN comments and the messages.
    #[command(flatten)]
    pub(crate) lang: LangArg,
    /// Write to this file instead of standard output: whole or not at all, keeping an
    /// existing file's permissions; a symbolic link's target is written; a directory,
    /// device or named pipe is refused.
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
}

/// The options of `hector simulate-board`.
#[derive(Debug, clap::Args)]
pub(crate) struct SimulateArgs {
    /// The protocol the simulated board speaks.
    #[arg(long, value_enum)]
    pub(crate) protocol: ProtocolArg,
    /// Read the commands from this file instead of standard input; the simulator ends
    /// after the last one.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,
    /// Peg board: name the piece in every placement and snapshot (P e4 N). DGT boards
    /// always identify pieces.
    #[arg(long)]
    pub(crate) identify_pieces: bool,
    /// The stable device path to create (a symbolic link to the current pseudo-terminal);
    /// a new temporary folder when left out. The path must not exist yet (only a link an
    /// earlier simulator left, leading to a pseudo-terminal that is gone, is replaced);
    /// on exit the simulator removes its own link and nothing else.
    #[arg(long, value_name = "PATH")]
    pub(crate) link: Option<PathBuf>,
    /// The position on the board at the start (FEN); the start position when left out.
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Read the FEN's castling rights as Chess960 (X-FEN or Shredder-FEN).
    #[arg(long, requires = "fen")]
    pub(crate) chess960: bool,
}

/// The options of `hector package-files`.
#[derive(Debug, clap::Args)]
pub(crate) struct PackageFilesArgs {
    /// The folder to write into; made when missing.
    pub(crate) dir: PathBuf,
}

/// The options of `hector voice-model-check`.
#[derive(Debug, clap::Args)]
pub(crate) struct VoiceModelCheckArgs {
    /// The model's folder, as --voice-model names it.
    pub(crate) dir: PathBuf,
    /// The language's code.
    pub(crate) lang: String,
    /// The words: fide or language.
    pub(crate) words: String,
}

/// The options of `hector board monitor`.
#[derive(Debug, clap::Args)]
#[command(mut_arg("speech", |a| a.requires("speak")
    .help("The speech output for --speak (default: the configuration file's, else auto); \
        --backend is the old name")))]
pub(crate) struct MonitorArgs {
    /// The board's serial port, e.g. /dev/ttyACM0 or /dev/ttyUSB0 (see hector board list),
    /// or the path hector simulate-board prints.
    pub(crate) port: PathBuf,
    /// The protocol the board speaks.
    #[arg(long, value_enum)]
    pub(crate) protocol: ProtocolArg,
    /// Baud rate; the protocol's own when left out (see --protocol).
    #[arg(long, value_parser = |s: &str| super::usage::in_range::<u32>(s, 50, 4_000_000))]
    pub(crate) baud: Option<u32>,
    /// The position the board shows at the start (FEN); the start position when left out.
    #[arg(long)]
    pub(crate) fen: Option<String>,
    /// Read the FEN's castling rights as Chess960 (X-FEN or Shredder-FEN) and print
    /// castling as king-takes-rook.
    #[arg(long, requires = "fen")]
    pub(crate) chess960: bool,
    #[command(flatten)]
    pub(crate) words: ToolWordsArgs,
    /// Leave out the raw sensor lines (dgt: … and peg: …); only what hector would say.
    #[arg(long)]
    pub(crate) no_raw: bool,
    /// Also say every sentence for the player (moves, touched pieces, mismatches,
    /// disconnections); the raw lines are only printed.
    #[arg(long)]
    pub(crate) speak: bool,
    #[command(flatten)]
    pub(crate) speech: SpeechArg,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap's own checks of every mode's options (unique names, conflicts that name real
    /// options…), which otherwise fail only when a mode is started.
    #[test]
    fn every_modes_options_pass_claps_checks() {
        super::Cli::command().debug_assert();
    }
}
