//! speech-dispatcher through libspeechd. The language is set per utterance (instant, unlike
//! choosing a voice from the engine's list, which takes over a second with espeak-ng).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use speech_dispatcher::{Connection, Mode, Priority};

use super::backend::{Backend, BackendKind, SpeechError, Voice, clean};

const NONE: u64 = 0;
/// The longest the words wait for one sound icon to be played (hector's cues last at most
/// 600 ms); past it they go anyway.
const ICON_WAIT: Duration = Duration::from_millis(700);
/// The pause between an icon's end and the words after it (see `speak`).
const AFTER_ICON: Duration = Duration::from_millis(20);
/// How often the end of an icon is looked for.
const ICON_POLL: Duration = Duration::from_millis(5);
/// Waits in a row that ran out before the words stop waiting for icons at all.
const GIVE_UP_WAITING: u8 = 3;

pub(crate) struct SpeechDispatcher {
    connection: Connection,
    /// The message id of the utterance being spoken; 0 when nothing is.
    speaking: Arc<AtomicU64>,
    /// The id of the last utterance whose end (or cancel) the daemon reported: on a busy
    /// machine the end may come before `say` has returned its id.
    ended: Arc<AtomicU64>,
    /// Every end or cancel the daemon reported, of any message (sound icons have no id here).
    events: Arc<AtomicU64>,
    language: String,
    /// The sound icons queued for the next text, and `events` before the first of them.
    cued: Option<(u64, u64)>,
    /// Icon waits in a row that ran out: at [`GIVE_UP_WAITING`] this daemon's module is taken
    /// not to report icons' ends, and the words no longer wait for them.
    icon_waits_lapsed: u8,
}

fn failed(reason: impl Into<String>) -> SpeechError {
    SpeechError::Failed {
        backend: "speech-dispatcher",
        reason: reason.into(),
    }
}

impl SpeechDispatcher {
    /// Connects to the daemon (SPEECHD_ADDRESS or the user's default; libspeechd may start it).
    pub(crate) fn open(voice: &Voice) -> Result<SpeechDispatcher, SpeechError> {
        let connection =
            Connection::open("hector", "hector", "hector", Mode::Threaded).map_err(|e| {
                SpeechError::Unavailable {
                    backend: "speech-dispatcher",
                    reason: format!("cannot connect ({e})"),
                }
            })?;
        let speaking = Arc::new(AtomicU64::new(NONE));
        let ended = Arc::new(AtomicU64::new(NONE));
        let events = Arc::new(AtomicU64::new(0));
        let done = |flag: Arc<AtomicU64>, ended: Arc<AtomicU64>, events: Arc<AtomicU64>| {
            move |msg: usize, _client: usize| {
                events.fetch_add(1, Ordering::SeqCst);
                // Noted first, so that `speak` sees it if the id is not known yet.
                ended.store(msg as u64, Ordering::SeqCst);
                // Only the end of the utterance we are waiting for counts.
                let _ = flag.compare_exchange(msg as u64, NONE, Ordering::SeqCst, Ordering::SeqCst);
            }
        };
        connection.on_end(Some(Box::new(done(
            speaking.clone(),
            ended.clone(),
            events.clone(),
        ))));
        connection.on_cancel(Some(Box::new(done(
            speaking.clone(),
            ended.clone(),
            events.clone(),
        ))));
        let mut backend = SpeechDispatcher {
            connection,
            speaking,
            ended,
            events,
            language: String::new(),
            cued: None,
            icon_waits_lapsed: 0,
        };
        backend.set_voice(voice)?;
        Ok(backend)
    }
}

impl SpeechDispatcher {
    /// Waits, briefly, until the daemon has reported the end of the `icons` sound icons
    /// queued since `events` stood at `before`.
    ///
    /// The daemon sends its module the next message as soon as the module reports an icon's
    /// end, and the generic module (sd_generic, 0.11) reports that end before it is ready for
    /// more: the text that follows is then refused ("CANT SPEAK") and silently dropped, and
    /// neither its words nor its end ever come. Sent only after the icons have ended, and a
    /// moment later, the text finds the module ready.
    ///
    /// A module that drops icons without an end would make every move's words wait: after a
    /// few waits in a row that ran out, they no longer do.
    fn wait_for_icons(&mut self, icons: u64, before: u64) {
        if self.icon_waits_lapsed >= GIVE_UP_WAITING {
            return;
        }
        let deadline = Instant::now() + ICON_WAIT * u32::try_from(icons).unwrap_or(u32::MAX);
        while self.events.load(Ordering::SeqCst) < before + icons {
            if Instant::now() >= deadline {
                self.icon_waits_lapsed += 1;
                return;
            }
            std::thread::sleep(ICON_POLL);
        }
        self.icon_waits_lapsed = 0;
        std::thread::sleep(AFTER_ICON);
    }
}

impl Backend for SpeechDispatcher {
    fn kind(&self) -> BackendKind {
        BackendKind::SpeechDispatcher
    }

    fn speak(&mut self, text: &str, lang: &str) -> Result<(), SpeechError> {
        let lang = clean(lang);
        if lang != self.language {
            self.connection
                .set_language(lang.as_str())
                .map_err(|e| failed(format!("cannot set language {lang}: {e}")))?;
            self.language = lang;
        }
        // A text after sound icons goes at their priority: at the text priority a new message
        // cancels the ones before it, icons included (hector sends one utterance at a time,
        // so its texts never meet there).
        let priority = match self.cued.take() {
            Some((icons, before)) => {
                self.wait_for_icons(icons, before);
                Priority::Message
            }
            None => Priority::Text,
        };
        // Set before saying: the end notification may arrive before `say` returns.
        self.speaking.store(u64::MAX, Ordering::SeqCst);
        match self.connection.say(priority, clean(text)) {
            Some(id) => {
                let _ = self.speaking.compare_exchange(
                    u64::MAX,
                    id,
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                );
                // The end may have come before the id was known: then the callback found no
                // match, and nothing would ever clear it. Either the callback sees the id
                // stored above or this sees its note, whichever comes last.
                if self.ended.load(Ordering::SeqCst) == id {
                    let _ = self.speaking.compare_exchange(
                        id,
                        NONE,
                        Ordering::SeqCst,
                        Ordering::SeqCst,
                    );
                }
                Ok(())
            }
            None => {
                self.speaking.store(NONE, Ordering::SeqCst);
                Err(failed("the daemon refused the text"))
            }
        }
    }

    fn is_speaking(&mut self) -> Result<bool, SpeechError> {
        Ok(self.speaking.load(Ordering::SeqCst) != NONE)
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.cued = None;
        self.connection
            .cancel()
            .map_err(|e| failed(format!("cannot stop: {e}")))?;
        self.speaking.store(NONE, Ordering::SeqCst);
        Ok(())
    }

    fn sound_icon(&mut self, name: &str) -> Result<(), SpeechError> {
        let name = std::ffi::CString::new(name)
            .map_err(|_| failed(format!("a sound icon's name holds a NUL: {name:?}")))?;
        // The binding's `sound_icon` sends a CHAR command: libspeechd's own call is used.
        // At the message priority, as the text after it: the daemon queues messages of that
        // priority in order (a text message would cancel the icon before it).
        let before = self.events.load(Ordering::SeqCst);
        #[allow(unsafe_code)]
        // SAFETY: the connection is open while `self` lives and is used from this thread
        // only; libspeechd reads the name during the call and keeps no pointer to it.
        let r = unsafe {
            speech_dispatcher_sys::spd_sound_icon(
                *self.connection.0,
                speech_dispatcher_sys::SPDPriority::SPD_MESSAGE,
                name.as_ptr(),
            )
        };
        if r == 0 {
            let (icons, first) = self.cued.unwrap_or((0, before));
            self.cued = Some((icons + 1, first));
            Ok(())
        } else {
            Err(failed("the daemon refused a sound icon"))
        }
    }

    fn set_voice(&mut self, voice: &Voice) -> Result<(), SpeechError> {
        self.connection
            .set_voice_rate(voice.rate.clamp(-100, 100))
            .map_err(|e| failed(format!("cannot set the rate: {e}")))?;
        self.connection
            .set_volume((voice.volume.clamp(0, 100) * 2) - 100)
            .map_err(|e| failed(format!("cannot set the volume: {e}")))?;
        let name = clean(&voice.name);
        if !name.is_empty() {
            let wanted = speech_dispatcher::Voice {
                name: name.clone(),
                language: self.language.clone(),
                variant: None,
            };
            self.connection
                .set_synthesis_voice(&wanted)
                .map_err(|e| failed(format!("cannot choose voice {name}: {e}")))?;
        }
        Ok(())
    }
}

/// Voices the daemon offers, as (name, language). Slow with espeak-ng (over a second): only
/// for `hector voices`, never on the start-up path.
pub(crate) fn list_voices() -> Result<Vec<(String, String)>, SpeechError> {
    let connection =
        Connection::open("hector", "voices", "hector", Mode::Threaded).map_err(|e| {
            SpeechError::Unavailable {
                backend: "speech-dispatcher",
                reason: format!("cannot connect ({e})"),
            }
        })?;
    let voices = connection
        .list_synthesis_voices()
        .map_err(|e| failed(format!("cannot list voices: {e}")))?;
    Ok(voices.into_iter().map(|v| (v.name, v.language)).collect())
}
