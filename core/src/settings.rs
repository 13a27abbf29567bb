//! hector's settings as read from the configuration file (TOML). Parsing and checking only;
//! the file itself is read by `io::config`.
//!
//! ```toml
//! [speech]
//! backend = "auto"   # auto, speech-dispatcher, espeak-ng, tts, print (Windows: nvda, jaws, sapi)
//! language = "de"    # de (the FIDE wording), en, es, fr or nl; left out: the system's
//!                    # language (its locale) when hector has it, else German
//! voice = ""         # a voice name of the speech engine; empty: chosen by language
//! rate = 0           # -100 (slowest) to 100 (fastest)
//! volume = 100       # 0 to 100
//! screen_reader_rate = 180   # words per minute JAWS or NVDA speaks at (Windows): a sound
//!                            # waits for their words by their length at this rate, 4 s at
//!                            # most, when the screen reader does not tell their end
//!
//! [play]
//! openings = false   # say each newly reached named opening after the move
//!
//! [sound]
//! cues = true        # short sounds before the words (a capture, check, …) with speech
//! volume = 100       # 0 to 100
//! low_clock = 30     # seconds: a sound when a side's clock falls under it; 0: none
//! only_for = []      # ["captures", "check"]: the sound says it, the word is left out
//! icon_folder = "/usr/share/sounds/sound-icons"   # speech-dispatcher modules' icon folder
//!
//! [words]
//! order = "usual"       # usual, square-first or piece-first, in board readings
//! colour_words = true   # colour words where the sentence tells the colour anyway
//! check_words = true    # "Schach" after a checking move (mate is always said)
//! capture_words = true  # "schlägt" in a capturing move
//! say_captured = false  # every capture names the piece taken
//!
//! [braille]
//! display = "auto"   # auto (when a BrlAPI server answers), on (say when none does), off
//! hold = 0           # seconds an answer stays on the display; 0: until the next key
//!
//! [announcement]     # the words of moves, squares, pieces and castling, per mode:
//! play = "language"  # fide (Appendix D2.1: Anna … Hector, eins … acht, König … Bauer,
//! assist = "fide"    # Kurze/Lange Rochade, in any language's sentences) or language (its own)
//!
//! [explorer]
//! server = "https://explorer.lichess.org"   # the opening explorer (play, the walk, study)
//! ```

use serde::Deserialize;

pub use crate::mode::Mode;
pub use crate::notation::language::WordSet;

/// Which speech output to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BackendChoice {
    /// The first that works: speech-dispatcher, then espeak-ng, then print; on Windows the
    /// screen reader that runs (NVDA, JAWS), then the system's voices, then print.
    #[default]
    Auto,
    /// speech-dispatcher (Linux's speech service).
    SpeechDispatcher,
    /// The espeak-ng program, started for every phrase.
    EspeakNg,
    /// The system speech of the tts crate (speech-dispatcher, WinRT or Tolk, AVFoundation).
    Tts,
    /// Plain lines on standard output, for screen readers and braille displays.
    Print,
    /// NVDA through its controller client (Windows).
    Nvda,
    /// JAWS through its automation object (Windows).
    Jaws,
    /// SAPI 5, the system's voices (Windows).
    Sapi,
}

impl BackendChoice {}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpeechSettings {
    pub backend: BackendChoice,
    /// The language named (`language = "fr"`); `None` when the file names none, so that the
    /// system's language comes before German. The CLI sets it to the language resolved.
    pub language: Option<String>,
    pub voice: String,
    pub rate: i32,
    pub volume: i32,
    /// The words per minute the player's screen reader speaks at (JAWS, and NVDA with a
    /// client before 2024.1, cannot tell when they have finished: the end is estimated at
    /// this rate). From 60 to 900 ([`SCREEN_READER_RATES`]).
    pub screen_reader_rate: u32,
    /// The file's `[sound]` with the options over it: set by the CLI, not read from
    /// `[speech]`.
    #[serde(skip)]
    pub sound: SoundSettings,
}

impl Default for SpeechSettings {
    fn default() -> Self {
        SpeechSettings {
            backend: BackendChoice::Auto,
            language: None,
            voice: String::new(),
            rate: 0,
            volume: 100,
            screen_reader_rate: DEFAULT_SCREEN_READER_RATE,
            sound: SoundSettings::default(),
        }
    }
}

/// The rate a screen reader is taken to speak at when the file names none, in words per
/// minute: about what JAWS' and NVDA's voices speak at out of the box.
pub const DEFAULT_SCREEN_READER_RATE: u32 = 180;
/// The slowest and fastest screen-reader rates a configuration may name, in words per minute:
/// slower than any voice a player listens to, faster than the fastest speech understood.
pub const SCREEN_READER_RATES: std::ops::RangeInclusive<u32> = 60..=900;

/// The sound cues (`[sound]`; `--sound`, `--sound-volume`, `--low-clock` and
/// `--cues-only-for` override them).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SoundSettings {
    /// Sounds before the words, wherever hector's speech can play them.
    pub cues: bool,
    /// 0 to 100.
    pub volume: u8,
    /// Seconds: a sound when a side's clock first falls under it; 0 for none.
    pub low_clock: u32,
    /// Words a sound stands for, left out ("captures", "check").
    pub only_for: Vec<String>,
    /// The folder speech-dispatcher's output modules play sound icons from.
    pub icon_folder: Option<std::path::PathBuf>,
}

impl Default for SoundSettings {
    fn default() -> Self {
        SoundSettings {
            cues: true,
            volume: 100,
            low_clock: 30,
            only_for: Vec::new(),
            icon_folder: None,
        }
    }
}

impl SoundSettings {
    /// The words left out for their sounds.
    pub fn cues_only(&self) -> Result<crate::cue::CuesOnly, String> {
        crate::cue::CuesOnly::parse(&self.only_for.join(","))
    }
}

/// The settings of `hector play` (options of the same names override them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlaySettings {
    /// Say each newly reached named opening after the move (`--openings`).
    pub openings: bool,
    /// Every capture names the piece taken ("Springer schlägt Bauer auf Felix fünf").
    pub say_captured: bool,
}

/// The opening explorer (`[explorer]`): its address, as `--explorer` gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExplorerSettings {
    /// The explorer's address; left out: lichess's (https://explorer.lichess.org).
    pub server: Option<String>,
}

/// Voice input (`[voice]`): the same as `--voice`, `--voice-model` and `--voice-always-ask`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VoiceSettings {
    /// Listen in every game (play, resume, online, assist).
    pub enabled: bool,
    /// A PocketSphinx model the player installed.
    pub model: Option<std::path::PathBuf>,
    /// Ask back every move heard, however sure.
    pub always_ask: bool,
}

/// Whether hector writes to a braille display through BrlAPI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BrailleChoice {
    /// When a BrlAPI server answers; silent when none does.
    #[default]
    Auto,
    /// Always tried; a missing display is said once.
    On,
    /// Never.
    Off,
}

/// The braille display's settings (`[braille]`; `--braille` overrides `display`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BrailleSettings {
    pub display: BrailleChoice,
    /// Seconds a flashed answer stays; 0: until the next key.
    pub hold: u32,
}

/// The longest `[braille] hold`, in seconds.
pub const MAX_BRAILLE_HOLD: u32 = 3600;

/// `[announcement]`: the set of words each mode announces with; a mode left out has its
/// default (the FIDE words for the assistant and the arbiter's console, used in tournaments;
/// the language's own words elsewhere, as before).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AnnouncementSettings {
    pub(crate) play: Option<WordSet>,
    pub(crate) online: Option<WordSet>,
    pub(crate) watch: Option<WordSet>,
    pub(crate) study: Option<WordSet>,
    pub(crate) analyse: Option<WordSet>,
    pub(crate) train: Option<WordSet>,
    pub(crate) puzzle: Option<WordSet>,
    pub(crate) assist: Option<WordSet>,
    pub(crate) arbiter: Option<WordSet>,
    pub(crate) transcript: Option<WordSet>,
}

impl AnnouncementSettings {
    /// The words of `mode`: `chosen` (the option) over the file's, over the mode's default.
    /// hector resume announces with the words of the mode it continues; play's when it is
    /// not told which, and the clock announces no moves.
    pub fn words(&self, mode: Mode, chosen: Option<WordSet>) -> WordSet {
        let configured = match mode {
            Mode::Play | Mode::Resume => self.play,
            Mode::Clock => None,
            Mode::Online => self.online,
            Mode::Watch => self.watch,
            Mode::Study => self.study,
            Mode::Analyse => self.analyse,
            Mode::Train => self.train,
            Mode::Puzzle => self.puzzle,
            Mode::Assist => self.assist,
            Mode::Arbiter => self.arbiter,
            Mode::Transcript => self.transcript,
        };
        chosen.or(configured).unwrap_or(match mode {
            Mode::Assist | Mode::Arbiter => WordSet::Fide,
            _ => WordSet::Language,
        })
    }
}

/// Everything the configuration file can set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    pub speech: SpeechSettings,
    pub play: PlaySettings,
    pub sound: SoundSettings,
    pub voice: VoiceSettings,
    /// How much board readings and move announcements say.
    pub words: crate::notation::wording::Wording,
    pub braille: BrailleSettings,
    /// Which words announce moves, per mode.
    pub announcement: AnnouncementSettings,
    pub explorer: ExplorerSettings,
}

/// Why a configuration file was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("{0}")]
    Syntax(String),
    /// The TOML reader's own short words for what is wrong, and the line (from 1).
    #[error("line {line}: {reason}")]
    SyntaxAt { line: usize, reason: String },
    #[error("speech.rate is {0}; it must be between -100 and 100")]
    Rate(i32),
    #[error("speech.volume is {0}; it must be between 0 and 100")]
    Volume(i32),
    #[error("speech.language {0:?} is not one of: {1}")]
    Language(String, String),
    #[error("braille.hold is {0}; it must be between 0 and {MAX_BRAILLE_HOLD} seconds")]
    BrailleHold(u32),
    #[error(
        "speech.screen_reader_rate is {0}; it must be between {min} and {max} words a minute",
        min = SCREEN_READER_RATES.start(),
        max = SCREEN_READER_RATES.end()
    )]
    ScreenReaderRate(u32),
    /// The `[sound]` values as the file wrote them (a number out of range, a word where a
    /// number belongs, an unknown cue's name).
    #[error("sound.volume is {0}; it must be between 0 and 100")]
    SoundVolume(String),
    #[error("sound.low_clock is {0}; it must be between 0 and {MAX_LOW_CLOCK} seconds")]
    SoundLowClock(String),
    #[error("sound.only_for names {0}; it may name captures and check")]
    SoundOnlyFor(String),
    #[error("sound.cues is {0}; it must be true or false")]
    SoundCues(String),
    #[error("sound.icon_folder is {0}; it must be a folder's path as a string")]
    SoundIconFolder(String),
}

/// The longest low-clock threshold, in seconds (as `--low-clock` takes it).
pub const MAX_LOW_CLOCK: u32 = 3600;

/// Checks the `[sound]` table's values before they are read into their types, so that a
/// word where a number belongs is named with its key as a number out of range is, not in the
/// TOML reader's words.
fn check_sound(table: &toml::Table) -> Result<(), SettingsError> {
    let Some(toml::Value::Table(sound)) = table.get("sound") else {
        return Ok(());
    };
    let written = |v: &toml::Value| v.to_string();
    let within = |v: &toml::Value, max: i64| v.as_integer().is_some_and(|n| (0..=max).contains(&n));
    if let Some(v) = sound.get("volume")
        && !within(v, 100)
    {
        return Err(SettingsError::SoundVolume(written(v)));
    }
    if let Some(v) = sound.get("low_clock")
        && !within(v, i64::from(MAX_LOW_CLOCK))
    {
        return Err(SettingsError::SoundLowClock(written(v)));
    }
    if let Some(v) = sound.get("cues")
        && !v.is_bool()
    {
        return Err(SettingsError::SoundCues(written(v)));
    }
    if let Some(v) = sound.get("icon_folder")
        && !v.is_str()
    {
        return Err(SettingsError::SoundIconFolder(written(v)));
    }
    if let Some(v) = sound.get("only_for") {
        let Some(items) = v.as_array() else {
            return Err(SettingsError::SoundOnlyFor(written(v)));
        };
        for item in items {
            let known = item.as_str().is_some_and(|name| {
                crate::cue::CuesOnly::parse(name).is_ok() && !name.trim().is_empty()
            });
            if !known {
                return Err(SettingsError::SoundOnlyFor(written(item)));
            }
        }
    }
    Ok(())
}

/// Reads and checks a configuration text.
pub fn parse_settings(text: &str) -> Result<Settings, SettingsError> {
    // The reader's full text draws the line with carets over several lines; a player hears
    // the line's number and the reason alone.
    let syntax = |e: toml::de::Error| {
        let reason = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
        match e.span() {
            Some(span) => SettingsError::SyntaxAt {
                line: text
                    .get(..span.start)
                    .map_or(1, |before| before.matches('\n').count() + 1),
                reason,
            },
            None => SettingsError::Syntax(reason),
        }
    };
    let table: toml::Table = toml::from_str(text).map_err(syntax)?;
    check_sound(&table)?;
    let settings: Settings = toml::from_str(text).map_err(syntax)?;
    let s = &settings.speech;
    if !(-100..=100).contains(&s.rate) {
        return Err(SettingsError::Rate(s.rate));
    }
    if !(0..=100).contains(&s.volume) {
        return Err(SettingsError::Volume(s.volume));
    }
    if !SCREEN_READER_RATES.contains(&s.screen_reader_rate) {
        return Err(SettingsError::ScreenReaderRate(s.screen_reader_rate));
    }
    if settings.braille.hold > MAX_BRAILLE_HOLD {
        return Err(SettingsError::BrailleHold(settings.braille.hold));
    }
    if let Some(code) = &s.language
        && crate::notation::language::language(code).is_err()
    {
        return Err(SettingsError::Language(
            code.clone(),
            crate::notation::language::codes().join(", "),
        ));
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A syntax error is told by its line and the reader's short reason, on one line.
    #[test]
    fn a_syntax_error_names_its_line_and_reason() {
        assert_eq!(
            parse_settings("[speech]\nrate = 1\nrate = 2\n"),
            Err(SettingsError::SyntaxAt {
                line: 3,
                reason: "duplicate key".into()
            })
        );
        let Err(SettingsError::SyntaxAt { line, reason }) = parse_settings("[sound]\nfoo = 1\n")
        else {
            panic!("an unknown key is a syntax error at its line");
        };
        assert_eq!(line, 2);
        assert!(reason.starts_with("unknown field `foo`"), "{reason}");
        assert!(!reason.contains('\n'), "{reason}");
    }

    #[test]
    fn empty_file_gives_defaults() {
        assert_eq!(parse_settings(""), Ok(Settings::default()));
    }

    #[test]
    fn the_braille_section() {
        let s = parse_settings("[braille]\ndisplay = \"off\"\nhold = 5\n").expect("valid");
        assert_eq!(s.braille.display, BrailleChoice::Off);
        assert_eq!(s.braille.hold, 5);
        assert_eq!(Settings::default().braille.display, BrailleChoice::Auto);
        assert_eq!(
            parse_settings("[braille]\nhold = 3601"),
            Err(SettingsError::BrailleHold(3601))
        );
        assert!(parse_settings("[braille]\ndisplay = \"maybe\"").is_err());
    }

    #[test]
    fn the_sound_section() {
        let d = Settings::default().sound;
        assert!(d.cues);
        assert_eq!((d.volume, d.low_clock), (100, 30));
        let s = parse_settings(
            "[sound]\ncues = false\nvolume = 40\nlow_clock = 10\nonly_for = [\"captures\", \"check\"]\nicon_folder = \"/x\"\n",
        )
        .expect("valid");
        assert!(!s.sound.cues);
        assert_eq!((s.sound.volume, s.sound.low_clock), (40, 10));
        assert_eq!(
            s.sound.cues_only(),
            Ok(crate::cue::CuesOnly {
                captures: true,
                check: true
            })
        );
        // Each bad value is named with its key as the file wrote it.
        for (text, error) in [
            ("volume = 101", SettingsError::SoundVolume("101".into())),
            ("volume = -1", SettingsError::SoundVolume("-1".into())),
            (
                "volume = \"loud\"",
                SettingsError::SoundVolume("\"loud\"".into()),
            ),
            (
                "low_clock = \"soon\"",
                SettingsError::SoundLowClock("\"soon\"".into()),
            ),
            (
                "low_clock = 3601",
                SettingsError::SoundLowClock("3601".into()),
            ),
            ("cues = 1", SettingsError::SoundCues("1".into())),
            (
                "icon_folder = 3",
                SettingsError::SoundIconFolder("3".into()),
            ),
            (
                "icon_folder = [\"/x\"]",
                SettingsError::SoundIconFolder("[\"/x\"]".into()),
            ),
            (
                "only_for = [\"moves\"]",
                SettingsError::SoundOnlyFor("\"moves\"".into()),
            ),
            (
                "only_for = \"check\"",
                SettingsError::SoundOnlyFor("\"check\"".into()),
            ),
        ] {
            assert_eq!(
                parse_settings(&format!("[sound]\n{text}")),
                Err(error),
                "{text}"
            );
        }
        assert!(parse_settings("[sound]\nlow_clock = 3600").is_ok());
        assert!(parse_settings("[sound]\nloud = true").is_err());
    }

    #[test]
    fn say_captured_in_the_play_section() {
        let s = parse_settings("[play]\nsay_captured = true\n").expect("valid");
        assert!(s.play.say_captured);
        assert!(!Settings::default().play.say_captured);
        assert!(parse_settings("[play]\nsay_capture = true\n").is_err());
    }

    #[test]
    fn full_file() {
        let s = parse_settings(
            "[speech]\nbackend = \"espeak-ng\"\nlanguage = \"en\"\nvoice = \"English\"\nrate = -20\nvolume = 80\nscreen_reader_rate = 320\n",
        )
        .expect("valid");
        assert_eq!(s.speech.backend, BackendChoice::EspeakNg);
        assert_eq!((s.speech.rate, s.speech.volume), (-20, 80));
        assert_eq!(s.speech.screen_reader_rate, 320);
        assert_eq!(
            parse_settings("").map(|s| s.speech.screen_reader_rate),
            Ok(DEFAULT_SCREEN_READER_RATE)
        );
    }

    #[test]
    fn play_and_words_tables() {
        use crate::notation::wording::{Order, Wording};
        let s = parse_settings(
            "[play]\nopenings = true\n[words]\norder = \"piece-first\"\ncheck_words = false\n",
        )
        .expect("valid");
        assert!(s.play.openings);
        assert_eq!(
            s.words,
            Wording {
                order: Order::PieceFirst,
                colour_words: true,
                check_words: false,
                capture_words: true,
            }
        );
        let err = parse_settings("[words]\norder = \"sideways\"").expect_err("bad order");
        assert!(err.to_string().contains("sideways"), "{err}");
        assert!(parse_settings("[play]\nopening = true").is_err());
    }

    #[test]
    fn the_announcement_words_per_mode() {
        let s = parse_settings("[announcement]\nplay = \"fide\"\narbiter = \"language\"\n")
            .expect("valid");
        let a = s.announcement;
        assert_eq!(a.words(Mode::Play, None), WordSet::Fide);
        assert_eq!(a.words(Mode::Arbiter, None), WordSet::Language);
        // Left out: the mode's default, FIDE for the tournament modes only.
        assert_eq!(a.words(Mode::Assist, None), WordSet::Fide);
        assert_eq!(a.words(Mode::Puzzle, None), WordSet::Language);
        // The option wins.
        assert_eq!(
            a.words(Mode::Play, Some(WordSet::Language)),
            WordSet::Language
        );
        let d = AnnouncementSettings::default();
        assert_eq!(d.words(Mode::Arbiter, None), WordSet::Fide);
        assert_eq!(d.words(Mode::Watch, None), WordSet::Language);
        assert!(parse_settings("[announcement]\nplay = \"german\"").is_err());
        assert!(parse_settings("[announcement]\nplayy = \"fide\"").is_err());
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        assert_eq!(
            parse_settings("[speech]\nrate = 300"),
            Err(SettingsError::Rate(300))
        );
        assert_eq!(
            parse_settings("[speech]\nvolume = -1"),
            Err(SettingsError::Volume(-1))
        );
        for rate in [0, 59, 901] {
            assert_eq!(
                parse_settings(&format!("[speech]\nscreen_reader_rate = {rate}")),
                Err(SettingsError::ScreenReaderRate(rate))
            );
        }
        for rate in [60, 900] {
            assert_eq!(
                parse_settings(&format!("[speech]\nscreen_reader_rate = {rate}"))
                    .map(|s| s.speech.screen_reader_rate),
                Ok(rate)
            );
        }
        assert!(matches!(
            parse_settings("[speech]\nlanguage = \"xx\""),
            Err(SettingsError::Language(..))
        ));
        let err = parse_settings("[speech]\nbackend = \"loud\"").expect_err("unknown backend");
        assert!(err.to_string().contains("loud"), "{err}");
        let err = parse_settings("[speech]\nspeed = 3").expect_err("unknown key");
        assert!(err.to_string().contains("speed"), "{err}");
        assert!(parse_settings("[speech").is_err());
    }
}
