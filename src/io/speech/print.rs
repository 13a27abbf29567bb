//! Plain lines instead of speech: for screen readers (Orca, NVDA, speakup), braille displays,
//! and anywhere no speech works. No control sequences, one line per utterance.

use std::sync::{Arc, Mutex};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

/// Where printed speech goes: standard output by default; the full-screen view shows it in
/// its own message line instead.
pub type Sink = Arc<dyn Fn(&str) -> std::io::Result<()> + Send + Sync>;

pub fn stdout_sink() -> Sink {
    Arc::new(|line: &str| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{line}")?;
        out.flush()
    })
}

pub(crate) struct Print {
    sink: Sink,
}

impl Print {
    pub(crate) fn new(sink: Sink) -> Print {
        Print { sink }
    }
}

impl Backend for Print {
    fn kind(&self) -> BackendKind {
        BackendKind::Print
    }

    fn speak(&mut self, text: &str, _lang: &str) -> Result<(), SpeechError> {
        (self.sink)(&clean(text)).map_err(|e| SpeechError::Failed {
            backend: "print",
            reason: format!("cannot write: {e}"),
        })
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        Ok(false)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        Ok(())
    }

    fn set_voice(&mut self, _voice: &Voice) -> Result<(), SpeechError> {
        Ok(())
    }
}

/// What a capturing backend was asked to do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Captured {
    Said { text: String, lang: String },
    Stopped,
    Voice(Voice),
}

/// How a capturing backend misbehaves, to exercise the watchdog.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Behaviour {
    #[default]
    Normal,
    /// Every call to `speak` blocks for ever (speech-dispatcher without audio).
    HangOnSpeak,
    /// Utterances start but never end.
    NeverEnds,
    /// Each utterance lasts this many polls.
    Slow(u32),
    /// Every `speak` fails: no sound device (espeak-ng without a card).
    NoAudio,
    /// Like a screen reader that cannot tell when an utterance has ended (JAWS, NVDA before
    /// 2024.1).
    Untimed,
    /// Like a screen reader that tells the end (NVDA 2024.1 and later): each utterance lasts
    /// this many polls.
    Reader(u32),
}

/// What a capturing backend saw: the calls in order, and when each `speak` was called.
#[derive(Debug, Default)]
pub struct CaptureLog {
    pub(crate) calls: Vec<Captured>,
    pub speak_times: Vec<std::time::Instant>,
}

pub type SharedLog = Arc<Mutex<CaptureLog>>;

/// Keeps what it is asked to say, for tests.
pub(crate) struct Capture {
    log: SharedLog,
    behaviour: Behaviour,
    polls_left: u32,
}

impl Capture {
    pub(crate) fn new(log: SharedLog, behaviour: Behaviour) -> Capture {
        Capture {
            log,
            behaviour,
            polls_left: 0,
        }
    }

    fn note(&self, c: Captured) {
        if let Ok(mut log) = self.log.lock() {
            if matches!(c, Captured::Said { .. }) {
                log.speak_times.push(std::time::Instant::now());
            }
            log.calls.push(c);
        }
    }
}

impl Backend for Capture {
    fn kind(&self) -> BackendKind {
        BackendKind::Capture
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<(), SpeechError> {
        if self.behaviour == Behaviour::HangOnSpeak {
            loop {
                std::thread::park();
            }
        }
        if self.behaviour == Behaviour::NoAudio {
            return Err(SpeechError::NoAudio {
                backend: "capture",
                detail: "no card".into(),
            });
        }
        self.note(Captured::Said {
            text: clean(text),
            lang: lang.to_string(),
        });
        self.polls_left = match self.behaviour {
            Behaviour::Slow(n) | Behaviour::Reader(n) => n,
            Behaviour::NeverEnds => u32::MAX,
            _ => 0,
        };
        Ok(())
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        if self.polls_left == 0 {
            return Ok(false);
        }
        if self.polls_left != u32::MAX {
            self.polls_left -= 1;
        }
        Ok(true)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.polls_left = 0;
        self.note(Captured::Stopped);
        Ok(())
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        self.note(Captured::Voice(voice.clone()));
        Ok(())
    }
}
