//! Language tables: the words hector speaks and understands, loaded from `assets/lang/*.toml`
//! (embedded in the binary at build time, parsed on first use).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use shakmaty::{Color, File, Rank, Role, Square};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/languages.rs"));
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// Short code, e.g. `de`.
    pub code: String,
    /// The language's own name, e.g. `Deutsch`.
    pub name: String,
    /// The language code given to the speech engine.
    pub speech: String,
    pub(crate) board: BoardWords,
    pub pieces: PieceWords,
    pub(crate) folding: Folding,
    /// The FIDE words of Appendix D2.1 in this language's sentences (`[fide]`).
    pub(crate) fide: FideWords,
    pub(crate) moves: MoveWords,
    pub(crate) colors: ColorWords,
    pub clock: ClockWords,
    pub play: PlayWords,
    pub commands: CommandWords,
    pub(crate) understood: Understood,
    pub messages: Messages,
    pub record: RecordWords,
    pub assist: AssistWords,
    pub arbiter: ArbiterWords,
    pub online: OnlineWords,
    pub usage: UsageWords,
    pub(crate) build: BuildWords,
    pub review: ReviewWords,
    pub walk: WalkWords,
    pub board_focus: BoardFocusWords,
    pub(crate) openings: OpeningWords,
    pub takeback: TakebackWords,
    pub(crate) captures: CaptureWords,
    pub analysis: AnalysisWords,
    pub(crate) premove: PremoveWords,
    pub(crate) capture_moves: CaptureMoveWords,
    pub(crate) opponent: OpponentWords,
    pub board_keys: BoardKeyWords,
    pub reading: ReadingWords,
    pub voice: super::words::voice::VoiceWords,
    pub braille: super::words::braille::BrailleWords,
    pub watch: super::words::watch::WatchWords,
    pub broadcast: super::words::watch::BroadcastWords,
    pub(crate) exercise: super::words::exercise::ExerciseWords,
    pub train: super::words::training::TrainWords,
    pub analyse_all: super::words::analysis::AnalyseAllWords,
    pub puzzle: super::words::puzzles::PuzzleWords,
    pub study: super::words::study::StudyWords,
    pub explorer: super::words::explorer::ExplorerWords,
    /// The set of words moves, squares and pieces are said with: the table's own, or the
    /// FIDE words put in their place by [`Language::with_words`].
    #[serde(skip)]
    pub words: WordSet,
    pub windows: super::words::windows::WindowsWords,
}

/// Which words announce moves, squares, pieces and castling, apart from the language of the
/// sentences around them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WordSet {
    /// The FIDE Laws' words, Appendix D2.1: files Anna to Hector, the German numbers eins to
    /// acht, König, Dame, Turm, Läufer, Springer, Bauer, Kurze and Lange Rochade; in a
    /// sentence of any language.
    Fide,
    /// The language's own words: the arbiter's "otherwise" of D2.1.
    #[default]
    Language,
}

impl WordSet {
    /// The name of the option's value and of the configuration's.
    pub fn name(self) -> &'static str {
        match self {
            WordSet::Fide => "fide",
            WordSet::Language => "language",
        }
    }
}

/// The FIDE words of Appendix D2.1 as one language's sentences carry them (`[fide]`): the
/// prescribed words themselves (the same in every table) and the forms the sentences need
/// (with a colour, in the plural, negated). Capture, check, mate, promotion, en passant and
/// the long form's "to" are not prescribed: they stay the table's own `[moves]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FideWords {
    pub(crate) files: [String; 8],
    pub(crate) ranks: [String; 8],
    pub(crate) names: [String; 6],
    pub(crate) plural: [String; 6],
    pub(crate) white: [String; 6],
    pub(crate) black: [String; 6],
    pub(crate) none: [String; 6],
    pub(crate) white_plural: [String; 6],
    pub(crate) black_plural: [String; 6],
    pub(crate) short_castling: String,
    pub(crate) long_castling: String,
    /// The questions and refusals that list the pieces or name castling, in these words.
    pub(crate) which_promotion: String,
    pub(crate) bad_promotion: String,
    pub(crate) which_castling: String,
    /// {square}.
    pub(crate) board_promotion: String,
    /// The arbiter's and the assistant's promotion on a board: {board}, {square}.
    pub(crate) promotion_wait: String,
    pub(crate) needs_piece: String,
    /// The general messages that name a piece, a rank or a square ("that move would leave
    /// the König in check", "a number from eins to acht"), in these words; their keys are
    /// those of `[messages]`, `[play]`, `[record]` and `[usage]`.
    pub(crate) leaves_king_in_check: String,
    pub(crate) ignores_check: String,
    pub(crate) not_a_promotion: String,
    pub(crate) castling_no_right: String,
    pub(crate) castling_in_check: String,
    pub(crate) castling_attacked: String,
    pub(crate) capture_not_said: String,
    pub(crate) which_square: String,
    pub(crate) not_a_square: String,
    pub(crate) which_rank: String,
    pub(crate) not_a_rank: String,
    pub(crate) only_king: String,
    pub(crate) unpromoted_pawn: String,
    pub(crate) position_faults: [String; 10],
}

/// The capturing moves (`schlagzüge`, Shift+M on the board).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaptureMoveWords {
    /// A piece that can capture nothing, after its name.
    pub(crate) none: String,
    /// Every capture of the side to move: [one, more], {count} and {moves}.
    pub(crate) all: [String; 2],
    pub(crate) none_all: String,
}

/// Who the opponent is (`gegner`, o on the board).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpponentWords {
    /// {name}, {color}.
    pub(crate) is: String,
    /// The computer: {level}.
    pub(crate) engine: String,
    pub(crate) keyboard: String,
    /// The sighted player's board: {port}.
    pub(crate) board: String,
    /// A lichess player with a rating: {name}, {rating}.
    pub(crate) rated: String,
    /// A lichess opponent: {name}.
    pub(crate) lichess: String,
}

/// Keys on the board besides moving and finding pieces.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardKeyWords {
    /// The board seen from the other side now: {color} at the bottom.
    pub flipped: String,
    /// The characters Shift and the digits 1 to 8 give on this language's keyboard, in
    /// order (they jump to the files a to h).
    pub shifted_digits: String,
    /// Appended to the board's keys in the help.
    pub keys_help: String,
}

/// Reading the newest answer on the full screen page by page.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadingWords {
    /// The panel's last line while more of the answer follows.
    pub more: String,
    pub end: String,
    pub start: String,
    /// Appended to the keys' help.
    pub keys_help: String,
}

/// A move typed while the opponent is to move, kept and played when it becomes legal.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PremoveWords {
    /// Kept: {move}.
    pub(crate) kept: String,
    /// The label of a premove played ("Vorauszug: Springer Felix drei").
    pub(crate) label: String,
    /// The opponent's move made it illegal: {move}, {reason}.
    pub(crate) dropped: String,
    /// Enter on an empty line gave it up.
    pub(crate) cancelled: String,
    /// Appended to the game's help where premoves are taken.
    pub(crate) help: String,
}

/// Words of the players' own agreements in `hector play`: taking moves back, aborting, and a
/// rematch.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackWords {
    /// Switched off with --no-takeback.
    pub(crate) off: String,
    /// Take-back, abort or rematch in a mode that has none (assist, arbiter).
    pub(crate) not_here: String,
    pub(crate) nothing: String,
    /// The question to the opponent: `{color}` asks, `{opponent}` answers.
    pub(crate) ask: String,
    pub(crate) done: String,
    pub(crate) declined: String,
    /// The question to the opponent lapsed on a line that is no answer.
    pub(crate) dropped: String,
    pub(crate) engine_stopped: String,
    pub(crate) record_agreed: String,
    pub(crate) record_declined: String,
    pub(crate) record_aborted: String,
    pub(crate) aborted: String,
    pub(crate) abort_too_late: String,
    pub(crate) rematch_not_over: String,
    pub rematch: String,
    /// `hector games`: an aborted game's state.
    pub games_aborted: String,
}

/// Words of the captured pieces and the threats.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CaptureWords {
    pub(crate) captured: String,
    /// "{piece} auf": the taken piece inside a move's words ("Springer schlägt Bauer auf
    /// Felix fünf").
    pub(crate) taken: String,
    pub(crate) checks: String,
    pub(crate) no_checks: String,
    pub(crate) in_check: String,
    pub(crate) attacked: String,
    pub(crate) none_attacked: String,
    /// "{piece} {square}, angegriffen von {attackers}": every attacker, the last two
    /// joined by `and`.
    pub(crate) attacked_piece: String,
    pub(crate) could: String,
    /// The word that joins the last two of a list ("und").
    pub(crate) and: String,
}

/// The words of `hector analyse` (assets/lang, `[analysis]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisWords {
    pub(crate) plus: String,
    pub(crate) minus: String,
    pub(crate) decimal: String,
    pub(crate) equal: String,
    pub(crate) slightly_better: String,
    pub(crate) clearly_better: String,
    pub(crate) winning: String,
    pub(crate) mate_in: [String; 2],
    pub(crate) checkmate: String,
    pub(crate) drawn: String,
    pub(crate) inaccuracy: String,
    pub(crate) mistake: String,
    pub(crate) blunder: String,
    pub(crate) move_line: String,
    pub(crate) error_line: String,
    pub(crate) start_line: String,
    pub(crate) no_errors: String,
    pub(crate) summary: String,
    pub(crate) inaccuracies: [String; 2],
    pub(crate) mistakes: [String; 2],
    pub(crate) blunders: [String; 2],
    pub(crate) no_moves: String,
    /// Said before the engine starts: which engine, how many moves.
    pub analysing: String,
    pub engine_failed: String,
    /// The in-game commands: how the position stands, and the engine's move.
    pub(crate) words_eval: Vec<String>,
    pub(crate) words_hint: Vec<String>,
    pub(crate) no_engine: String,
    pub(crate) hints_off: String,
    pub(crate) busy: String,
    pub(crate) asking: String,
    pub(crate) hint: String,
    /// A kept analysis that cannot be read, set aside: {file}, {reason}, {aside}.
    pub kept_damaged: String,
    /// The analysis could not be kept: {reason}.
    pub kept_unwritten: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardWords {
    pub(crate) files: [String; 8],
    pub(crate) ranks: [String; 8],
}

/// Piece words, each in the order king, queen, rook, bishop, knight, pawn.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceWords {
    pub(crate) names: [String; 6],
    pub(crate) plural: [String; 6],
    pub(crate) white: [String; 6],
    pub(crate) black: [String; 6],
    pub(crate) none: [String; 6],
    /// Scoresheet letters for king, queen, rook, bishop, knight (pawns have none, C4).
    pub(crate) letters: [String; 5],
    /// Letters on the board picture, pawns included.
    pub board_letters: [String; 6],
}

/// How typed words are compared: letters made plain, spellings read as the letter they stand
/// for. A letter folds the same way in every language (é is e wherever it is typed); a
/// spelling ("ae" for "ä") only in its own language's words, where it cannot join two words
/// of another language ("koe", "poeta").
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Folding {
    /// One lower-case letter to what it folds to ("ä" = "a", "ß" = "ss").
    pub(crate) letters: std::collections::BTreeMap<String, String>,
    /// Letters, already folded, to the one letter they stand for ("ae" = "a").
    pub(crate) spellings: std::collections::BTreeMap<String, String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveWords {
    pub(crate) capture: String,
    pub(crate) to: String,
    pub(crate) check: String,
    pub(crate) mate: String,
    pub(crate) en_passant: String,
    pub(crate) promotion: String,
    pub(crate) short_castling: String,
    pub(crate) long_castling: String,
    /// A move of a line said with its number and side ("Zug 9, Schwarz"): {number}, {color}.
    /// Spoken lines say this rather than "9..." or "10.", where speech breaks the sentence.
    pub(crate) numbered: String,
    /// Between the moves of a line ("; ").
    pub(crate) separator: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ColorWords {
    pub(crate) white: String,
    pub(crate) black: String,
}

/// The talking clock's words. Pairs are [one, more].
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockWords {
    pub(crate) countdown_first: String,
    /// The typed commands of the clock's line mode.
    pub help_lines: String,
    pub(crate) used: String,
    pub(crate) used_summary: String,
    pub(crate) hours: [String; 2],
    pub(crate) minutes: [String; 2],
    pub(crate) seconds: [String; 2],
    pub(crate) moves_played: [String; 2],
    pub(crate) no_moves: String,
    pub(crate) player_time: String,
    pub(crate) summary: String,
    pub started: String,
    pub not_started: String,
    pub paused: String,
    pub resumed: String,
    pub running: String,
    pub stopped: String,
    pub(crate) period: String,
    pub(crate) flag: String,
    pub(crate) both_flags: String,
    /// [one, more], with `{n}` moves.
    pub(crate) control_moves: [String; 2],
    pub(crate) control_repeating: [String; 2],
    pub(crate) control_rest: String,
    /// One period with an increment, as players type it: {time} plus {bonus} per move.
    pub(crate) control_plus: String,
    pub(crate) control_game: String,
    pub(crate) then: String,
    pub(crate) fischer: String,
    pub(crate) simple_delay: String,
    pub(crate) bronstein: String,
    pub announcements_on: String,
    pub announcements_off: String,
    /// The quit question of the typed lines.
    pub quit_confirm_lines: String,
    /// The quit question answered no.
    pub not_quit: String,
    /// Line mode: "Die Uhr läuft noch nicht", with the typed way to start it.
    pub not_started_lines: String,
    /// Line mode, after a press: whose clock runs now ({color}).
    pub pressed: String,
    /// A lever of the side whose clock does not run: {color} (whose does).
    pub not_counted: String,
    /// A press after a flag fell.
    pub over: String,
    pub quit_confirm: String,
    pub help: String,
    pub unknown_key: String,
    pub lines: ClockLineWords,
}

/// The words of the clock's typed lines (its line mode): every language's are
/// understood, as `help_lines` names them.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockLineWords {
    pub press: Vec<String>,
    pub left: Vec<String>,
    pub right: Vec<String>,
    pub time: Vec<String>,
    pub count: Vec<String>,
    pub pause: Vec<String>,
    pub repeat: Vec<String>,
    pub silence: Vec<String>,
    pub mute: Vec<String>,
    pub faster: Vec<String>,
    pub slower: Vec<String>,
    pub announcements: Vec<String>,
    pub help: Vec<String>,
    pub quit: Vec<String>,
}

/// What scripts/build prints and says while hector is built: the script reads them from the
/// table itself (hector does not run yet); kept here so that every language has them all.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BuildWords {
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) first: String,
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) again: String,
    /// `{done}` of `{total}` parts, `{percent}`, `{name}`: the part last built.
    pub(crate) progress: String,
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) progress_spoken: String,
    /// `{name}`: the package being built, once only its own code is left to compile.
    pub(crate) own: String,
    /// `{name}`, `{elapsed}`: how long its own code has taken so far (`minute`, `minutes`).
    pub(crate) own_since: String,
    /// `{done}`, `{total}`, `{percent}`, `{elapsed}`: no part has been finished for a while.
    pub(crate) waiting: String,
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) minute: String,
    /// `{n}` minutes.
    pub(crate) minutes: String,
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) done: String,
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) failed: String,
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) failed_spoken: String,
    /// `{path}`: where the command `hector` is now.
    pub(crate) linked: String,
    /// `{profile}`: the shell's start-up file; `{line}`: the line that puts hector on the PATH.
    #[expect(
        dead_code,
        reason = "scripts/build reads it from the table; hector itself does not"
    )]
    pub(crate) path_line: String,
}

impl BuildWords {
    /// scripts/build fills these in; a translation without one would print it as it stands.
    fn placeholders(&self) -> [(&'static str, &str, &'static [&'static str]); 6] {
        [
            (
                "build.progress",
                &self.progress,
                &["{done}", "{total}", "{percent}", "{name}"],
            ),
            ("build.own", &self.own, &["{name}"]),
            ("build.own_since", &self.own_since, &["{name}", "{elapsed}"]),
            (
                "build.waiting",
                &self.waiting,
                &["{done}", "{total}", "{percent}", "{elapsed}"],
            ),
            ("build.minutes", &self.minutes, &["{n}"]),
            ("build.linked", &self.linked, &["{path}"]),
        ]
    }
}

/// What is wrong with the command line, and with the value of a start-up option (a time
/// control, a FEN, a game to continue from): said in the player's language.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsageWords {
    /// A `--lang` hector does not have: {code}, {codes} (those it has).
    pub unknown_language: String,
    pub unknown_argument: String,
    pub unknown_command: String,
    pub did_you_mean: String,
    pub invalid_value: String,
    pub possible_values: String,
    pub invalid_input: String,
    pub missing_argument: String,
    pub missing_command: String,
    pub conflict: String,
    /// An option that needs another: {arg}, {other}.
    pub needs: String,
    pub no_equals: String,
    pub wrong_count: String,
    pub not_text: String,
    pub unclear: String,
    pub more: String,
    pub(crate) option: String,
    pub out_of_range: String,
    pub opponent_values: String,
    pub chess960_values: String,
    pub not_a_time: String,
    pub time_unit: String,
    pub(crate) control_empty: String,
    pub(crate) control_unknown: String,
    pub(crate) control_no_clock: String,
    pub(crate) control_unknown_preset: String,
    pub(crate) control_field: String,
    pub(crate) control_no_periods: String,
    pub(crate) control_period: String,
    pub(crate) field_empty: String,
    pub(crate) moves_missing: String,
    pub(crate) seconds_missing_after_slash: String,
    pub(crate) seconds_missing_before: String,
    pub(crate) seconds_missing_after_star: String,
    pub(crate) increment_missing: String,
    pub(crate) delay_missing: String,
    pub(crate) two_slashes: String,
    pub(crate) two_bonuses: String,
    pub(crate) sandclock_extras: String,
    pub(crate) not_a_number: String,
    pub(crate) too_large: String,
    pub(crate) too_many_moves: String,
    pub(crate) not_whole_seconds: String,
    pub(crate) zero_moves: String,
    pub(crate) sudden_death_not_last: String,
    pub(crate) no_time: String,
    /// After "a whole number of", and after "too many": moves, seconds, seconds of a bonus.
    pub(crate) units_of: [String; 4],
    pub(crate) units: [String; 4],
    pub(crate) fen_syntax: String,
    /// The parts of a FEN, in the order of `variant::FenPart`.
    pub(crate) fen_parts: [String; 9],
    pub(crate) fen_impossible: String,
    /// In the order of `variant::PositionFault::ALL`.
    pub(crate) position_faults: [String; 10],
    pub(crate) not_legal: String,
    pub(crate) chess960_range: String,
    pub(crate) import_no_games: String,
    pub(crate) import_no_such_game: String,
    pub(crate) import_bad_start: String,
    pub(crate) import_too_large: String,
    pub(crate) import_illegal: String,
    pub assist_needs_board: String,
    pub assist_no_clock: String,
    pub arbiter_game: String,
}

impl UsageWords {
    /// Placeholders each template must keep, checked when the table loads.
    fn placeholders(&self) -> [(&'static str, &str, &'static [&'static str]); 12] {
        [
            ("usage.unknown_argument", &self.unknown_argument, &["{arg}"]),
            (
                "usage.invalid_value",
                &self.invalid_value,
                &["{value}", "{arg}"],
            ),
            (
                "usage.invalid_input",
                &self.invalid_input,
                &["{arg}", "{value}", "{reason}"],
            ),
            ("usage.conflict", &self.conflict, &["{arg}", "{other}"]),
            ("usage.more", &self.more, &["{command}"]),
            ("usage.option", &self.option, &["{option}", "{reason}"]),
            (
                "usage.control_field",
                &self.control_field,
                &["{field}", "{text}", "{problem}"],
            ),
            (
                "usage.control_period",
                &self.control_period,
                &["{period}", "{problem}"],
            ),
            (
                "usage.not_a_number",
                &self.not_a_number,
                &["{found}", "{unit}"],
            ),
            ("usage.fen_syntax", &self.fen_syntax, &["{part}"]),
            ("usage.fen_impossible", &self.fen_impossible, &["{faults}"]),
            (
                "usage.import_illegal",
                &self.import_illegal,
                &["{game}", "{line}", "{move}", "{reason}"],
            ),
        ]
    }
}

/// Opening names (src/core/openings.rs): the phrases, and the families this language has
/// its own names for (the published English family name to this language's).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpeningWords {
    /// Said after a move that reaches a newly named opening.
    pub(crate) reached: String,
    /// The answer to the opening question.
    pub(crate) answer: String,
    pub(crate) none: String,
    #[serde(default)]
    pub(crate) families: std::collections::HashMap<String, String>,
}

/// Words of `hector online`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlineWords {
    pub(crate) welcome: String,
    pub control: String,
    pub(crate) ai: String,
    pub(crate) anonymous: String,
    pub(crate) resign_question: String,
    pub(crate) play_on: String,
    pub(crate) chat_line: String,
    pub(crate) chat_arrived: String,
    pub(crate) no_chat: String,
    pub(crate) say_what: String,
    pub(crate) chat_sent: String,
    pub(crate) takeback_asked: String,
    pub(crate) no_claim: String,
    pub(crate) may_claim: String,
    pub(crate) draw_sent: String,
    pub(crate) nothing_to_answer: String,
    pub(crate) increment: String,
    pub(crate) no_clock: String,
    pub(crate) no_new: String,
    pub(crate) move_pending: String,
    pub reconnecting: String,
    pub(crate) reconnected: String,
    pub rate_limited: String,
    pub revoked: String,
    pub(crate) authorized: String,
    pub(crate) move_held: String,
    pub(crate) move_dropped: String,
    pub(crate) move_refused: String,
    pub(crate) refused: String,
    pub bad_line: String,
    pub(crate) too_long: String,
    pub(crate) bad_move: String,
    pub(crate) unknown_status: String,
    pub(crate) mate_not_on_board: String,
    pub(crate) stalemate_not_on_board: String,
    pub(crate) resign_without_winner: String,
    pub continue_hint: String,
    pub(crate) taken_back: String,
    pub(crate) taken_back_one: String,
    pub(crate) draw_offer: String,
    pub(crate) takeback_offer: String,
    pub(crate) offer_lapsed: String,
    pub(crate) draw_declined: String,
    pub(crate) takeback_declined: String,
    pub(crate) aborted: String,
    pub(crate) left_game: String,
    pub(crate) opponent_gone: String,
    pub(crate) opponent_back: String,
    pub login_where: String,
    pub login_prompt: String,
    pub login_ok: String,
    pub login_stored: String,
    pub logout_done: String,
    pub logout_none: String,
    pub no_token: String,
    pub token_refused: String,
    pub insecure_server: String,
    pub bad_server: String,
    pub token_file_refused: String,
    /// Why: a link, not a regular file, another user's, too large.
    pub token_file_reasons: [String; 4],
    pub waiting: String,
    #[expect(
        dead_code,
        reason = "a word of the tables hector does not say yet; every table has it"
    )]
    pub(crate) game_started: String,
    pub challenge_declined: String,
    /// A challenge's or the computer's clock lichess does not offer: {text}.
    pub challenge_clock: String,
    /// A real-time challenge nobody accepted in time: {user}, {minutes}.
    pub challenge_unanswered: String,
    pub games_none: String,
    pub games_line: String,
    pub games_hint: String,
    pub choose: String,
    pub bad_time: String,
    pub(crate) seek_too_fast: String,
    pub(crate) too_fast: String,
    pub your_turn: String,
    pub connect_failed: String,
    pub no_game: String,
    pub(crate) help: String,
    pub(crate) words_chat: Vec<String>,
    pub(crate) words_say: Vec<String>,
    pub(crate) words_abort: Vec<String>,
    pub(crate) words_takeback: Vec<String>,
    pub(crate) words_victory: Vec<String>,
    /// Days and hours: the singular, and the plural with `{n}`.
    pub(crate) days_words: [String; 2],
    pub(crate) hours_words: [String; 2],
    pub(crate) daily_control: String,
    pub(crate) time_left: String,
    pub(crate) daily_leave: String,
    pub(crate) daily_after_move: String,
    pub games_daily: String,
    pub seek_said: String,
    pub challenge_said: String,
    pub seek_posted: String,
    /// Casual, rated.
    pub rated_words: [String; 2],
    /// Standard, Chess960.
    pub variant_words: [String; 2],
    pub random_color: String,
    pub plays_color: String,
    pub range_words: String,
    pub bad_range: String,
    pub days_with_time: String,
}

/// Words of `hector play`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayWords {
    pub(crate) you_play: String,
    pub(crate) against: String,
    pub(crate) opponent_engine: String,
    pub engine_named: String,
    pub(crate) start_back_rank: String,
    pub(crate) start_pieces: String,
    pub board_named: String,
    pub(crate) opponent_keyboard: String,
    pub(crate) opponent_board: String,
    pub(crate) to_move: String,
    pub(crate) check: String,
    pub(crate) not_your_turn: String,
    pub(crate) engine_thinking: String,
    pub(crate) last_move: String,
    pub(crate) no_last_move: String,
    pub(crate) rank: String,
    pub(crate) file: String,
    pub(crate) diagonal: String,
    pub(crate) empty_line: String,
    pub(crate) attacked_by: String,
    pub(crate) defended_by: String,
    pub(crate) attacks_empty: String,
    pub(crate) none: String,
    pub(crate) nobody_attacks: String,
    pub(crate) moves_of: String,
    pub(crate) no_moves: String,
    pub(crate) no_piece: String,
    pub(crate) not_to_move: String,
    /// [one, more], with `{count}`.
    pub(crate) all_moves: [String; 2],
    pub(crate) pieces_of: String,
    pub(crate) pieces_none: String,
    pub(crate) white_plural: [String; 6],
    pub(crate) black_plural: [String; 6],
    pub(crate) material_side: String,
    pub(crate) material_even: String,
    pub(crate) material_ahead: String,
    pub(crate) points: [String; 2],
    pub(crate) only_king: String,
    pub(crate) move_list: String,
    pub(crate) offered: String,
    pub(crate) declined: String,
    pub(crate) agreed: String,
    pub(crate) no_offer: String,
    pub(crate) engine_declines: String,
    pub(crate) claim_correct: String,
    pub(crate) claim_incorrect: String,
    pub(crate) claim_incorrect_untimed: String,
    pub(crate) claim_as_offer: String,
    pub(crate) claim_intended_played: String,
    pub(crate) claim_right_lost: String,
    pub(crate) threefold: String,
    pub(crate) fifty_moves: String,
    pub(crate) offer_stands: String,
    pub computer: String,
    pub speech_faster: String,
    pub speech_slower: String,
    pub speech_muted: String,
    pub speech_unmuted: String,
    pub speech_silenced: String,
    pub(crate) resign_confirm: String,
    pub quit_confirm: String,
    pub(crate) quit_confirm_unrecorded: String,
    pub(crate) new_confirm: String,
    pub(crate) not_resigned: String,
    pub(crate) not_quit: String,
    pub no_question: String,
    pub saved: String,
    pub save_failed: String,
    #[expect(
        dead_code,
        reason = "a word of the tables hector does not say yet; every table has it"
    )]
    pub(crate) recorded: String,
    pub record_failed: String,
    pub record_works_again: String,
    pub record_reason_disk_full: String,
    pub record_reason_permission: String,
    pub record_reason_not_a_directory: String,
    pub unrecorded_at_end: String,
    pub copy_saved: String,
    pub copy_failed: String,
    /// The engine failed: `{reason}` is one of the sentences below.
    pub(crate) engine_failed: String,
    pub engine_start_failed: String,
    pub engine_not_found: String,
    pub engine_missing: String,
    pub engine_not_executable: String,
    pub engine_no_handshake: String,
    pub engine_ended_early: String,
    pub engine_no_chess960: String,
    pub engine_not_chess960: String,
    pub engine_bad_history: String,
    pub engine_no_move: String,
    pub engine_dead: String,
    pub engine_hung: String,
    pub engine_illegal: String,
    pub engine_exited: String,
    pub engine_crashed: String,
    pub engine_closed: String,
    pub engine_flooded: String,
    pub(crate) engine_restarted: String,
    pub(crate) engine_gone: String,
    pub(crate) execute_on_board: String,
    pub(crate) executed: String,
    pub game_over: String,
    pub no_clock: String,
    pub promotion_question: String,
    pub(crate) opponent_touched: String,
    pub resume_hint: String,
    pub program_path: String,
    pub resume_question: String,
    pub resumed: String,
    pub player: String,
    pub second_player: String,
    pub new_game: String,
    pub terminal_too_small: String,
    pub to_lines: String,
    pub to_full_screen: String,
    pub prompt: String,
    pub moves_heading: String,
    pub clock_heading: String,
    pub said_heading: String,
    /// How a game ended, in the order of [`crate::outcome::Termination`]'s variants.
    pub(crate) how: [String; 13],
    pub help: String,
    pub keys_help: String,
    /// The other modes' help ends with where the whole list is: command words in braces
    /// (`{help}`), as in their helps.
    pub(crate) more_help: String,
    /// The whole list of a mode's commands begins with this, then the colon.
    pub(crate) all_commands: String,
}

/// `hector assist`: hector as an assistant (Appendix D9, D10).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssistWords {
    pub(crate) welcome_blind: String,
    pub(crate) welcome_sighted: String,
    pub(crate) blind_on_board: String,
    pub(crate) sighted_on_board: String,
    pub(crate) typed: String,
    pub(crate) execute_on: String,
    pub(crate) flag_claimed: String,
    pub(crate) no_new_game: String,
    pub(crate) not_in_d10: String,
    pub envelope_written: String,
    pub boards_heading: String,
    pub adjourned_resume: String,
    pub envelope_failed: String,
}

/// The arbiter: the boards' alerts (D2.8), the arbiter's controls and their answers.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArbiterWords {
    pub(crate) already_paused: String,
    pub(crate) not_paused: String,
    pub(crate) adjourned_wait: String,
    pub(crate) time_set: String,
    /// [one, more], with `{n}`.
    pub(crate) moves_set: [String; 2],
    pub(crate) restore_position: String,
    pub(crate) claim_not_to_move: String,
    pub(crate) adjourned: String,
    pub(crate) not_adjourned: String,
    pub(crate) sealed_move: String,
    pub(crate) disconnected: String,
    pub(crate) reconnected: String,
    pub(crate) unplugged: String,
    pub(crate) in_order: String,
    pub(crate) in_sync: String,
    pub(crate) no_board: String,
    pub(crate) to_execute: String,
    pub(crate) promotion_wait: String,
    pub(crate) no_promotion: String,
    pub(crate) alert_records: String,
    pub(crate) alert_ahead: String,
    pub(crate) alert_position: String,
    pub(crate) alert_disconnected: String,
    pub(crate) records_differ: String,
    pub(crate) ahead: String,
    pub(crate) taken_back: String,
    pub(crate) times_then: String,
    pub(crate) corrected: String,
    pub(crate) nothing_to_confirm: String,
    pub unknown_command: String,
    pub(crate) needs_color: String,
    pub(crate) needs_time: String,
    pub(crate) needs_number: String,
    pub(crate) needs_result: String,
    pub(crate) needs_piece: String,
    pub(crate) needs_move: String,
    pub(crate) needs_text: String,
    /// [one game, more], with `{count}`.
    pub console_heading: [String; 2],
    pub console_selected: String,
    pub column_number: String,
    pub column_game: String,
    pub column_move: String,
    pub column_running: String,
    pub column_alert: String,
    pub game_prefix: String,
    pub paused_word: String,
    pub over_word: String,
    pub no_alert: String,
    pub alert_word_records: String,
    pub alert_word_ahead: String,
    pub alert_word_position: String,
    pub alert_word_disconnected: String,
    pub log_heading: String,
    pub log_empty: String,
    pub games_line: String,
    pub no_such_game: String,
    pub which_game: String,
    pub selected: String,
    pub left_out: String,
    pub no_games: String,
    pub quit_confirm: String,
    /// The quit question answered no.
    pub not_quit: String,
    pub prompt: String,
    pub help: String,
    pub commands: ArbiterCommandWords,
}

/// The arbiter's command words; every language's words are understood.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArbiterCommandWords {
    pub(crate) arbiter: Vec<String>,
    pub(crate) pause: Vec<String>,
    pub resume: Vec<String>,
    pub(crate) time: Vec<String>,
    pub(crate) moves: Vec<String>,
    pub(crate) penalty: Vec<String>,
    pub(crate) illegal: Vec<String>,
    pub(crate) claim: Vec<String>,
    pub(crate) draw: Vec<String>,
    pub(crate) result: Vec<String>,
    pub(crate) confirm: Vec<String>,
    pub(crate) correct: Vec<String>,
    pub(crate) promote: Vec<String>,
    pub(crate) seal: Vec<String>,
    pub(crate) open: Vec<String>,
    pub(crate) note: Vec<String>,
    pub(crate) games: Vec<String>,
    pub(crate) log: Vec<String>,
}

/// Command words: the first word of a typed line. Every language's words are understood.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandWords {
    pub(crate) help: Vec<String>,
    pub(crate) board: Vec<String>,
    pub(crate) pieces: Vec<String>,
    pub(crate) square: Vec<String>,
    pub(crate) rank: Vec<String>,
    pub(crate) file: Vec<String>,
    pub(crate) diagonal: Vec<String>,
    pub(crate) attacks: Vec<String>,
    pub(crate) moves: Vec<String>,
    pub(crate) last: Vec<String>,
    pub(crate) turn: Vec<String>,
    pub(crate) material: Vec<String>,
    pub(crate) list: Vec<String>,
    pub(crate) clock: Vec<String>,
    pub(crate) repeat: Vec<String>,
    pub(crate) offer: Vec<String>,
    pub(crate) accept: Vec<String>,
    pub(crate) decline: Vec<String>,
    pub(crate) claim: Vec<String>,
    pub resign: Vec<String>,
    pub(crate) save: Vec<String>,
    pub quit: Vec<String>,
    pub new: Vec<String>,
    pub(crate) silence: Vec<String>,
    pub(crate) mute: Vec<String>,
    pub(crate) unmute: Vec<String>,
    pub(crate) faster: Vec<String>,
    pub(crate) slower: Vec<String>,
    pub(crate) white: Vec<String>,
    pub(crate) black: Vec<String>,
    pub yes: Vec<String>,
    pub no: Vec<String>,
    pub(crate) opening: Vec<String>,
    pub(crate) takeback: Vec<String>,
    pub(crate) abort: Vec<String>,
    pub(crate) rematch: Vec<String>,
    pub(crate) captured: Vec<String>,
    pub(crate) threats: Vec<String>,
    /// The capturing moves ("schlagzüge", "schlagzüge e4").
    pub(crate) captures: Vec<String>,
    /// Who the opponent is.
    pub(crate) opponent: Vec<String>,
}

impl CommandWords {
    /// Every list of command words, each field once (a new command is a compile error here
    /// until it is listed, so that typo hints never miss it).
    pub(crate) fn lists(&self) -> [&Vec<String>; 40] {
        let CommandWords {
            help,
            board,
            pieces,
            square,
            rank,
            file,
            diagonal,
            attacks,
            moves,
            last,
            turn,
            material,
            list,
            clock,
            repeat,
            offer,
            accept,
            decline,
            claim,
            resign,
            save,
            quit,
            new,
            silence,
            mute,
            unmute,
            faster,
            slower,
            white,
            black,
            yes,
            no,
            opening,
            takeback,
            abort,
            rematch,
            captured,
            threats,
            captures,
            opponent,
        } = self;
        [
            help, board, pieces, square, rank, file, diagonal, attacks, moves, last, turn,
            material, list, clock, repeat, offer, accept, decline, claim, resign, save, quit, new,
            silence, mute, unmute, faster, slower, white, black, yes, no, opening, takeback, abort,
            rematch, captured, threats, captures, opponent,
        ]
    }
}

impl Language {
    /// Every word that begins a command of a game in this language: the commands, looking
    /// back, bewertung and tipp.
    pub(crate) fn command_word_lists(&self) -> Vec<&Vec<String>> {
        let r = &self.review;
        let mut lists: Vec<&Vec<String>> = self.commands.lists().to_vec();
        lists.extend([&r.position, &r.next, &r.previous, &r.current]);
        lists.extend([&self.analysis.words_eval, &self.analysis.words_hint]);
        lists.push(&self.explorer.words);
        lists
    }
}

/// Extra input words and spellings (every word above is understood as well).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Understood {
    pub(crate) files: [Vec<String>; 8],
    pub(crate) ranks: [Vec<String>; 8],
    pub(crate) pieces: [Vec<String>; 6],
    pub(crate) capture: Vec<String>,
    pub(crate) to: Vec<String>,
    pub(crate) promotion: Vec<String>,
    pub(crate) fillers: Vec<String>,
    pub(crate) ignored: Vec<String>,
    pub(crate) short_castling: Vec<String>,
    pub(crate) long_castling: Vec<String>,
    /// Castling without a side ("Rochade"): played when only one is legal, else asked.
    pub(crate) castling: Vec<String>,
    /// Answers to "Kurze oder lange Rochade?".
    pub(crate) short_answer: Vec<String>,
    pub(crate) long_answer: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Messages {
    /// What stands between a label and what follows: after the prompt and the mover's label
    /// (": ", in French " : ").
    pub colon: String,
    pub(crate) empty: String,
    pub(crate) unknown_word: String,
    pub(crate) no_square: String,
    pub(crate) too_many_squares: String,
    pub(crate) cannot_reach: String,
    pub(crate) leaves_king_in_check: String,
    pub(crate) ignores_check: String,
    pub(crate) ambiguous: String,
    pub(crate) or: String,
    pub(crate) which_promotion: String,
    pub(crate) not_a_promotion: String,
    pub(crate) bad_promotion: String,
    pub(crate) castling_no_right: String,
    pub(crate) castling_blocked: String,
    pub(crate) castling_in_check: String,
    pub(crate) castling_attacked: String,
    pub(crate) null_move: String,
    pub(crate) not_a_move: String,
    pub game_over: String,
    pub(crate) no_piece_on: String,
    pub(crate) capture_not_said: String,
    pub(crate) which_square: String,
    pub(crate) not_a_square: String,
    pub(crate) which_rank: String,
    pub(crate) not_a_rank: String,
    pub(crate) which_file: String,
    pub(crate) not_a_file: String,
    pub(crate) which_castling: String,
    pub(crate) did_you_mean: String,
    pub game_heading: String,
    pub(crate) result_white: String,
    pub(crate) result_black: String,
    pub(crate) result_draw: String,
    pub(crate) result_open: String,
    pub speech_using: String,
    /// A backend that hung was given up for another.
    pub speech_switched: String,
    /// One without a sound device (espeak-ng's "cannot find card").
    pub speech_switched_no_audio: String,
    /// One that could not be started or refused to speak.
    pub speech_switched_failed: String,
    /// The system's own words about a speech failure: {words}.
    pub speech_system: String,
    /// `hector say` without a text.
    pub say_nothing: String,
    /// `hector say` whose speech did not end in time: {seconds}.
    pub say_unfinished: String,
    pub speech_silent: String,
    pub config_ignored: String,
    /// A TOML syntax error at a line: {path}, {line}, {reason} (the reader's own words).
    pub config_syntax_at: String,
    pub config_missing: String,
    pub config_not_file: String,
    pub config_too_large: String,
    pub config_rate: String,
    pub config_volume: String,
    pub config_braille_hold: String,
    /// `[speech] screen_reader_rate` out of range: {path}, {value}, {min}, {max}.
    pub config_screen_reader_rate: String,
    pub config_language: String,
    pub config_not_text: String,
    /// A bad `[sound]` value ({path}, {value} as the file wrote it).
    pub config_sound_volume: String,
    pub config_sound_low_clock: String,
    pub config_sound_only_for: String,
    pub config_sound_cues: String,
    pub config_sound_icon_folder: String,
    /// Standard output could not be written (`{reason}`: the system's words).
    pub output_failed: String,
    pub(crate) empty_square: String,
    pub(crate) board_missing: String,
    pub(crate) board_extra: String,
    pub(crate) board_extra_piece: String,
    pub(crate) board_wrong: String,
    pub(crate) board_unknown_piece: String,
    /// [one, more], with `{n}`.
    pub(crate) board_more_squares: [String; 2],
    pub(crate) board_touched: String,
    pub(crate) board_promotion: String,
    pub(crate) board_takeback: String,
    pub(crate) board_matches: String,
    pub(crate) board_in_order: String,
    pub(crate) board_connected: String,
    pub(crate) board_disconnected: String,
    pub(crate) board_reconnected: String,
    pub(crate) board_fault: String,
    /// hector's own player cannot play the sound cues: said once.
    pub sound_unplayable: String,
    /// A typed capture mark where nothing is taken: {square}.
    pub(crate) nothing_to_take: String,
}

/// Words of the saved games: `hector games`, the scoresheet text and the PGN comments.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordWords {
    pub game_line: String,
    pub unreadable: String,
    pub too_large: String,
    pub in_progress: String,
    pub start_chess960: String,
    pub start_fen: String,
    /// [one, more], with `{n}`.
    pub moves: [String; 2],
    pub no_games: String,
    /// A game number beyond the games: {number}, {games} (how many there are).
    pub no_such_game: String,
    /// A game number when there is no game at all.
    pub no_games_yet: String,
    /// [one, more] games, with `{n}`.
    pub games: [String; 2],
    /// A GAME argument that is neither a number nor a file: {text}.
    pub not_game_or_file: String,
    /// A GAME argument that names a directory, a device…: {file}, {kind}.
    pub not_a_journal_file: String,
    /// A journal that cannot be read: {file}, {reason} (the system's words).
    pub cannot_read: String,
    /// A journal refused for its size (export, analyse, resume of a named file).
    pub journal_too_large: String,
    /// A file that holds no usable game: {file}, {reason}.
    pub not_a_game: String,
    pub written: String,
    /// `--output` names something that is not a regular file: `{file}` is `{kind}`.
    pub not_a_file: String,
    /// A directory, a device, a named pipe, a socket, a loop of symbolic links.
    pub file_kinds: [String; 5],
    pub write_failed: String,
    /// A file of hector's own that is a stranger (a link…): {file}, {kind} (of own_kinds).
    pub own_refused: String,
    /// A symbolic link, a file of several names, no regular file.
    pub own_kinds: [String; 3],
    /// An unreadable file of hector's own that could not be set aside: {file}, {reason},
    /// {why}.
    pub left_alone: String,
    pub torn_tail: String,
    pub(crate) heading: String,
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) date: String,
    pub(crate) time_control: String,
    pub(crate) opponent: String,
    pub(crate) result: String,
    pub no_unfinished: String,
    pub(crate) unfinished: String,
    /// The scoresheet's last line for a game aborted before both sides moved.
    pub(crate) unfinished_aborted: String,
    pub(crate) draw_offer: String,
    pub(crate) claim: String,
    pub(crate) claim_move: String,
    pub(crate) correct: String,
    pub(crate) incorrect: String,
    pub(crate) threefold: String,
    pub(crate) fifty_moves: String,
    pub(crate) penalty: String,
    pub(crate) illegal_move: String,
    pub(crate) unpromoted_pawn: String,
    pub(crate) taken_back: String,
    pub(crate) note: String,
    pub(crate) clock_paused: String,
    pub(crate) clock_resumed: String,
    pub(crate) clock_adjusted: String,
    pub(crate) moves_adjusted: String,
    pub board_of: String,
    pub(crate) mismatch: String,
    pub(crate) mismatch_records: String,
    pub(crate) agreed_start: String,
    pub(crate) agreed_move: String,
    pub(crate) reconciled_board: String,
    pub(crate) reconciled_taken_back: String,
    pub(crate) reconciled_arbiter: String,
    pub(crate) adjourned: String,
    pub(crate) adjournment_resumed: String,
    pub(crate) log_move: String,
    pub(crate) log_times: String,
    pub(crate) log_touched: String,
    pub(crate) log_offer: String,
    pub(crate) log_declined: String,
    pub(crate) log_accepted: String,
    pub(crate) log_resigned: String,
    pub(crate) log_flag: String,
    pub(crate) log_both_flags: String,
    /// The game's end in the log: {result} (`result_said_*`), {how} (the termination).
    pub(crate) log_result: String,
    /// A result said as the watch says it: "Schwarz gewinnt, 0 zu 1" (files keep "0-1").
    pub(crate) result_said_white: String,
    pub(crate) result_said_black: String,
    pub(crate) result_said_draw: String,
    pub(crate) terminations: TerminationWords,
    pub damaged: DamagedWords,
}

/// A journal that does not replay in full: where its good part ends and why, for
/// `hector games`, `hector export` and `hector resume`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamagedWords {
    /// A line of `hector games`.
    pub game_line: String,
    /// The bytes of entry `{entry}` cannot be read.
    pub(crate) unreadable_entry: String,
    /// The same, where the damage begins: `{line}` of the file, `{offset}` its byte.
    pub(crate) unreadable_at: String,
    /// The game refuses entry `{entry}`; `{why}` is one of the reasons below.
    pub(crate) refused_entry: String,
    pub(crate) illegal_move: String,
    /// The same without naming the move.
    pub(crate) not_legal: String,
    pub(crate) san_differs: String,
    pub(crate) no_offer: String,
    pub(crate) game_over: String,
    pub(crate) not_to_move: String,
    pub(crate) claim_right_lost: String,
    pub(crate) claim_differs: String,
    pub(crate) take_back_differs: String,
    pub(crate) result_differs: String,
    pub(crate) bad_start: String,
    /// Why nothing of a journal can be used, after `record.unreadable`.
    pub(crate) file_empty: String,
    pub(crate) torn_header: String,
    pub(crate) not_a_journal: String,
    /// With `{found}` and `{supported}`, the format versions.
    pub(crate) newer_version: String,
    pub(crate) damaged_header: String,
    /// The PGN comment where the good part ends.
    pub stops_here: String,
    /// `hector export` on standard error.
    pub stops_after: String,
    /// `hector resume` and `hector play`: what is wrong, then the question.
    pub resume_told: String,
    pub resume_question: String,
    pub resume_declined: String,
    pub resume_no_terminal: String,
    pub resume_new_record: String,
}

/// How a game ended, in words (Articles 5, 6, 7 and 9).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TerminationWords {
    pub(crate) checkmate: String,
    pub(crate) resignation: String,
    pub(crate) stalemate: String,
    pub(crate) dead_position: String,
    pub(crate) agreement: String,
    pub(crate) threefold: String,
    pub(crate) fifty_moves: String,
    pub(crate) fivefold: String,
    pub(crate) seventy_five_moves: String,
    pub(crate) flag_fall: String,
    pub(crate) both_flags: String,
    pub(crate) illegal_moves: String,
    pub(crate) arbiter_decision: String,
}

impl RecordWords {
    /// Placeholders each template must keep, checked when the table loads.
    fn placeholders(&self) -> [(&'static str, &str, &'static [&'static str]); 21] {
        [
            (
                "record.game_line",
                &self.game_line,
                &[
                    "{number}", "{date}", "{white}", "{black}", "{result}", "{moves}",
                ],
            ),
            (
                "record.unreadable",
                &self.unreadable,
                &["{number}", "{file}", "{reason}"],
            ),
            ("record.moves", &self.moves[1], &["{n}"]),
            ("record.no_games", &self.no_games, &["{dir}"]),
            (
                "record.no_such_game",
                &self.no_such_game,
                &["{number}", "{games}"],
            ),
            ("record.written", &self.written, &["{file}"]),
            ("record.not_a_file", &self.not_a_file, &["{file}", "{kind}"]),
            (
                "record.write_failed",
                &self.write_failed,
                &["{file}", "{reason}"],
            ),
            ("record.heading", &self.heading, &["{white}", "{black}"]),
            ("record.date", &self.date, &["{text}"]),
            (
                "record.result",
                &self.result,
                &["{score}", "{words}", "{how}", "{article}"],
            ),
            (
                "record.claim",
                &self.claim,
                &["{color}", "{kind}", "{verdict}"],
            ),
            (
                "record.claim_move",
                &self.claim_move,
                &["{color}", "{kind}", "{move}", "{verdict}"],
            ),
            (
                "record.penalty",
                &self.penalty,
                &["{time}", "{color}", "{article}"],
            ),
            ("record.illegal_move", &self.illegal_move, &["{color}"]),
            (
                "record.unpromoted_pawn",
                &self.unpromoted_pawn,
                &["{color}"],
            ),
            ("record.taken_back", &self.taken_back, &["{move}"]),
            ("record.note", &self.note, &["{text}"]),
            (
                "record.damaged.game_line",
                &self.damaged.game_line,
                &[
                    "{number}", "{date}", "{white}", "{black}", "{moves}", "{reason}",
                ],
            ),
            (
                "record.damaged.refused_entry",
                &self.damaged.refused_entry,
                &["{entry}", "{why}"],
            ),
            (
                "record.damaged.resume_told",
                &self.damaged.resume_told,
                &["{date}", "{white}", "{black}", "{number}", "{reason}"],
            ),
        ]
    }
}

/// Index of a role in the tables' order: king, queen, rook, bishop, knight, pawn.
pub fn role_index(role: Role) -> usize {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

/// Roles in the tables' order.
pub const TABLE_ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

impl Language {
    pub(crate) fn file(&self, file: File) -> &str {
        &self.board.files[usize::from(file)]
    }

    pub(crate) fn rank(&self, rank: Rank) -> &str {
        &self.board.ranks[usize::from(rank)]
    }

    /// A square in Appendix D words: f3 is "Felix drei".
    pub(crate) fn square(&self, sq: Square) -> String {
        format!("{} {}", self.file(sq.file()), self.rank(sq.rank()))
    }

    pub fn piece(&self, role: Role) -> &str {
        &self.pieces.names[role_index(role)]
    }

    pub(crate) fn pieces_plural(&self, role: Role) -> &str {
        &self.pieces.plural[role_index(role)]
    }

    /// A piece with its colour, e.g. "weißer Springer".
    pub(crate) fn colored_piece(&self, color: Color, role: Role) -> &str {
        let table = match color {
            Color::White => &self.pieces.white,
            Color::Black => &self.pieces.black,
        };
        &table[role_index(role)]
    }

    pub fn color(&self, color: Color) -> &str {
        match color {
            Color::White => &self.colors.white,
            Color::Black => &self.colors.black,
        }
    }

    /// The scoresheet letter of a piece (Appendix C2/C3); pawns have none.
    pub(crate) fn letter(&self, role: Role) -> &str {
        match role {
            Role::Pawn => "",
            other => &self.pieces.letters[role_index(other)],
        }
    }

    /// A result as it is said, the winner and the score in words: "Schwarz gewinnt, 0 zu 1".
    pub fn result_said(&self, result: crate::outcome::GameResult) -> &str {
        use crate::outcome::GameResult;
        match result {
            GameResult::WhiteWins => &self.record.result_said_white,
            GameResult::BlackWins => &self.record.result_said_black,
            GameResult::Draw => &self.record.result_said_draw,
        }
    }

    /// A result in words: "Weiß gewinnt", "Remis"; `None` is an open result.
    pub fn result(&self, result: Option<crate::outcome::GameResult>) -> &str {
        use crate::outcome::GameResult;
        match result {
            Some(GameResult::WhiteWins) => &self.messages.result_white,
            Some(GameResult::BlackWins) => &self.messages.result_black,
            Some(GameResult::Draw) => &self.messages.result_draw,
            None => &self.messages.result_open,
        }
    }

    fn validate(&self) -> Result<(), String> {
        let placeholders: [(&str, &str, &[&str]); 7] = [
            ("moves.promotion", &self.moves.promotion, &["{piece}"]),
            (
                "messages.nothing_to_take",
                &self.messages.nothing_to_take,
                &["{square}"],
            ),
            (
                "messages.unknown_word",
                &self.messages.unknown_word,
                &["{word}"],
            ),
            (
                "messages.cannot_reach",
                &self.messages.cannot_reach,
                &["{none}", "{square}"],
            ),
            ("messages.ambiguous", &self.messages.ambiguous, &["{moves}"]),
            (
                "messages.castling_no_right",
                &self.messages.castling_no_right,
                &["{castling}"],
            ),
            (
                "messages.castling_blocked",
                &self.messages.castling_blocked,
                &["{castling}"],
            ),
        ];
        let m = &self.messages;
        let board: [(&str, &str, &[&str]); 8] = [
            (
                "messages.board_missing",
                &m.board_missing,
                &["{square}", "{piece}"],
            ),
            ("messages.board_extra", &m.board_extra, &["{square}"]),
            (
                "messages.board_extra_piece",
                &m.board_extra_piece,
                &["{square}", "{piece}"],
            ),
            (
                "messages.board_wrong",
                &m.board_wrong,
                &["{square}", "{found}", "{expected}"],
            ),
            (
                "messages.board_more_squares",
                &m.board_more_squares[1],
                &["{n}"],
            ),
            (
                "messages.board_touched",
                &m.board_touched,
                &["{square}", "{piece}"],
            ),
            (
                "messages.board_promotion",
                &m.board_promotion,
                &["{square}"],
            ),
            ("messages.board_fault", &m.board_fault, &["{text}"]),
        ];
        for (name, text, needed) in placeholders
            .into_iter()
            .chain(board)
            .chain(self.record.placeholders())
            .chain(self.usage.placeholders())
            .chain(self.review_placeholders())
            .chain(self.build.placeholders())
            .chain(self.voice.placeholders())
        {
            for p in needed {
                if !text.contains(p) {
                    return Err(format!("{name} must contain {p}"));
                }
            }
        }
        let words = self
            .board
            .files
            .iter()
            .chain(&self.board.ranks)
            .chain(&self.pieces.names);
        for w in words {
            if w.trim().is_empty() {
                return Err("a file, rank or piece word is empty".into());
            }
        }
        Ok(())
    }
}

/// The text with its first letter in upper case, for a sentence that begins with a word
/// the tables write in lower case ("weißer König", "short castling").
pub(crate) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A count in words of one of two forms, [one, more], each with `{n}`: "1 Zug", "2 Züge".
pub fn counted(forms: &[String; 2], n: u64) -> String {
    fill(
        if n == 1 { &forms[0] } else { &forms[1] },
        &[("n", &n.to_string())],
    )
}

impl Language {
    /// The templates of looking back and of the board's keys, with what they must name.
    fn review_placeholders(&self) -> [(&'static str, &str, &'static [&'static str]); 4] {
        let (r, f) = (&self.review, &self.board_focus);
        [
            ("review.after", &r.after, &["{number}", "{color}", "{move}"]),
            ("review.no_such", &r.no_such, &["{number}", "{color}"]),
            ("board_focus.picked", &f.picked, &["{piece}", "{square}"]),
            (
                "board_focus.nothing_to_pick",
                &f.nothing_to_pick,
                &["{square}"],
            ),
        ]
    }
}

/// Walking through an analysed game (`hector analyse --walk`, `analyse` after a game): the
/// commands (every language's words are understood) and what is said.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkWords {
    /// Jump to the next inaccuracy, mistake or blunder.
    pub(crate) mistakes: Vec<String>,
    /// Say and show the engine's better line from the position looked at.
    pub(crate) better: Vec<String>,
    /// Leave the better line for the game.
    pub(crate) back: Vec<String>,
    /// Open the analysis of a finished game.
    pub(crate) analyse: Vec<String>,
    /// The screen's heading while the better line is shown.
    pub(crate) label: String,
    /// The walk opened: {summary}.
    pub(crate) opened: String,
    /// The position before a judged move: {number}, {color}, {move}, {kind}.
    pub(crate) mistake: String,
    pub(crate) no_more: String,
    pub(crate) none: String,
    /// A judged move looked at after it was played: {position}, {kind}.
    pub(crate) judged: String,
    /// The better line: {line}, {eval}.
    pub(crate) better_line: String,
    /// The move played was the engine's: {move}.
    pub(crate) best_played: String,
    /// At the end of the game, the engine's line: {line}.
    pub(crate) engine_line: String,
    pub(crate) no_line: String,
    /// Back from the better line: {position}.
    pub(crate) back_in_game: String,
    pub(crate) not_in_line: String,
    pub(crate) move_refused: String,
    pub(crate) after_game: String,
    /// `analyse` where the game cannot be judged in place (online): how to walk it later.
    pub(crate) elsewhere: String,
    /// The walk's words in a finished game before `analyse`.
    pub(crate) open_first: String,
    pub(crate) already: String,
    /// Asked in a game: {moves}.
    pub analysing: String,
    pub(crate) failed: String,
    /// The walk's commands, command words in braces (`{mistakes}`); appended to the game's
    /// help, and the walk's own help.
    pub(crate) help: String,
    /// The line mode's prompt in the walk (no moves are played there).
    pub prompt: String,
}

/// Looking back in the game's history: the commands (every language's words are
/// understood) and what is said.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewWords {
    /// "stellung 12": the position after move 12 (Black's; "stellung 12 weiß": White's).
    pub(crate) position: Vec<String>,
    pub(crate) next: Vec<String>,
    pub(crate) previous: Vec<String>,
    pub(crate) current: Vec<String>,
    /// The screen's heading while looking back.
    pub label: String,
    /// The position after a move: {number}, {color}, {move}.
    pub(crate) after: String,
    /// The position before the first move.
    pub(crate) start: String,
    pub(crate) at_current: String,
    pub(crate) at_start: String,
    /// No such move in this game: {number}, {color}.
    pub(crate) no_such: String,
    pub(crate) which_move: String,
    pub(crate) move_refused: String,
    /// Said after a move played while looking back.
    pub(crate) still: String,
    /// Appended to the game's help.
    pub(crate) help: String,
}

/// The board as a place to enter moves on the full screen.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFocusWords {
    /// Said when Tab moves the keys to the board, or back to the input line.
    pub board: String,
    pub input: String,
    /// Said instead of the square when a key would leave the board.
    pub edge: String,
    /// A piece picked up: {piece}, {square}.
    pub(crate) picked: String,
    pub(crate) put_down: String,
    /// Space on a square with the opponent's piece: {square}.
    pub(crate) nothing_to_pick: String,
    /// Space on an empty square with nothing picked up: {square}.
    pub(crate) empty: String,
    /// A move from the board refused: the piece stays picked up ({piece}, {square}).
    pub(crate) still_picked: String,
    /// A key that does nothing on the board.
    pub no_meaning: String,
    /// Appended to the keys' help.
    pub keys_help: String,
}

/// Fills `{name}` placeholders in a template.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A player's name as hector itself wrote it into a record ("Player", "Spieler 2",
/// "Stockfish 16, level 1", "Board on /dev/ttyUSB0") in `lang`, whatever language the game was
/// played in; any other name as it is. `hector games` lists games in one language.
pub fn own_name(name: &str, lang: &Language) -> String {
    for other in languages() {
        let p = &other.play;
        if name == p.player {
            return lang.play.player.clone();
        }
        if name == p.second_player {
            return lang.play.second_player.clone();
        }
        if let Some(values) = unfill(&p.engine_named, name, &["{name}", "{level}"]) {
            return fill(
                &lang.play.engine_named,
                &[("name", &values[0]), ("level", &values[1])],
            );
        }
        if let Some(values) = unfill(&p.board_named, name, &["{port}"]) {
            return fill(&lang.play.board_named, &[("port", &values[0])]);
        }
    }
    name.to_string()
}

/// The values of `names` (in the order they stand in `template`) that make `template` into
/// `text`, if it can; each value non-empty. Placeholders must be apart by some text.
fn unfill(template: &str, text: &str, names: &[&str]) -> Option<Vec<String>> {
    let mut values = Vec::new();
    let mut rest_template = template;
    let mut rest = text;
    for name in names {
        let (before, after) = rest_template.split_once(name)?;
        rest = rest.strip_prefix(before)?;
        // The value runs to the template's next literal text (or to the end).
        let next_literal = match after.find('{') {
            Some(i) => &after[..i],
            None => after,
        };
        let end = if next_literal.is_empty() {
            rest.len()
        } else {
            rest.rfind(next_literal)?
        };
        let value = &rest[..end];
        if value.is_empty() {
            return None;
        }
        values.push(value.to_string());
        rest = &rest[end..];
        rest_template = after;
    }
    (rest == rest_template).then_some(values)
}

/// Why a language cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LanguageError {
    #[error("hector does not speak {0:?}; available: {1}")]
    Unknown(String, String),
    #[error("the language table {0} is broken: {1}")]
    Broken(String, String),
}

fn parse(code: &str, text: &str) -> Result<Language, LanguageError> {
    let lang: Language =
        toml::from_str(text).map_err(|e| LanguageError::Broken(code.into(), e.to_string()))?;
    lang.validate()
        .map_err(|e| LanguageError::Broken(code.into(), e))?;
    if lang.code != code {
        return Err(LanguageError::Broken(
            code.into(),
            format!("its code is {:?}, the file is {code}.toml", lang.code),
        ));
    }
    Ok(lang)
}

fn all() -> &'static [(String, Result<Language, LanguageError>)] {
    static ALL: OnceLock<Vec<(String, Result<Language, LanguageError>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        embedded::EMBEDDED
            .iter()
            .map(|(code, text)| (code.to_string(), parse(code, text)))
            .collect()
    })
}

/// Every language that loaded with the FIDE words in place of its own (made once).
fn all_fide() -> &'static [Language] {
    static FIDE: OnceLock<Vec<Language>> = OnceLock::new();
    FIDE.get_or_init(|| languages().map(Language::fide_words).collect())
}

impl Language {
    /// This language with the FIDE words of Appendix D2.1 for files, ranks, pieces and
    /// castling, everything else its own.
    fn fide_words(&self) -> Language {
        let mut lang = self.clone();
        let f = &self.fide;
        lang.board.files = f.files.clone();
        lang.board.ranks = f.ranks.clone();
        lang.pieces.names = f.names.clone();
        lang.pieces.plural = f.plural.clone();
        lang.pieces.white = f.white.clone();
        lang.pieces.black = f.black.clone();
        lang.pieces.none = f.none.clone();
        lang.play.white_plural = f.white_plural.clone();
        lang.play.black_plural = f.black_plural.clone();
        lang.moves.short_castling = f.short_castling.clone();
        lang.moves.long_castling = f.long_castling.clone();
        lang.messages.which_promotion = f.which_promotion.clone();
        lang.messages.bad_promotion = f.bad_promotion.clone();
        lang.messages.which_castling = f.which_castling.clone();
        lang.messages.board_promotion = f.board_promotion.clone();
        lang.arbiter.promotion_wait = f.promotion_wait.clone();
        lang.arbiter.needs_piece = f.needs_piece.clone();
        let m = &mut lang.messages;
        m.leaves_king_in_check = f.leaves_king_in_check.clone();
        m.ignores_check = f.ignores_check.clone();
        m.not_a_promotion = f.not_a_promotion.clone();
        m.castling_no_right = f.castling_no_right.clone();
        m.castling_in_check = f.castling_in_check.clone();
        m.castling_attacked = f.castling_attacked.clone();
        m.capture_not_said = f.capture_not_said.clone();
        m.which_square = f.which_square.clone();
        m.not_a_square = f.not_a_square.clone();
        m.which_rank = f.which_rank.clone();
        m.not_a_rank = f.not_a_rank.clone();
        lang.play.only_king = f.only_king.clone();
        lang.record.unpromoted_pawn = f.unpromoted_pawn.clone();
        lang.usage.position_faults = f.position_faults.clone();
        lang.words = WordSet::Fide;
        lang
    }

    /// This language with the words `set` for moves, squares, pieces and castling.
    pub fn with_words(&self, set: WordSet) -> &'static Language {
        let found = match set {
            WordSet::Fide => all_fide().iter().find(|l| l.code == self.code),
            WordSet::Language => languages().find(|l| l.code == self.code),
        };
        found.unwrap_or_else(default_language)
    }
}

/// Every language that loaded, in code order.
pub fn languages() -> impl Iterator<Item = &'static Language> {
    all().iter().filter_map(|(_, l)| l.as_ref().ok())
}

/// The codes of every embedded language.
pub fn codes() -> Vec<&'static str> {
    all().iter().map(|(c, _)| c.as_str()).collect()
}

/// The language with this code (`de`, `en`, …).
pub fn language(code: &str) -> Result<&'static Language, LanguageError> {
    match all()
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code.trim()))
    {
        Some((_, Ok(lang))) => Ok(lang),
        Some((_, Err(e))) => Err(e.clone()),
        None => Err(LanguageError::Unknown(code.to_string(), codes().join(", "))),
    }
}

/// The language a system locale names ("fr_FR.UTF-8", "nl_BE@euro", "en-GB", "es"): its
/// language part, before the territory, the encoding and the modifier. `None` for "C",
/// "POSIX" and a language hector has no table for, which leave the choice to the default.
pub fn of_locale(locale: &str) -> Option<&'static Language> {
    let code = locale.trim().split(['_', '-', '.', '@']).next()?;
    // A code of two or three letters: "C" names no language, "fr" and "nds" do.
    if !(2..=3).contains(&code.len()) || !code.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    language(code).ok()
}

/// German, the FIDE wording and hector's default. Falls back to any language that loaded.
pub fn default_language() -> &'static Language {
    language("de")
        .ok()
        .or_else(|| languages().next())
        .unwrap_or_else(|| {
            // The build embeds de.toml and en.toml and the tests load them: this cannot happen
            // in a released binary.
            unreachable!("no language table could be loaded")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locale_names_its_language() {
        let code = |l: &str| of_locale(l).map(|t| t.code.as_str());
        assert_eq!(code("fr_FR.UTF-8"), Some("fr"));
        assert_eq!(code("nl_BE@euro"), Some("nl"));
        assert_eq!(code("en-GB"), Some("en"));
        assert_eq!(code("es"), Some("es"));
        assert_eq!(code("DE_de.utf8"), Some("de"));
        for none in ["C", "C.UTF-8", "POSIX", "it_IT.UTF-8", "", "_FR", "f"] {
            assert_eq!(code(none), None, "{none:?}");
        }
    }

    /// The names hector writes itself are listed in the language asked for.
    #[test]
    fn hectors_own_names_follow_the_language() {
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        assert_eq!(own_name("Player", de), "Spieler");
        assert_eq!(own_name("Spieler 2", en), "Player 2");
        assert_eq!(
            own_name("Stockfish 16, level 1", de),
            "Stockfish 16, Stufe 1"
        );
        assert_eq!(
            own_name("Stockfish 16, Stufe 8", en),
            "Stockfish 16, level 8"
        );
        assert_eq!(
            own_name("Board on /dev/ttyUSB0", de),
            "Brett an /dev/ttyUSB0"
        );
        assert_eq!(own_name("Anna Schmidt", en), "Anna Schmidt");
        assert_eq!(own_name("level 1", de), "level 1");
        assert_eq!(own_name("", de), "");
    }

    #[test]
    fn every_embedded_language_loads() {
        for (code, lang) in all() {
            assert!(lang.is_ok(), "{code}: {lang:?}");
        }
        assert!(codes().contains(&"de") && codes().contains(&"en"));
    }

    #[test]
    fn squares_and_pieces() {
        let de = language("de").expect("de");
        let en = language("EN").expect("en");
        assert_eq!(de.square(Square::F3), "Felix drei");
        assert_eq!(en.square(Square::C8), "Cesar eight");
        assert_eq!(de.colored_piece(Color::White, Role::Queen), "weiße Dame");
        assert_eq!(de.letter(Role::Knight), "S");
        assert_eq!(en.letter(Role::Knight), "N");
        assert!(matches!(language("xx"), Err(LanguageError::Unknown(..))));
    }

    /// The build script's checks, run here on every table and on broken ones.
    #[expect(
        dead_code,
        reason = "the tests call the checks, not the build script's driver"
    )]
    mod checks {
        include!("../../tables_check.rs");
    }

    fn embedded_texts() -> Vec<(String, String)> {
        embedded::EMBEDDED
            .iter()
            .map(|(c, t)| (c.to_string(), t.to_string()))
            .collect()
    }

    /// Every table has every key of de.toml and no other, with the same placeholders.
    #[test]
    fn every_table_has_the_reference_keys_and_placeholders() {
        assert!(codes().len() >= 5, "{:?}", codes());
        assert_eq!(checks::check_texts(&embedded_texts()), Vec::<String>::new());
    }

    /// What the build refuses: a table that is no TOML, lacks a key, has a key of its own,
    /// drops a placeholder or invents one.
    #[test]
    fn the_build_check_names_what_is_wrong() {
        let texts = embedded_texts();
        let fr = &texts.iter().find(|(c, _)| c == "fr").expect("fr").1;
        let de = texts.iter().find(|(c, _)| c == "de").expect("de").clone();
        for (broken, expected) in [
            (fr.replace("[moves]", "[moves"), "fr.toml is not TOML"),
            (fr.replace("to = \"vers\"\n", ""), "fr.toml lacks moves.to"),
            (
                fr.replace("[moves]", "[moves]\nwhere = \"où\""),
                "moves.where, which de.toml has not",
            ),
            (
                fr.replace(
                    "{none} ne peut atteindre {square}",
                    "{none} ne peut atteindre",
                ),
                "messages.cannot_reach lacks {square}",
            ),
            (
                fr.replace("Mot inconnu : {word}", "Mot inconnu : {mot}"),
                "messages.unknown_word has {mot}",
            ),
        ] {
            let problems = checks::check_texts(&[de.clone(), ("fr".into(), broken)]);
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "{expected}: {problems:?}"
            );
        }
    }

    /// Each table's letters: SAN letters and board letters distinct within the table, a
    /// folded letter folding the same way in every table, eight shifted digits.
    #[test]
    fn every_tables_letters_are_consistent() {
        let mut folds: std::collections::HashMap<String, (String, String)> =
            std::collections::HashMap::new();
        for lang in languages() {
            let code = &lang.code;
            for letters in [&lang.pieces.letters[..], &lang.pieces.board_letters[..]] {
                let distinct: std::collections::HashSet<String> =
                    letters.iter().map(|l| l.to_lowercase()).collect();
                assert_eq!(distinct.len(), letters.len(), "{code}: {letters:?}");
                assert!(letters.iter().all(|l| l.chars().count() == 1), "{code}");
            }
            for (from, to) in &lang.folding.letters {
                assert_eq!(from.chars().count(), 1, "{code}: {from}");
                assert_eq!(*from, from.to_lowercase(), "{code}: {from}");
                let (first, other) = folds
                    .entry(from.clone())
                    .or_insert_with(|| (to.clone(), code.clone()));
                assert_eq!(first, to, "{from} folds differently in {code} and {other}");
            }
            assert_eq!(lang.board_keys.shifted_digits.chars().count(), 8, "{code}");
        }
    }

    #[test]
    fn broken_tables_are_refused_with_a_reason() {
        let err = parse("de", "code = \"de\"").expect_err("incomplete");
        assert!(matches!(err, LanguageError::Broken(..)));
        let text = embedded::EMBEDDED
            .iter()
            .find(|(c, _)| *c == "de")
            .map(|(_, t)| *t)
            .expect("de");
        let bad = text.replace("Umwandlung in {piece}", "Umwandlung");
        let err = parse("de", &bad).expect_err("placeholder missing");
        assert!(err.to_string().contains("{piece}"), "{err}");
        // scripts/build's words too: it fills them in before hector exists.
        let bad = text.replace("bisher {elapsed}", "bisher");
        let err = parse("de", &bad).expect_err("placeholder missing");
        assert!(
            err.to_string()
                .contains("build.own_since must contain {elapsed}"),
            "{err}"
        );
    }
}
