//! The speech backends hector can use, behind one small interface. A backend lives on the
//! speech worker thread and is only ever called from there (the tts handle and libspeechd's
//! connection are not thread-safe).

use std::fmt;

/// Why a backend call failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpeechError {
    #[error("{backend} is not available: {reason}")]
    Unavailable {
        backend: &'static str,
        reason: String,
    },
    #[error("{backend} failed: {reason}")]
    Failed {
        backend: &'static str,
        reason: String,
    },
    /// It has no form on this system (speech-dispatcher on Windows).
    #[error("{backend} does not run on {}", crate::io::platform::SYSTEM)]
    NotOnThisSystem { backend: &'static str },
    /// It runs, but there is no sound device to speak on (espeak-ng: "cannot find card").
    #[error("{backend} has no audio output ({detail})")]
    NoAudio {
        backend: &'static str,
        detail: String,
    },
}

impl SpeechError {
    /// The system's own words about the failure (an error of the operating system, the
    /// sound library's message), when the failure has any: hector's framing around them is
    /// said in the player's language by the caller.
    pub fn system_words(&self) -> Option<String> {
        let text = match self {
            SpeechError::NoAudio { detail, .. } => return Some(detail.clone()),
            SpeechError::Unavailable { reason, .. } | SpeechError::Failed { reason, .. } => reason,
            SpeechError::NotOnThisSystem { .. } => return None,
        };
        // The system's words stand in parentheses: "cannot connect (No such file …)".
        let open = text.find('(')?;
        let close = text.rfind(')')?;
        (close > open + 1).then(|| text[open + 1..close].to_string())
    }
}

/// Which backend, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    SpeechDispatcher,
    EspeakNg,
    Tts,
    Print,
    /// Keeps what it is asked to say, for tests.
    Capture,
}

impl BackendKind {
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::SpeechDispatcher => "speech-dispatcher",
            BackendKind::EspeakNg => "espeak-ng",
            BackendKind::Tts => "tts",
            BackendKind::Print => "print",
            BackendKind::Capture => "capture",
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The speech parameters a backend applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Voice {
    /// -100 (slowest) to 100 (fastest), 0 normal.
    pub rate: i32,
    /// 0 to 100.
    pub volume: i32,
    /// A voice name of the engine; empty to choose by language.
    pub name: String,
}

impl Default for Voice {
    fn default() -> Self {
        Voice {
            rate: 0,
            volume: 100,
            name: String::new(),
        }
    }
}

/// A speech output. `speak` starts an utterance and returns at once; the worker polls
/// `is_speaking` to learn when it ended.
pub trait Backend {
    fn kind(&self) -> BackendKind;
    fn speak(&mut self, text: &str, lang: &str) -> Result<(), SpeechError>;
    fn is_speaking(&mut self) -> Result<bool, SpeechError>;
    fn stop(&mut self) -> Result<(), SpeechError>;
    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError>;
}

/// Text as the engines may receive it: no control characters (libspeechd refuses NUL).
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_removed() {
        assert_eq!(clean("Eva\0 vier\n"), "Eva  vier");
        assert_eq!(clean("\u{7}Springer"), "Springer");
    }
}
