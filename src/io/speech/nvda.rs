//! NVDA, through its controller client beside hector.exe (`nvdaControllerClient.dll` of
//! NVDA 2024.1 and later first, else `nvdaControllerClient64.dll`):
//! every utterance is spoken and shown on the braille display NVDA drives. NVDA speaks with
//! the player's own NVDA voice and rate, and words of its own among hector's, so an urgent
//! message and every stop silence it (`BackendKind::is_screen_reader`).
//!
//! The end of an utterance: a client of NVDA 2024.1 or later has `speakSsml`, which, called
//! synchronously, returns when NVDA has said the SSML or was silenced, and reports the
//! `<mark>` hector puts at its end. That call waits, so it runs on a thread of its own: the
//! speech worker hands it the SSML and goes on, asks whether the end has come
//! (`is_speaking`), and silences NVDA with `cancelSpeech` at once whenever it must, which
//! also ends the waiting call. So a sound waits for the words before it (`end`). An older
//! client, or an NVDA older than its client (it refuses `speakSsml`), speaks through
//! `speakText`, whose end NVDA does not tell: it is estimated from the text's length at the
//! player's screen-reader rate, as JAWS' is (`end`).
//!
//! NVDA counts as running when its client says so and one of NVDA's programs runs
//! (`nvda.exe`, `nvda_uiAccess.exe`, …): the client is an RPC stub, and an RPC runtime that
//! does not report a missing endpoint (wine's) makes it answer "running" with no NVDA.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, unbounded};

use crate::io::platform::screen_reader::{
    self, NVDA_CLIENT, NVDA_CLIENT_2024, Nvda, NvdaError, Plain, Ssml,
};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};
use super::end::{self, EndSignal, Pending};

const NAME: &str = "NVDA";

/// Utterance numbers, unique in the run: a late mark of an earlier backend never ends a
/// later utterance.
static NEXT_NUMBER: AtomicU64 = AtomicU64::new(1);

pub(crate) struct NvdaBackend {
    nvda: Nvda,
    /// Speaking with the end told, when the client can.
    told: Option<Told>,
    /// The utterance being said and its number (0 for one said through `speakText`), while
    /// its end is awaited.
    pending: Option<(u64, Pending)>,
    /// The player's NVDA rate in words per minute, for the estimated end of `speakText`.
    wpm: u32,
}

/// `speakSsml` on a thread of its own, where its synchronous call may wait.
struct Told {
    requests: Sender<Request>,
    /// The highest utterance number whose call has returned.
    returned: Arc<AtomicU64>,
    /// NVDA refused SSML (older than its client): `speakText` from then on.
    refused: Arc<AtomicBool>,
    /// The last utterance handed over: its number and when hector stopped waiting for it.
    last: Option<(u64, Instant)>,
}

struct Request {
    number: u64,
    ssml: String,
    text: String,
}

impl Told {
    fn start(ssml: Ssml, plain: Plain) -> Option<Told> {
        if !ssml.accepted() {
            return None;
        }
        ssml.report_marks().ok()?;
        let (requests, rx) = unbounded();
        let returned = Arc::new(AtomicU64::new(0));
        let refused = Arc::new(AtomicBool::new(false));
        let (r, f) = (returned.clone(), refused.clone());
        std::thread::Builder::new()
            .name("hector-speech-nvda-ssml".into())
            .spawn(move || say_each_to_the_end(ssml, plain, &rx, &r, &f))
            .ok()?;
        Some(Told {
            requests,
            returned,
            refused,
            last: None,
        })
    }

    /// Whether its thread can take the next utterance: NVDA has not refused SSML, and the
    /// last call did not outlast hector's wait for it by far (a call that never returns
    /// would hold every later one).
    fn usable(&self, now: Instant) -> bool {
        !self.refused.load(Ordering::SeqCst)
            && self.last.is_none_or(|(n, given_up)| {
                self.returned.load(Ordering::SeqCst) >= n || now < given_up + super::HANG_LIMIT
            })
    }
}

/// The thread of `speakSsml`: each utterance said to its end (or until NVDA is silenced),
/// its number then noted as returned. Ends when the backend is dropped.
fn say_each_to_the_end(
    ssml: Ssml,
    plain: Plain,
    requests: &Receiver<Request>,
    returned: &AtomicU64,
    refused: &AtomicBool,
) {
    for r in requests {
        if refused.load(Ordering::SeqCst) || ssml.say_to_the_end(&r.ssml).is_err() {
            // An NVDA older than its client answers that it does not know the call: the
            // words go the old way, and every later one too.
            refused.store(true, Ordering::SeqCst);
            let _ = plain.speak(&r.text);
        }
        returned.fetch_max(r.number, Ordering::SeqCst);
    }
}

impl NvdaBackend {
    pub(crate) fn open(voice: &Voice) -> Result<NvdaBackend, SpeechError> {
        let running = nvda_runs();
        let dir = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(std::path::Path::to_path_buf))
            .ok_or_else(|| SpeechError::ClientMissing {
                backend: NAME,
                reason: "the folder of hector.exe is unknown".into(),
                running,
            })?;
        // NVDA 2024.1's client (its new name) when it lies there and loads, else the older
        // name: a 32-bit copy of the new one does not load, and the other is tried.
        let newer = dir.join(NVDA_CLIENT_2024);
        let opened = match newer.is_file().then(|| Nvda::open(&newer)) {
            Some(Err(NvdaError::ClientMissing(_) | NvdaError::Broken(_))) | None => {
                Nvda::open(&dir.join(NVDA_CLIENT))
            }
            Some(other) => other,
        };
        let nvda = opened.map_err(|e| match e {
            NvdaError::ClientMissing(reason) => SpeechError::ClientMissing {
                backend: NAME,
                reason,
                running,
            },
            NvdaError::NotRunning(status) => SpeechError::NotRunning {
                backend: NAME,
                reason: format!("its controller client answered {status}"),
            },
            NvdaError::Broken(reason) => SpeechError::Unavailable {
                backend: NAME,
                reason,
            },
        })?;
        if !running {
            return Err(SpeechError::NotRunning {
                backend: NAME,
                reason: "its client answers, but no program of NVDA runs".into(),
            });
        }
        let told = nvda.ssml().and_then(|ssml| Told::start(ssml, nvda.plain()));
        Ok(NvdaBackend {
            nvda,
            told,
            pending: None,
            wpm: voice.reader_wpm,
        })
    }
}

/// Whether one of NVDA's programs runs (`nvda.exe`, `nvda_uiAccess.exe`, …).
fn nvda_runs() -> bool {
    screen_reader::program_running(&|exe| {
        let exe = exe.to_ascii_lowercase();
        exe.starts_with("nvda") && exe.ends_with(".exe")
    })
}

fn refused(what: &str, status: u32) -> SpeechError {
    SpeechError::Failed {
        backend: NAME,
        reason: format!("NVDA refused to {what} (status {status})"),
    }
}

impl Backend for NvdaBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Nvda
    }

    fn speak(&mut self, text: &str, _lang: &str) -> Result<(), SpeechError> {
        let text = clean(text);
        let now = Instant::now();
        self.pending = None;
        if self.told.as_ref().is_some_and(|t| !t.usable(now)) {
            self.told = None;
        }
        let handed = self.told.as_mut().and_then(|t| {
            let number = NEXT_NUMBER.fetch_add(1, Ordering::SeqCst);
            let pending = Pending::new(EndSignal::Told, &text, now);
            let request = Request {
                number,
                ssml: end::ssml(&text, number),
                text: text.clone(),
            };
            t.requests.send(request).ok()?;
            t.last = Some((number, pending.given_up_at()));
            Some((number, pending))
        });
        match handed {
            Some(p) => self.pending = Some(p),
            None => {
                self.nvda.speak(&text).map_err(|s| refused("speak", s))?;
                // NVDA does not tell the end of `speakText`: estimated, as JAWS' is.
                let estimated = Pending::new(EndSignal::Estimated(self.wpm), &text, now);
                self.pending = Some((0, estimated));
            }
        }
        // Without a braille display NVDA takes the message and shows it nowhere; a refusal
        // here leaves the speech, which went through.
        let _ = self.nvda.braille(&text);
        Ok(())
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        let Some((number, pending)) = self.pending else {
            return Ok(false);
        };
        let told = screen_reader::mark_reached_number() >= number
            || self
                .told
                .as_ref()
                .is_none_or(|t| t.returned.load(Ordering::SeqCst) >= number);
        let speaking = pending.speaking(Instant::now(), told);
        if !speaking {
            self.pending = None;
        }
        Ok(speaking)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.pending = None;
        // Also ends a waiting `speakSsml`: NVDA returns from it when silenced.
        self.nvda.cancel().map_err(|s| refused("stop", s))
    }

    fn end(&self) -> Option<end::End> {
        Some(if self.told.is_some() {
            end::End::Reported
        } else {
            end::End::Estimated
        })
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        // NVDA's voice, rate and volume are the player's NVDA settings; only the rate it is
        // taken to speak at, for an estimated end, is hector's.
        self.wpm = voice.reader_wpm;
        Ok(())
    }
}
