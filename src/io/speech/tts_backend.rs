//! The tts crate's system speech (speech-dispatcher on Linux, WinRT or Tolk on Windows,
//! AVFoundation on macOS). Choosing a voice by language means listing voices, which is slow
//! with espeak-ng; it happens once per language, on the speech thread.

use std::collections::HashMap;

use tts::Tts;

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

const NAME: &str = "tts";

fn failed(reason: impl Into<String>) -> SpeechError {
    SpeechError::Failed {
        backend: NAME,
        reason: reason.into(),
    }
}

pub(crate) struct TtsBackend {
    tts: Tts,
    voice: Voice,
    /// Voices chosen per language, found once.
    chosen: HashMap<String, Option<tts::Voice>>,
    language: String,
}

impl TtsBackend {
    pub(crate) fn open(voice: &Voice) -> Result<TtsBackend, SpeechError> {
        let tts = Tts::default().map_err(|e| SpeechError::Unavailable {
            backend: NAME,
            reason: e.to_string(),
        })?;
        let mut backend = TtsBackend {
            tts,
            voice: Voice::default(),
            chosen: HashMap::new(),
            language: String::new(),
        };
        backend.set_voice(voice)?;
        Ok(backend)
    }

    fn choose(&mut self, lang: &str) -> Result<(), SpeechError> {
        if self.language == lang {
            return Ok(());
        }
        if !self.chosen.contains_key(lang) {
            let voices = self.tts.voices().unwrap_or_default();
            let wanted = clean(&self.voice.name);
            let pick = voices
                .iter()
                .find(|v| !wanted.is_empty() && v.name() == wanted)
                .or_else(|| {
                    voices
                        .iter()
                        .find(|v| v.language().primary_language() == lang)
                })
                .cloned();
            self.chosen.insert(lang.to_string(), pick);
        }
        if let Some(Some(v)) = self.chosen.get(lang) {
            self.tts
                .set_voice(v)
                .map_err(|e| failed(format!("cannot choose voice {}: {e}", v.name())))?;
        }
        self.language = lang.to_string();
        Ok(())
    }
}

/// Maps -100..100 onto the engine's own range around its normal value.
fn scale(value: i32, min: f32, normal: f32, max: f32) -> f32 {
    let v = value.clamp(-100, 100) as f32 / 100.0;
    if v < 0.0 {
        normal + (normal - min) * v
    } else {
        normal + (max - normal) * v
    }
}

impl Backend for TtsBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Tts
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<(), SpeechError> {
        self.choose(lang)?;
        self.tts
            .speak(clean(text), false)
            .map(|_| ())
            .map_err(|e| failed(e.to_string()))
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        if !self.tts.supported_features().is_speaking {
            return Ok(false);
        }
        self.tts.is_speaking().map_err(|e| failed(e.to_string()))
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        if self.tts.supported_features().stop {
            self.tts.stop().map_err(|e| failed(e.to_string()))?;
        }
        Ok(())
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        let features = self.tts.supported_features();
        if features.rate {
            let rate = scale(
                voice.rate,
                self.tts.min_rate(),
                self.tts.normal_rate(),
                self.tts.max_rate(),
            );
            self.tts.set_rate(rate).map_err(|e| failed(e.to_string()))?;
        }
        if features.volume {
            let volume = scale(
                voice.volume.clamp(0, 100) * 2 - 100,
                self.tts.min_volume(),
                self.tts.normal_volume(),
                self.tts.max_volume(),
            );
            self.tts
                .set_volume(volume)
                .map_err(|e| failed(e.to_string()))?;
        }
        if voice.name != self.voice.name {
            self.chosen.clear();
            self.language.clear();
        }
        self.voice = voice.clone();
        Ok(())
    }
}
