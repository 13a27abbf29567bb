//! JAWS, through its automation object (`FreedomSci.JawsApi`), when JAWS runs. JAWS speaks
//! with the player's own voice and rate, and brailles what it says; it cannot say when it has
//! finished, so an urgent message and every stop silence it (`BackendKind::tells_the_end`).

use crate::io::platform::screen_reader::{self, Jaws};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

const NAME: &str = "JAWS";

pub(crate) struct JawsBackend {
    jaws: Jaws,
}

impl JawsBackend {
    pub(crate) fn open() -> Result<JawsBackend, SpeechError> {
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
        Ok(JawsBackend { jaws })
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
        self.jaws.say(&clean(text), false).map_err(failed)
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        Ok(false)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.jaws.stop().map_err(failed)
    }

    fn set_voice(&mut self, _voice: &Voice) -> Result<(), SpeechError> {
        // JAWS' voice, rate and volume are the player's JAWS settings.
        Ok(())
    }
}
