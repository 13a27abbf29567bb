//! SAPI 5, Windows' classic voices (`SAPI.SpVoice`): speaks without waiting, tells when it
//! has finished, takes hector's rate and volume. The voice is the one chosen in Windows'
//! speech settings.

use crate::io::platform::screen_reader::Sapi;

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

const NAME: &str = "SAPI";

pub(crate) struct SapiBackend {
    sapi: Sapi,
}

fn failed(reason: String) -> SpeechError {
    SpeechError::Failed {
        backend: NAME,
        reason,
    }
}

impl SapiBackend {
    /// Opens the voice and sets rate and volume: a SAPI that refuses those (wine's) is
    /// found out here, before anything is to be said.
    pub(crate) fn open(voice: &Voice) -> Result<SapiBackend, SpeechError> {
        let sapi = Sapi::open().map_err(|reason| SpeechError::Unavailable {
            backend: NAME,
            reason,
        })?;
        let mut backend = SapiBackend { sapi };
        backend
            .set_voice(voice)
            .map_err(|e| SpeechError::Unavailable {
                backend: NAME,
                reason: e.system_words().unwrap_or_else(|| e.to_string()),
            })?;
        Ok(backend)
    }
}

/// hector's rate (-100..100) in SAPI's steps (-10..10).
fn sapi_rate(rate: i32) -> i32 {
    rate.clamp(-100, 100) / 10
}

impl Backend for SapiBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Sapi
    }

    fn speak(&mut self, text: &str, _lang: &str) -> Result<(), SpeechError> {
        self.sapi.speak(&clean(text), false).map_err(failed)
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        self.sapi.is_speaking().map_err(failed)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.sapi.stop().map_err(failed)
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        self.sapi.set_rate(sapi_rate(voice.rate)).map_err(failed)?;
        let volume = u16::try_from(voice.volume.clamp(0, 100)).unwrap_or(100);
        self.sapi.set_volume(volume).map_err(failed)
    }
}
