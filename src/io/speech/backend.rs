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
    /// A screen reader that is not running (NVDA, JAWS).
    #[error("{backend} is not running ({reason})")]
    NotRunning {
        backend: &'static str,
        reason: String,
    },
    /// The screen reader's client is not where hector looks for it: NVDA's controller client
    /// beside hector.exe. `running` says whether the screen reader itself runs.
    #[error("{backend} cannot be reached: its client is missing ({reason})")]
    ClientMissing {
        backend: &'static str,
        reason: String,
        running: bool,
    },
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
    pub(crate) fn system_words(&self) -> Option<String> {
        let text = match self {
            SpeechError::NoAudio { detail, .. } => return Some(detail.clone()),
            SpeechError::Unavailable { reason, .. }
            | SpeechError::Failed { reason, .. }
            | SpeechError::NotRunning { reason, .. }
            | SpeechError::ClientMissing { reason, .. } => reason,
            SpeechError::NotOnThisSystem { .. } => return None,
        };
        // The system's words stand in parentheses: "cannot connect (No such file …)".
        let open = text.find('(')?;
        let close = text.rfind(')')?;
        (close > open + 1).then(|| text[open + 1..close].to_string())
    }

    /// Whether the backend is simply not there (not on this system, a screen reader not
    /// running): no news when it was only tried in passing.
    pub(crate) fn is_absence(&self) -> bool {
        match self {
            SpeechError::NotOnThisSystem { .. } | SpeechError::NotRunning { .. } => true,
            SpeechError::ClientMissing { running, .. } => !running,
            _ => false,
        }
    }
}

/// Which backend, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    SpeechDispatcher,
    EspeakNg,
    Tts,
    Print,
    /// NVDA's controller client (Windows).
    Nvda,
    /// JAWS' automation object (Windows).
    Jaws,
    /// SAPI 5's voice (Windows).
    Sapi,
    /// Keeps what it is asked to say, for tests.
    Capture,
}

impl BackendKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            BackendKind::SpeechDispatcher => "speech-dispatcher",
            BackendKind::EspeakNg => "espeak-ng",
            BackendKind::Tts => "tts",
            BackendKind::Print => "print",
            BackendKind::Nvda => "NVDA",
            BackendKind::Jaws => "JAWS",
            BackendKind::Sapi => "SAPI",
            BackendKind::Capture => "capture",
        }
    }

    /// Whether the backend is a screen reader: it speaks on its own too (what the player
    /// reads), among hector's words, and tells their end late (NVDA 2024.1 and later) or
    /// not at all (JAWS, older NVDA; `end`). It is silenced on every stop, an urgent message
    /// silences it first, and its end is waited for within `end`'s bounds.
    pub(crate) fn is_screen_reader(self) -> bool {
        matches!(self, BackendKind::Nvda | BackendKind::Jaws)
    }

    /// Whether the backend plays hector's sound cues itself, in its own queue before the
    /// words (speech-dispatcher's sound icons). For the others hector plays them.
    pub(crate) fn plays_sound_icons(self) -> bool {
        self == BackendKind::SpeechDispatcher
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
    pub(crate) rate: i32,
    /// 0 to 100.
    pub(crate) volume: i32,
    /// A voice name of the engine; empty to choose by language.
    pub(crate) name: String,
    /// The rate the player's screen reader speaks at, in words per minute: JAWS' end is
    /// estimated from it (`end`).
    pub(crate) reader_wpm: u32,
}

impl Default for Voice {
    fn default() -> Self {
        Voice {
            rate: 0,
            volume: 100,
            name: String::new(),
            reader_wpm: super::end::DEFAULT_WPM,
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
    /// Queues a sound icon (speech-dispatcher's name for it) before what is said next. A
    /// backend that cannot play sounds plays none: nothing waits for it.
    fn sound_icon(&mut self, _name: &str) -> Result<(), SpeechError> {
        Ok(())
    }
    /// How a screen reader's end is known; none for the other backends, which tell it.
    fn end(&self) -> Option<super::end::End> {
        None
    }
}

/// Text as the engines may receive it: no control characters (libspeechd refuses NUL).
pub(crate) fn clean(text: &str) -> String {
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
