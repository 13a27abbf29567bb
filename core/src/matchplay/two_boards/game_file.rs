//! A game the arbiter supervises, as a small TOML file:
//!
//! ```toml
//! white = "Anna Schmidt"
//! black = "Bernd Weber"
//! blind = "black"                       # the blind player's colour
//! time_control = "40/5400+30:1800+30"   # no clock when left out
//! language = "de"                       # the game's words (a table of assets/lang)
//! words = "fide"                         # or "language"; the console's set when left out
//! event = "Stadtmeisterschaft"
//! round = "3"
//!
//! [peg_board]                           # the blind player's board
//! port = "/dev/ttyACM0"
//! protocol = "peg"                      # peg (default), or another protocol's name
//!
//! [sighted_board]                       # the sighted player's board
//! port = "/dev/ttyUSB0"
//! protocol = "dgt"                      # dgt (default), or another protocol's name
//! ```
//!
//! Pure: the text in, the checked settings or a message naming what is wrong out.

use serde::Deserialize;
use shakmaty::Color;

use crate::board::Protocol;
use crate::clock::TimeControl;
use crate::notation::language::WordSet;

/// A board of the file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardEntry {
    pub(crate) port: String,
    #[serde(default)]
    pub(crate) protocol: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    white: String,
    black: String,
    blind: String,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    words: Option<WordSet>,
    #[serde(default)]
    event: String,
    #[serde(default)]
    site: String,
    #[serde(default)]
    round: String,
    #[serde(default)]
    fen: Option<String>,
    peg_board: BoardEntry,
    sighted_board: BoardEntry,
}

/// A checked game file.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFile {
    pub white: String,
    pub black: String,
    pub blind: Color,
    pub control: Option<TimeControl>,
    pub language: Option<String>,
    /// The words this game's moves are announced with (Appendix D2.1's, or the language's
    /// own: the arbiter's "otherwise"); `None`: the console's.
    pub words: Option<WordSet>,
    pub event: String,
    pub site: String,
    pub round: String,
    pub fen: Option<String>,
    /// The blind player's board: port and protocol.
    pub peg: (String, Protocol),
    /// The sighted player's board.
    pub sighted: (String, Protocol),
}

/// What is wrong with a game file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameFileError {
    #[error("{0}")]
    Toml(String),
    #[error("blind = {0:?}: the blind player's colour is \"white\" or \"black\"")]
    Blind(String),
    #[error("time_control = {text:?}: {reason}")]
    TimeControl { text: String, reason: String },
    #[error("{board}.protocol = {text:?}: the protocol is {}", Protocol::names())]
    Protocol { board: &'static str, text: String },
    #[error("{0}.port is empty: name the board's serial port")]
    NoPort(&'static str),
    #[error("both boards are on {0}: each board needs its own port")]
    SamePort(String),
}

fn protocol(
    entry: &BoardEntry,
    board: &'static str,
    default: Protocol,
) -> Result<(String, Protocol), GameFileError> {
    if entry.port.trim().is_empty() {
        return Err(GameFileError::NoPort(board));
    }
    let p = match entry.protocol.as_deref().map(str::trim) {
        None => default,
        Some(t) => Protocol::from_name(t).ok_or_else(|| GameFileError::Protocol {
            board,
            text: t.to_string(),
        })?,
    };
    Ok((entry.port.trim().to_string(), p))
}

/// A colour named in any language's table ("white", "weiß", "blancs", "zwart").
fn color_word(text: &str) -> Option<Color> {
    use crate::notation::language::languages;
    use crate::notation::vocabulary::fold;
    let word = fold(text.trim());
    let names = |lang: &crate::notation::language::Language, color: Color| {
        let (said, typed) = match color {
            Color::White => (&lang.colors.white, &lang.commands.white),
            Color::Black => (&lang.colors.black, &lang.commands.black),
        };
        std::iter::once(said).chain(typed).any(|w| fold(w) == word)
    };
    [Color::White, Color::Black]
        .into_iter()
        .find(|&color| languages().any(|lang| names(lang, color)))
}

impl GameFile {
    pub fn parse(text: &str) -> Result<GameFile, GameFileError> {
        let raw: Raw = toml::from_str(text).map_err(|e| {
            // toml's message names the line and what it expected.
            GameFileError::Toml(e.to_string().trim().replace('\n', " "))
        })?;
        let blind =
            color_word(&raw.blind).ok_or_else(|| GameFileError::Blind(raw.blind.clone()))?;
        let control = match raw.time_control {
            None => None,
            Some(t) if t.trim().is_empty() || t.trim() == "-" => None,
            Some(t) => Some(TimeControl::typed(&t).map(|(c, _)| c).map_err(|e| {
                GameFileError::TimeControl {
                    text: t.clone(),
                    reason: e.to_string(),
                }
            })?),
        };
        let peg = protocol(&raw.peg_board, "peg_board", Protocol::Peg)?;
        let sighted = protocol(&raw.sighted_board, "sighted_board", Protocol::Dgt)?;
        if peg.0 == sighted.0 {
            return Err(GameFileError::SamePort(peg.0));
        }
        Ok(GameFile {
            white: raw.white,
            black: raw.black,
            blind,
            control,
            language: raw.language,
            words: raw.words,
            event: raw.event,
            site: raw.site,
            round: raw.round,
            fen: raw.fen,
            peg,
            sighted,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
white = "Anna Schmidt"
black = "Bernd Weber"
blind = "black"
time_control = "40/5400+30:1800+30"
event = "Stadtmeisterschaft"

[peg_board]
port = "/dev/ttyACM0"

[sighted_board]
port = "/dev/ttyUSB0"
protocol = "DGT"
"#;

    #[test]
    fn a_good_file() {
        let g = GameFile::parse(GOOD).expect("good");
        assert_eq!(g.blind, Color::Black);
        assert_eq!(g.peg, ("/dev/ttyACM0".into(), Protocol::Peg));
        assert_eq!(g.sighted, ("/dev/ttyUSB0".into(), Protocol::Dgt));
        assert!(g.control.is_some());
        assert_eq!(g.language, None);
        assert_eq!(g.words, None);
    }

    /// The game's own set of words, either one; anything else is named.
    #[test]
    fn a_game_chooses_its_words() {
        for (value, words) in [("fide", WordSet::Fide), ("language", WordSet::Language)] {
            let text = GOOD.replace("event =", &format!("words = \"{value}\"\nevent ="));
            assert_eq!(GameFile::parse(&text).expect(value).words, Some(words));
        }
        let text = GOOD.replace("event =", "words = \"german\"\nevent =");
        let e = GameFile::parse(&text).expect_err("german").to_string();
        assert!(e.contains("german") && e.contains("fide"), "{e}");
    }

    #[test]
    fn mistakes_are_named() {
        let cases = [
            (
                GOOD.replace("\"black\"\n", "\"blue\"\n"),
                "blind = \"blue\"",
            ),
            (
                GOOD.replace("40/5400+30:1800+30", "forty"),
                "time_control = \"forty\"",
            ),
            (
                GOOD.replace("\"DGT\"", "\"usb\""),
                "sighted_board.protocol = \"usb\": the protocol is \"dgt\" or \"peg\"",
            ),
            (GOOD.replace("/dev/ttyACM0", ""), "peg_board.port is empty"),
            (
                GOOD.replace("/dev/ttyACM0", "/dev/ttyUSB0"),
                "both boards are on /dev/ttyUSB0",
            ),
            (GOOD.replace("event", "evnet"), "unknown field `evnet`"),
            (
                GOOD.replace("[peg_board]\nport = \"/dev/ttyACM0\"\n", ""),
                "missing field `peg_board`",
            ),
            ("white = ".to_string(), "TOML parse error"),
        ];
        for (text, expected) in cases {
            let e = GameFile::parse(&text).expect_err(expected).to_string();
            assert!(e.contains(expected), "{e:?} should name {expected:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_never_panics(text in "\\PC{0,200}") {
            let _ = GameFile::parse(&text);
        }
    }
}
