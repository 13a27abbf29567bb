//! Where the sound comes from: the audio source is a trait, so that a recording stands in for
//! the microphone (`hector listen`, the tests). The microphone is a recorder program hector
//! starts as a child (io::child's rules: a process group of its own, killed with hector):
//! `parec` (PulseAudio and PipeWire's pulse server), `pw-record` (PipeWire), `arecord` (ALSA),
//! the first that gives sound.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};

use crate::core::voice::{Cut, RATE};
use crate::io::child::{bound_to_hector, kill_group, register};
use crate::io::voice::wav::{self, WavProblem};

/// Samples in a block: 20 ms. The end of a phrase is seen at the end of the block in which
/// the recogniser's flag falls, so a block's length adds to the wait for the answer (100 ms
/// blocks added 50 ms on average, 100 at most).
pub(crate) const BLOCK: usize = RATE / 50;

/// A recording is read whole up to this size (ten minutes of CD sound).
const MAX_FILE: u64 = 128 * 1024 * 1024;

/// How long a recorder may take to send its first sound.
const FIRST_SOUND: Duration = Duration::from_secs(2);
/// A recorder that sends nothing for this long has stopped.
const STALL: Duration = Duration::from_secs(3);

/// Sound as the recogniser takes it: 16 kHz mono, 16 bits, block by block.
pub trait AudioSource: Send {
    /// The next block; `None` at the end of the sound.
    fn next_block(&mut self) -> Result<Option<Vec<i16>>, SourceError>;
    /// Where a phrase of this source ends.
    fn cut(&self) -> Cut;
}

/// Why a source gives no sound.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// The recorder ended or stalled while listening.
    #[error("{program} stopped: {reason}")]
    Ended { program: String, reason: String },
}

/// Why a recording cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordingError {
    #[error("{0}")]
    Read(String),
    #[error("no WAV recording hector reads: {0:?}")]
    NotWav(WavProblem),
}

/// A WAV recording: one phrase, to its end.
#[derive(Debug)]
pub struct Recording {
    samples: Vec<i16>,
    at: usize,
}

impl Recording {
    pub fn open(path: &Path) -> Result<Recording, RecordingError> {
        let read = || -> std::io::Result<Vec<u8>> {
            let file = std::fs::File::open(path)?;
            if !file.metadata()?.is_file() {
                return Err(std::io::Error::other("not a regular file"));
            }
            let mut bytes = Vec::new();
            file.take(MAX_FILE).read_to_end(&mut bytes)?;
            Ok(bytes)
        };
        let bytes = read().map_err(|e| RecordingError::Read(e.to_string()))?;
        Recording::from_wav(&bytes)
    }

    pub(crate) fn from_wav(bytes: &[u8]) -> Result<Recording, RecordingError> {
        let samples = wav::decode(bytes).map_err(RecordingError::NotWav)?;
        Ok(Recording { samples, at: 0 })
    }

    /// Samples of 16 kHz mono sound, heard as a recording.
    pub fn from_samples(samples: Vec<i16>) -> Recording {
        Recording { samples, at: 0 }
    }

    pub fn samples(&self) -> &[i16] {
        &self.samples
    }
}

impl AudioSource for Recording {
    fn next_block(&mut self) -> Result<Option<Vec<i16>>, SourceError> {
        if self.at >= self.samples.len() {
            return Ok(None);
        }
        let end = (self.at + BLOCK).min(self.samples.len());
        let block = self.samples[self.at..end].to_vec();
        self.at = end;
        Ok(Some(block))
    }

    fn cut(&self) -> Cut {
        Cut::End
    }
}

/// A recording heard as the microphone hears it (for the tests and the benchmark of that
/// path): its phrase ends at the first silence, and after the recording the quiet of its
/// last 100 ms goes on for up to two seconds. `paced`: each block comes when a microphone
/// would give it, at its end.
#[derive(Debug)]
pub struct LiveRecording {
    samples: Vec<i16>,
    quiet: Vec<i16>,
    at: usize,
    paced: Option<Instant>,
}

impl LiveRecording {
    pub fn new(samples: Vec<i16>, paced: bool) -> LiveRecording {
        let quiet = samples[samples.len().saturating_sub(RATE / 10)..].to_vec();
        LiveRecording {
            samples,
            quiet,
            at: 0,
            paced: paced.then(Instant::now),
        }
    }

    /// When the sound read so far ended: when its last block came (paced), or now.
    pub fn heard_until(&self) -> Instant {
        let now = Instant::now();
        self.paced.map_or(now, |began| {
            began + Duration::from_secs_f64(self.at as f64 / RATE as f64)
        })
    }
}

impl AudioSource for LiveRecording {
    fn next_block(&mut self) -> Result<Option<Vec<i16>>, SourceError> {
        if self.at >= self.samples.len() + 2 * RATE || self.quiet.is_empty() {
            return Ok(None);
        }
        let block: Vec<i16> = (self.at..self.at + BLOCK)
            .map(|i| match self.samples.get(i) {
                Some(s) => *s,
                None => self.quiet[(i - self.samples.len()) % self.quiet.len()],
            })
            .collect();
        self.at += BLOCK;
        if let Some(began) = self.paced {
            let due = began + Duration::from_secs_f64(self.at as f64 / RATE as f64);
            thread::sleep(due.saturating_duration_since(Instant::now()));
        }
        Ok(Some(block))
    }

    fn cut(&self) -> Cut {
        Cut::FirstSilence
    }
}

/// A recorder program and its arguments for 16 kHz mono s16le on standard output.
const RECORDERS: [(&str, &[&str]); 3] = [
    (
        "parec",
        &[
            "--raw",
            "--format=s16le",
            "--rate=16000",
            "--channels=1",
            "--latency-msec=20",
        ],
    ),
    (
        "pw-record",
        &[
            "--rate",
            "16000",
            "--channels",
            "1",
            "--format",
            "s16",
            "--latency",
            "20ms",
            "-",
        ],
    ),
    (
        "arecord",
        &[
            "-q", "-t", "raw", "-f", "S16_LE", "-r", "16000", "-c", "1", "-F", "20000",
        ],
    ),
];

/// Why a recorder gives no sound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RecorderProblem {
    Missing(String),
    Failed { program: String, reason: String },
    Silent(String),
}

/// The microphone, through the first recorder that gives sound.
pub(crate) struct Microphone {
    program: String,
    child: Child,
    blocks: Receiver<Vec<i16>>,
    /// The recorder's standard error, read once it ended.
    errors: Receiver<String>,
}

impl Microphone {
    /// Starts the first recorder that sends sound; each one's problem otherwise. `PATH` is
    /// searched as the system does.
    pub(crate) fn open() -> Result<Microphone, Vec<RecorderProblem>> {
        let mut problems = Vec::new();
        for (program, args) in RECORDERS {
            match Microphone::start(program, args) {
                Ok(m) => return Ok(m),
                Err(p) => problems.push(p),
            }
        }
        Err(problems)
    }

    fn start(program: &str, args: &[&str]) -> Result<Microphone, RecorderProblem> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = match bound_to_hector(&mut command).spawn() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(RecorderProblem::Missing(program.to_string()));
            }
            Err(e) => {
                return Err(RecorderProblem::Failed {
                    program: program.to_string(),
                    reason: e.to_string(),
                });
            }
        };
        register(&child);
        // 6.4 s of sound waits while a phrase is decoded.
        let (tx, blocks) = bounded::<Vec<i16>>(320);
        if let Some(mut out) = child.stdout.take() {
            let _ = thread::Builder::new()
                .name("hector-microphone".into())
                .spawn(move || {
                    let mut bytes = vec![0u8; BLOCK * 2];
                    loop {
                        if out.read_exact(&mut bytes).is_err() {
                            return;
                        }
                        let block = bytes
                            .chunks_exact(2)
                            .map(|b| i16::from_le_bytes([b[0], b[1]]))
                            .collect();
                        if tx.send(block).is_err() {
                            return;
                        }
                    }
                });
        }
        let (etx, errors) = bounded::<String>(1);
        if let Some(err) = child.stderr.take() {
            let _ = thread::Builder::new()
                .name("hector-microphone-err".into())
                .spawn(move || {
                    let mut text = String::new();
                    let _ = err.take(4096).read_to_string(&mut text);
                    let _ = etx.send(text.trim().lines().last().unwrap_or("").to_string());
                });
        }
        let mut mic = Microphone {
            program: program.to_string(),
            child,
            blocks,
            errors,
        };
        match mic.blocks.recv_timeout(FIRST_SOUND) {
            // The first block is only a sign of life: it is dropped.
            Ok(_) => Ok(mic),
            Err(RecvTimeoutError::Disconnected) => {
                let reason = mic.reason();
                Err(RecorderProblem::Failed {
                    program: program.to_string(),
                    reason,
                })
            }
            Err(RecvTimeoutError::Timeout) => Err(RecorderProblem::Silent(program.to_string())),
        }
    }

    /// The recorder's last words on standard error, once it ended.
    fn reason(&mut self) -> String {
        let said = self
            .errors
            .recv_timeout(Duration::from_millis(500))
            .unwrap_or_default();
        let status = self.child.try_wait().ok().flatten();
        match (said.is_empty(), status) {
            (false, _) => said,
            (true, Some(s)) => s.to_string(),
            (true, None) => "no sound".to_string(),
        }
    }

    /// Drops the sound recorded while nobody listened: a phrase begins now.
    pub(crate) fn drain(&mut self) {
        while self.blocks.try_recv().is_ok() {}
    }
}

impl AudioSource for Microphone {
    fn next_block(&mut self) -> Result<Option<Vec<i16>>, SourceError> {
        match self.blocks.recv_timeout(STALL) {
            Ok(b) => Ok(Some(b)),
            Err(_) => Err(SourceError::Ended {
                program: self.program.clone(),
                reason: self.reason(),
            }),
        }
    }

    fn cut(&self) -> Cut {
        Cut::FirstSilence
    }
}

impl Drop for Microphone {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_is_read_in_blocks_to_its_end() {
        // 16 kHz mono 16-bit: 2.5 blocks of a steady sample.
        let n = BLOCK * 5 / 2;
        let mut wav = Vec::new();
        wav.extend_from_slice(b"RIFF");
        wav.extend_from_slice(&(36 + 2 * n as u32).to_le_bytes());
        wav.extend_from_slice(b"WAVEfmt ");
        wav.extend_from_slice(&16u32.to_le_bytes());
        wav.extend_from_slice(&1u16.to_le_bytes());
        wav.extend_from_slice(&1u16.to_le_bytes());
        wav.extend_from_slice(&16_000u32.to_le_bytes());
        wav.extend_from_slice(&32_000u32.to_le_bytes());
        wav.extend_from_slice(&2u16.to_le_bytes());
        wav.extend_from_slice(&16u16.to_le_bytes());
        wav.extend_from_slice(b"data");
        wav.extend_from_slice(&(2 * n as u32).to_le_bytes());
        for _ in 0..n {
            wav.extend_from_slice(&100i16.to_le_bytes());
        }
        let mut r = Recording::from_wav(&wav).expect("a recording");
        let sizes: Vec<usize> = std::iter::from_fn(|| r.next_block().expect("a block"))
            .map(|b| b.len())
            .collect();
        assert_eq!(sizes, vec![BLOCK, BLOCK, BLOCK / 2]);
        assert_eq!(r.cut(), Cut::End);
    }

    #[test]
    fn bytes_that_are_no_wav_are_refused_with_the_reason() {
        assert_eq!(
            Recording::from_wav(b"hello").map(|_| ()),
            Err(RecordingError::NotWav(WavProblem::NotRiff))
        );
    }
}
