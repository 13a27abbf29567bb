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
}

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
    let mut config = crate::io::speech::SpeechConfig::new(
        settings.backend,
        &lang.speech,
        crate::io::speech::Voice {
            rate: settings.rate,
            volume: settings.volume,
            name: settings.voice.clone(),
        },
    );
    // Already printed on standard error: a print backend adds nothing.
    config.sink = std::sync::Arc::new(|_: &str| Ok(()));
    let (speaker, _notices) = crate::io::speech::Speaker::start(config);
    speaker.urgent(message.to_string());
    speaker.wait_idle(std::time::Duration::from_secs(8));
    ExitCode::from(2)
}

/// Loads the configuration file; a problem is printed and the defaults are used.
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

/// Parses the command line and runs the chosen mode.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
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
                    speech: settings,
                },
                lang,
            )
        }
        Command::Check { file, json } => crate::app::check::run(&file, json),
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
    }
}
