//! JAWS, through its automation object (`FreedomSci.JawsApi`), when JAWS runs. JAWS speaks
//! with the player's own voice and rate, words of its own among hector's, and brailles what it
//! says, so an urgent message and every stop silence it (`BackendKind::is_screen_reader`).
//! It cannot say when it has finished: the end is estimated from the text's length at the
//! player's screen-reader rate (`[speech] screen_reader_rate`), within a bound (`end`), so
//! that the next sound waits for the words before it.

use std::time::Instant;

use crate::io::platform::screen_reader::{self, Jaws};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};
use super::end::{EndSignal, Pending};

const NAME: &str = "JAWS";

pub(crate) struct JawsBackend {
    jaws: Jaws,
    /// The player's JAWS rate in words per minute, for the estimate.
    wpm: u32,
    /// The utterance being said, until its estimated end.
    pending: Option<Pending>,
}

impl JawsBackend {
    pub(crate) fn open(voice: &Voice) -> Result<JawsBackend, SpeechError> {
        if !screen_reader::jaws_running() {
            return Err(SpeechError::NotRunning {
                backend: NAME,
                reason: "no JAWS window".into(),
            });
        }
        let jaws = Jaws::open().map_err(|reason| SpeechError::Unavailable {
            backend: NAME,
            reason,
        })?;
        Ok(JawsBackend {
            jaws,
            wpm: voice.reader_wpm,
            pending: None,
        })
    }
}

fn failed(reason: String) -> SpeechError {
    SpeechError::Failed {
        backend: NAME,
        reason,
    }
}

impl Backend for JawsBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Jaws
    }

    fn speak(&mut self, text: &str, _lang: &str) -> Result<(), SpeechError> {
        let text = clean(text);
        self.pending = None;
        self.jaws.say(&text, false).map_err(failed)?;
        self.pending = Some(Pending::new(
            EndSignal::Estimated(self.wpm),
            &text,
            Instant::now(),
        ));
        Ok(())
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        let speaking = self
            .pending
            .is_some_and(|p| p.speaking(Instant::now(), false));
        if !speaking {
            self.pending = None;
        }
        Ok(speaking)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.pending = None;
        self.jaws.stop().map_err(failed)
    }

    fn end(&self) -> Option<super::end::End> {
        Some(super::end::End::Estimated)
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        // JAWS' voice, rate and volume are the player's JAWS settings; only the rate it is
        // taken to speak at is hector's.
        self.wpm = voice.reader_wpm;
        Ok(())
    }
}
