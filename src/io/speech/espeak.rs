//! The espeak-ng program as a backend: one process per utterance, so stopping is killing it.
//! Also writes WAV files (`hector say --wav`), which needs no sound card.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::io::child::{ChildError, bound_to_hector, kill_group, reaped, register, run_bounded};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

const NAME: &str = "espeak-ng";
/// `--version` and `--voices` answer at once; one that does not is hung.
/// Shorter than the speech supervisor's patience, so the probe is over before its worker
/// could be given up.
const PROBE_LIMIT: Duration = Duration::from_millis(1500);

fn failed(reason: impl Into<String>) -> SpeechError {
    SpeechError::Failed {
        backend: NAME,
        reason: reason.into(),
    }
}

/// Words per minute for a rate of -100..100 (espeak-ng's own default is 175).
pub(crate) fn words_per_minute(rate: i32) -> u32 {
    let rate = rate.clamp(-100, 100);
    let wpm = if rate <= 0 {
        175 + rate * 95 / 100
    } else {
        175 + rate * 275 / 100
    };
    u32::try_from(wpm).unwrap_or(175)
}

fn arguments(voice: &Voice, lang: &str) -> Vec<String> {
    let name = if voice.name.is_empty() {
        clean(lang)
    } else {
        clean(&voice.name)
    };
    vec![
        "-v".into(),
        name,
        "-s".into(),
        words_per_minute(voice.rate).to_string(),
        "-a".into(),
        voice.volume.clamp(0, 100).to_string(),
        // Read the text from standard input: no text can be mistaken for an option.
        "--stdin".into(),
    ]
}

pub(crate) struct EspeakNg {
    voice: Voice,
    child: Option<(Child, thread::JoinHandle<String>)>,
}

impl EspeakNg {
    /// Checks that the program runs at all.
    pub(crate) fn open(voice: &Voice) -> Result<EspeakNg, SpeechError> {
        let out = run_bounded(Command::new(NAME).arg("--version"), PROBE_LIMIT).map_err(|e| {
            SpeechError::Unavailable {
                backend: NAME,
                reason: match e {
                    ChildError::Start(e) => {
                        format!("cannot run espeak-ng ({e}); install the espeak-ng package")
                    }
                    other => format!("espeak-ng --version: {other}"),
                },
            }
        })?;
        if !out.status.success() {
            return Err(SpeechError::Unavailable {
                backend: NAME,
                reason: "espeak-ng --version failed".into(),
            });
        }
        Ok(EspeakNg {
            voice: voice.clone(),
            child: None,
        })
    }

    fn reap(&mut self) -> Result<bool, SpeechError> {
        let Some((child, _)) = self.child.as_mut() else {
            return Ok(false);
        };
        match child.try_wait() {
            Ok(None) => Ok(true),
            Ok(Some(status)) => {
                reaped(child);
                let errors = self
                    .child
                    .take()
                    .map(|(_, reader)| reader.join().unwrap_or_default())
                    .unwrap_or_default();
                // espeak-ng exits 0 even when it cannot open the sound device; its complaint
                // on standard error is the only sign that nothing was heard.
                if !status.success() {
                    return Err(failed(format!("exited with {status}: {}", errors.trim())));
                }
                if let Some(line) = errors
                    .lines()
                    .find(|l| l.starts_with("error:") || l.contains("Unknown PCM"))
                {
                    return Err(SpeechError::NoAudio {
                        backend: NAME,
                        detail: line.trim().to_string(),
                    });
                }
                Ok(false)
            }
            Err(e) => Err(failed(format!("cannot wait for espeak-ng: {e}"))),
        }
    }
}

impl Backend for EspeakNg {
    fn kind(&self) -> BackendKind {
        BackendKind::EspeakNg
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<(), SpeechError> {
        self.stop()?;
        let mut child = bound_to_hector(&mut Command::new(NAME))
            .args(arguments(&self.voice, lang))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| failed(format!("cannot start: {e}")))?;
        register(&child);
        if let Some(mut stdin) = child.stdin.take()
            && let Err(e) = stdin.write_all(clean(text).as_bytes())
        {
            kill_group(&mut child);
            return Err(failed(format!("cannot pass the text: {e}")));
        }
        let mut stderr = child.stderr.take();
        let reader = thread::spawn(move || {
            let mut s = String::new();
            if let Some(err) = stderr.as_mut() {
                let _ = err.take(64 * 1024).read_to_string(&mut s);
            }
            s
        });
        self.child = Some((child, reader));
        Ok(())
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        self.reap()
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        if let Some((mut child, reader)) = self.child.take() {
            kill_group(&mut child);
            let _ = reader.join();
        }
        Ok(())
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        self.voice = voice.clone();
        Ok(())
    }
}

impl Drop for EspeakNg {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// Writes `text` as a WAV file with espeak-ng, waiting at most `limit`.
pub(crate) fn write_wav(
    text: &str,
    lang: &str,
    voice: &Voice,
    path: &Path,
    limit: Duration,
) -> Result<(), SpeechError> {
    let mut child = bound_to_hector(&mut Command::new(NAME))
        .args(arguments(voice, lang))
        .arg("-w")
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| SpeechError::Unavailable {
            backend: NAME,
            reason: format!("cannot run espeak-ng ({e}); install the espeak-ng package"),
        })?;
    register(&child);
    if let Some(mut stdin) = child.stdin.take()
        && let Err(e) = stdin.write_all(clean(text).as_bytes())
    {
        kill_group(&mut child);
        return Err(failed(format!("cannot pass the text: {e}")));
    }
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => {
                reaped(&child);
                return Ok(());
            }
            Ok(Some(status)) => {
                reaped(&child);
                let mut err = String::new();
                if let Some(e) = child.stderr.take() {
                    let _ = e.take(64 * 1024).read_to_string(&mut err);
                }
                return Err(failed(format!("exited with {status}: {}", err.trim())));
            }
            Ok(None) if start.elapsed() > limit => {
                kill_group(&mut child);
                return Err(failed(format!(
                    "did not finish within {} s",
                    limit.as_secs()
                )));
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(failed(format!("cannot wait for espeak-ng: {e}"))),
        }
    }
}

/// Voices espeak-ng has for a language (or all), as (name, language).
pub(crate) fn list_voices(lang: Option<&str>) -> Result<Vec<(String, String)>, SpeechError> {
    let arg = match lang {
        Some(l) => format!("--voices={}", clean(l)),
        None => "--voices".to_string(),
    };
    let out = run_bounded(Command::new(NAME).arg(arg), PROBE_LIMIT).map_err(|e| {
        SpeechError::Unavailable {
            backend: NAME,
            reason: format!("espeak-ng: {e}"),
        }
    })?;
    let text = String::from_utf8_lossy(&out.stdout);
    // Columns: Pty Language Age/Gender VoiceName File Other-languages
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            match cols.as_slice() {
                [_, lang, _, name, ..] => Some((name.to_string(), lang.to_string())),
                _ => None,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_maps_to_words_per_minute() {
        assert_eq!(words_per_minute(0), 175);
        assert_eq!(words_per_minute(-100), 80);
        assert_eq!(words_per_minute(100), 450);
        assert_eq!(words_per_minute(500), 450);
    }

    #[test]
    fn arguments_never_carry_the_text() {
        let args = arguments(&Voice::default(), "de");
        assert_eq!(args, ["-v", "de", "-s", "175", "-a", "100", "--stdin"]);
    }
}
