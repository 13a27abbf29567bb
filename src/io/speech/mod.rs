//! Speech: one thread owns the speech backend; the rest of hector only sends requests on a
//! channel, so nothing it says can make the program wait.
//!
//! ```text
//! Speaker (any thread) ──requests──> supervisor thread ──jobs──> worker thread (backend)
//!                                     queue policy, watchdog  <──events──
//! ```
//!
//! The supervisor keeps the queue (moves never lost, newer answers replace older ones, urgent
//! messages interrupt) and watches the worker: a backend call that does not return within two
//! seconds, or an utterance that does not end within its expected length plus two seconds,
//! means the backend hangs (speech-dispatcher without working audio blocks for ever, also in
//! `stop()`). The supervisor then abandons that worker thread, starts the next backend and
//! says so once; the utterance that was not confirmed is said again by the new backend.
//!
//! Sound cues go before the words of their utterance: speech-dispatcher queues them itself as
//! sound icons; for every other backend the worker plays them to their end before it hands
//! over the words (`platform::sound`), within [`SOUND_LIMIT`], so a sound is never heard over
//! words and never holds the worker near the watchdog's limit.

pub(crate) mod backend;
#[cfg(target_os = "linux")]
mod dispatcher;
pub(crate) mod end;
pub(crate) mod espeak;
#[cfg(windows)]
mod jaws;
#[cfg(windows)]
mod nvda;
pub(crate) mod print;
pub(crate) mod queue;
#[cfg(windows)]
mod sapi;
pub(crate) mod sounds;
mod tts_backend;

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, never, select, unbounded};

pub use backend::{Backend, BackendKind, SpeechError, Voice};
pub use print::{Behaviour, CaptureLog, Captured, SharedLog, Sink, stdout_sink};
pub(crate) use queue::{Kind, Played, Utterance};
use sounds::Clip;
pub use sounds::Sounds;

use crate::core::settings::BackendChoice;
use queue::{Effect, Queue};

/// How long a backend call or an overdue utterance may take before the backend counts as hung.
pub(crate) const HANG_LIMIT: Duration = Duration::from_secs(2);
/// The longest a sound cue lasts (they are a few hundred milliseconds), for the watchdog.
const ICON_LENGTH: Duration = Duration::from_millis(600);
/// The longest hector's own player may take for the sounds before one utterance: a cue
/// (at most [`ICON_LENGTH`]) with the player's start, well inside [`HANG_LIMIT`].
const SOUND_LIMIT: Duration = Duration::from_millis(1000);
/// How much longer than its sounds a printed line waits for them to end: the player's start
/// and the way through the speech thread.
const SOUND_MARGIN: Duration = Duration::from_millis(600);
/// How often the worker asks the backend whether it still speaks.
const POLL: Duration = Duration::from_millis(10);
/// How often the supervisor looks at the clock when nothing happens.
const TICK: Duration = Duration::from_millis(25);

/// One backend to try, in the order of a [`SpeechConfig::plan`].
#[derive(Clone, Debug)]
pub enum Plan {
    Open(BackendKind),
    /// A screen reader tried in passing: that it does not run is no news, the next is tried.
    IfRunning(BackendKind),
    /// A capturing backend (tests and benchmarks).
    Capture(SharedLog, Behaviour),
}

/// The systems whose speech differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum System {
    /// speech-dispatcher, espeak-ng.
    Linux,
    /// NVDA, JAWS, the system's voices (WinRT through tts, SAPI 5).
    Windows,
    /// The tts crate's voices (macOS).
    Other,
}

impl System {
    /// The system hector was built for.
    pub(crate) const THIS: System = if cfg!(target_os = "linux") {
        System::Linux
    } else if cfg!(windows) {
        System::Windows
    } else {
        System::Other
    };

    /// The system's own voices, best first.
    fn voices(self) -> &'static [BackendKind] {
        match self {
            System::Linux => &[BackendKind::SpeechDispatcher, BackendKind::EspeakNg],
            System::Windows => &[BackendKind::Tts, BackendKind::Sapi],
            System::Other => &[BackendKind::Tts],
        }
    }
}

impl Plan {
    fn kind(&self) -> BackendKind {
        match self {
            Plan::Open(kind) | Plan::IfRunning(kind) => *kind,
            Plan::Capture(..) => BackendKind::Capture,
        }
    }

    /// Whether its backend is a screen reader ([`BackendKind::is_screen_reader`]).
    fn is_screen_reader(&self) -> bool {
        match self {
            Plan::Capture(_, behaviour) => {
                matches!(behaviour, Behaviour::Untimed | Behaviour::Reader(_))
            }
            plan => plan.kind().is_screen_reader(),
        }
    }

    /// The backends to try for a choice on this system, best first.
    pub(crate) fn for_choice(choice: BackendChoice) -> Vec<Plan> {
        Plan::for_choice_on(choice, System::THIS)
    }

    /// The backends to try for a choice on a system, best first; printing is always the last
    /// resort. Automatic on Windows: the screen reader that runs (NVDA, then JAWS), then the
    /// system's voices. A backend named is tried first; when it is absent, the system's
    /// voices follow (speech-dispatcher asked for on Windows says why it does not run).
    pub(crate) fn for_choice_on(choice: BackendChoice, system: System) -> Vec<Plan> {
        use BackendKind::*;
        let (first, voices): (Vec<Plan>, &[BackendKind]) = match choice {
            BackendChoice::Auto if system == System::Windows => (
                vec![Plan::IfRunning(Nvda), Plan::IfRunning(Jaws)],
                system.voices(),
            ),
            BackendChoice::Auto => (Vec::new(), system.voices()),
            BackendChoice::EspeakNg => (vec![Plan::Open(EspeakNg)], &[]),
            BackendChoice::Tts if system == System::Windows => (vec![Plan::Open(Tts)], &[Sapi]),
            BackendChoice::Tts => (vec![Plan::Open(Tts)], &[EspeakNg]),
            BackendChoice::Print => (Vec::new(), &[]),
            BackendChoice::SpeechDispatcher => {
                (vec![Plan::Open(SpeechDispatcher)], system.voices())
            }
            BackendChoice::Nvda => (vec![Plan::Open(Nvda)], system.voices()),
            BackendChoice::Jaws => (vec![Plan::Open(Jaws)], system.voices()),
            BackendChoice::Sapi => (vec![Plan::Open(Sapi)], system.voices()),
        };
        let mut plan = first;
        for kind in voices.iter().chain([&Print]) {
            if !plan.iter().any(|p| p.kind() == *kind) {
                plan.push(Plan::Open(*kind));
            }
        }
        plan
    }
}

/// Everything the speech thread needs to start.
#[derive(Clone)]
pub struct SpeechConfig {
    pub plan: Vec<Plan>,
    /// Language code for the engine when a request names none (e.g. "de").
    pub language: String,
    pub voice: Voice,
    /// Where the print backend writes.
    pub sink: Sink,
    pub hang_limit: Duration,
    /// hector's sound cues; none: no sounds.
    pub sounds: Option<Sounds>,
}

impl SpeechConfig {
    pub(crate) fn new(choice: BackendChoice, language: &str, voice: Voice) -> SpeechConfig {
        SpeechConfig {
            plan: Plan::for_choice(choice),
            language: language.to_string(),
            voice,
            sink: stdout_sink(),
            hang_limit: HANG_LIMIT,
            sounds: None,
        }
    }
}

/// Why a backend was given up, for what the player hears (the reason's text is for the log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A call or an utterance did not end in time.
    Hung,
    /// It has no sound device to speak on.
    NoAudio,
    /// It could not be started or refused to speak.
    Failed,
    /// It has no form on this system (speech-dispatcher on Windows, NVDA on Linux).
    NotOnThisSystem,
    /// A screen reader asked for by name that is not running.
    NotRunning,
    /// A screen reader whose client is not beside hector.exe (NVDA's controller client).
    ClientMissing,
}

impl Cause {
    fn of(e: &SpeechError) -> Cause {
        match e {
            SpeechError::NoAudio { .. } => Cause::NoAudio,
            SpeechError::NotOnThisSystem { .. } => Cause::NotOnThisSystem,
            SpeechError::NotRunning { .. } => Cause::NotRunning,
            SpeechError::ClientMissing { .. } => Cause::ClientMissing,
            _ => Cause::Failed,
        }
    }
}

/// What the speech thread tells the program (to be shown, and spoken where it can be).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The first backend that works, and for a screen reader how the end of its words is
    /// known (also sent after a switch to one).
    Using(BackendKind, Option<end::End>),
    /// A backend failed or hung; this one took over.
    Switched {
        from: BackendKind,
        to: BackendKind,
        cause: Cause,
        /// For the log, in hector's words.
        reason: String,
        /// The system's own words about it, if it said any.
        system: Option<String>,
    },
    /// No backend works: nothing more will be said.
    Silent {
        reason: String,
        system: Option<String>,
    },
    /// hector's own player cannot play the sound cues (no player program, no sound device):
    /// said once; the words go on without them.
    NoSound {
        /// For the log, in hector's words (which players were tried and how they ended).
        reason: String,
    },
}

#[derive(Debug)]
enum Request {
    Say(Utterance),
    Stop,
    Repeat,
    Mute(bool),
    Rate(i32),
    WhenIdle(Sender<()>),
}

/// A handle for saying things; cheap to clone, usable from any thread.
#[derive(Clone, Debug)]
pub struct Speaker {
    tx: Sender<Request>,
    language: String,
    /// The sounds played before words, to know how long they last; none: sounds are off.
    sounds: Option<Sounds>,
    /// No sound could be played (set by the speech thread): nothing waits for one.
    unplayable: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// The end of the sounds before an utterance's words, for a line printed after them.
#[must_use]
pub(crate) struct SoundsEnd {
    played: Receiver<()>,
    /// The sounds' length and a margin, at most [`SOUND_LIMIT`]: a player that hangs, or
    /// words still being said before them, never hold the line longer.
    limit: Duration,
}

impl SoundsEnd {
    /// Waits until the sounds have ended, were dropped or cannot play, at most its limit.
    pub(crate) fn wait(self) {
        let _ = self.played.recv_timeout(self.limit);
    }
}

impl Speaker {
    /// Starts the speech thread. Notices about backends arrive on the returned receiver.
    pub fn start(config: SpeechConfig) -> (Speaker, Receiver<Notice>) {
        let (tx, rx) = unbounded();
        let (notice_tx, notice_rx) = unbounded();
        let language = config.language.clone();
        let sounds = config.sounds.clone();
        let unplayable = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let supervisor = Supervisor::new(config, rx, notice_tx, unplayable.clone());
        let spawned = std::thread::Builder::new()
            .name("hector-speech".into())
            .spawn(move || supervisor.run());
        if spawned.is_err() {
            // Without a thread there is no speech; requests go nowhere and nothing blocks.
            errln!("hector: cannot start the speech thread");
        }
        (
            Speaker {
                tx,
                language,
                sounds,
                unplayable,
            },
            notice_rx,
        )
    }

    fn send(&self, r: Request) {
        // A closed channel means the speech thread has ended: nothing to do.
        let _ = self.tx.send(r);
    }

    pub(crate) fn say(&self, kind: Kind, text: impl Into<String>) {
        self.say_in(kind, text, &self.language.clone());
    }

    pub(crate) fn say_in(&self, kind: Kind, text: impl Into<String>, lang: &str) {
        // No sounds: nothing to wait for.
        let _ = self.say_cued(kind, text, lang, Vec::new());
    }

    /// Says `text` after the sounds of `cues`, in that order (either may be empty). The end
    /// of those sounds, when there are any to be heard (sounds on, playable, a file for the
    /// cues); a printed line waits for it.
    pub(crate) fn say_cued(
        &self,
        kind: Kind,
        text: impl Into<String>,
        lang: &str,
        cues: Vec<crate::core::cue::Cue>,
    ) -> Option<SoundsEnd> {
        let length = self
            .sounds
            .as_ref()
            .filter(|_| !self.unplayable.load(std::sync::atomic::Ordering::SeqCst))
            .map_or(Duration::ZERO, |s| s.length_of(&cues));
        let (played, end) = if length.is_zero() {
            (Played::default(), None)
        } else {
            let (tx, rx) = crossbeam_channel::bounded(1);
            let end = SoundsEnd {
                played: rx,
                limit: (length + SOUND_MARGIN).min(SOUND_LIMIT),
            };
            (Played(Some(tx)), Some(end))
        };
        self.send(Request::Say(Utterance {
            text: text.into(),
            kind,
            lang: lang.to_string(),
            cues,
            played,
        }));
        end
    }

    /// The language said in when a request names none.
    pub(crate) fn language(&self) -> &str {
        &self.language
    }

    /// A move announcement: queued, never dropped.
    pub fn announce(&self, text: impl Into<String>) {
        self.say(Kind::Move, text);
    }

    /// An answer to a question: replaces an older answer not yet spoken.
    #[cfg(test)]
    pub(crate) fn answer(&self, text: impl Into<String>) {
        self.say(Kind::Answer, text);
    }

    /// Flag fall, illegal move, board fault: interrupts.
    pub(crate) fn urgent(&self, text: impl Into<String>) {
        self.say(Kind::Urgent, text);
    }

    /// Silence now; what was queued is dropped.
    pub(crate) fn stop(&self) {
        self.send(Request::Stop);
    }

    /// Says the last thing again.
    pub(crate) fn repeat(&self) {
        self.send(Request::Repeat);
    }

    pub(crate) fn set_muted(&self, muted: bool) {
        self.send(Request::Mute(muted));
    }

    /// Changes the rate by `delta` (the rate stays within -100..100).
    pub(crate) fn change_rate(&self, delta: i32) {
        self.send(Request::Rate(delta));
    }

    /// A signal once everything queued so far has been said (or dropped), without waiting.
    pub(crate) fn when_idle(&self) -> Receiver<()> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(Request::WhenIdle(tx));
        rx
    }

    /// Waits until everything queued has been said (or dropped), at most `limit`.
    pub fn wait_idle(&self, limit: Duration) -> bool {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(Request::WhenIdle(tx));
        rx.recv_timeout(limit).is_ok()
    }
}

enum Job {
    Speak {
        id: u64,
        text: String,
        lang: String,
        /// Sound icons to queue before the text, in order.
        icons: Vec<String>,
        /// Sounds hector plays itself before the text, in order, each to its end.
        clips: Vec<Clip>,
        /// Told when the sounds have ended.
        played: Played,
        /// Silence the backend first: an urgent message to a backend that cannot tell when
        /// it has ended (a screen reader), which would otherwise queue it.
        interrupt: bool,
    },
    Stop,
    Voice(Voice),
}

enum WorkerEvent {
    /// Opened; how a screen reader's end is known.
    Ready(Option<end::End>),
    OpenFailed(SpeechError),
    Finished(u64),
    Failed(Option<u64>, SpeechError),
    /// hector's own player could not play a sound (why, for the log).
    SoundFailed(String),
}

type Busy = std::sync::Arc<std::sync::Mutex<Option<Instant>>>;

struct Worker {
    kind: BackendKind,
    /// A screen reader: it speaks on its own too, and tells the end late or not at all.
    screen_reader: bool,
    jobs: Sender<Job>,
    events: Receiver<WorkerEvent>,
    busy: Busy,
    ready: bool,
}

struct Current {
    id: u64,
    utterance: Utterance,
    deadline: Instant,
}

struct Supervisor {
    config: SpeechConfig,
    next_plan: usize,
    worker: Option<Worker>,
    /// The backend that failed, while its successor starts.
    failed: Option<(BackendKind, Cause, String, Option<String>)>,
    announced_first: bool,
    queue: Queue,
    current: Option<Current>,
    next_id: u64,
    muted: bool,
    voice: Voice,
    last: Option<Utterance>,
    idle_waiters: Vec<Sender<()>>,
    requests: Receiver<Request>,
    notices: Sender<Notice>,
    /// That the sounds cannot be played has been said (once is enough).
    told_no_sound: bool,
    /// Shared with the speakers: no sound can be played, so none is waited for.
    unplayable: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// Expected speaking time of a text at a rate: generous, it only bounds a hang.
fn expected_length(text: &str, rate: i32) -> Duration {
    let wpm = espeak::words_per_minute(rate).max(1);
    let per_char_ms = 90 * 175 / u64::from(wpm);
    Duration::from_millis(per_char_ms * text.chars().count() as u64)
}

impl Supervisor {
    fn new(
        config: SpeechConfig,
        requests: Receiver<Request>,
        notices: Sender<Notice>,
        unplayable: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Supervisor {
        let voice = config.voice.clone();
        let mut s = Supervisor {
            config,
            next_plan: 0,
            worker: None,
            failed: None,
            announced_first: false,
            queue: Queue::default(),
            current: None,
            next_id: 1,
            muted: false,
            voice,
            last: None,
            idle_waiters: Vec::new(),
            requests,
            notices,
            told_no_sound: false,
            unplayable,
        };
        s.start_next_worker();
        s
    }

    fn notice(&self, n: Notice) {
        let _ = self.notices.send(n);
    }

    fn start_next_worker(&mut self) {
        let Some(plan) = self.config.plan.get(self.next_plan).cloned() else {
            let (reason, system) = self.failed.take().map_or_else(
                || ("no speech backend configured".to_string(), None),
                |(_, _, r, system)| (r, system),
            );
            self.worker = None;
            self.queue.clear();
            self.notice(Notice::Silent { reason, system });
            return;
        };
        self.next_plan += 1;
        let (jobs_tx, jobs_rx) = unbounded();
        let (events_tx, events_rx) = unbounded();
        let busy: Busy = Default::default();
        let worker_busy = busy.clone();
        let voice = self.voice.clone();
        let sink = self.config.sink.clone();
        let kind = plan.kind();
        let screen_reader = plan.is_screen_reader();
        let spawned = std::thread::Builder::new()
            .name(format!("hector-speech-{}", kind.name()))
            .spawn(move || work(plan, voice, sink, jobs_rx, events_tx, worker_busy));
        match spawned {
            Ok(_) => {
                // Opening counts as a call: a connection that never answers is a hang.
                if let Ok(mut b) = busy.lock() {
                    b.get_or_insert_with(Instant::now);
                }
                self.worker = Some(Worker {
                    kind,
                    screen_reader,
                    jobs: jobs_tx,
                    events: events_rx,
                    busy,
                    ready: false,
                });
            }
            Err(e) => self.fail(
                Cause::Failed,
                format!("cannot start a thread for {kind}: {e}"),
            ),
        }
    }

    /// Abandons the current backend and moves on to the next one.
    fn fail(&mut self, cause: Cause, reason: String) {
        self.fail_with(cause, reason, None);
    }

    /// Abandons the current backend for an error of its own, keeping the system's words. A
    /// screen reader tried in passing that is not there is passed over without a word.
    fn fail_on(&mut self, e: &SpeechError) {
        let in_passing = matches!(
            self.next_plan
                .checked_sub(1)
                .and_then(|i| self.config.plan.get(i)),
            Some(Plan::IfRunning(_))
        );
        if in_passing && e.is_absence() {
            self.worker = None;
            if let Some(c) = self.current.take() {
                self.queue.put_back(c.utterance);
            }
            self.start_next_worker();
            return;
        }
        self.fail_with(Cause::of(e), e.to_string(), e.system_words());
    }

    fn fail_with(&mut self, cause: Cause, reason: String, system: Option<String>) {
        let kind = self.worker.take().map_or(BackendKind::Print, |w| w.kind);
        self.failed.get_or_insert((kind, cause, reason, system));
        if let Some(c) = self.current.take() {
            self.queue.put_back(c.utterance);
        }
        self.start_next_worker();
    }

    fn run(mut self) {
        loop {
            let events = self
                .worker
                .as_ref()
                .map_or_else(never, |w| w.events.clone());
            select! {
                recv(self.requests) -> r => match r {
                    Ok(req) => {
                        self.request(req);
                        // Take everything already waiting before choosing what to say, so
                        // that an answer replaced at once is never begun.
                        while let Ok(req) = self.requests.try_recv() {
                            self.request(req);
                        }
                    }
                    Err(_) => return,
                },
                recv(events) -> e => match e {
                    Ok(ev) => self.worker_event(ev),
                    Err(_) => self.fail(Cause::Failed, "the speech thread ended".into()),
                },
                default(TICK) => {}
            }
            self.watch();
            self.dispatch();
            self.wake_idle_waiters();
        }
    }

    fn request(&mut self, req: Request) {
        match req {
            Request::Say(u) => {
                // Said again later, nobody waits for its sounds.
                self.last = Some(Utterance {
                    played: Played::default(),
                    ..u.clone()
                });
                if self.muted || (self.worker.is_none() && self.next_plan >= self.config.plan.len())
                {
                    return;
                }
                if self
                    .queue
                    .push(u, self.current.as_ref().map(|c| &c.utterance))
                    == Effect::Interrupt
                {
                    self.interrupt();
                }
            }
            Request::Stop => {
                self.queue.clear();
                self.silence_current();
            }
            Request::Repeat => {
                if let Some(mut u) = self.last.clone() {
                    u.kind = Kind::Answer;
                    self.request(Request::Say(u));
                }
            }
            Request::Mute(muted) => {
                self.muted = muted;
                if muted {
                    self.queue.clear();
                    self.silence_current();
                }
            }
            Request::Rate(delta) => {
                self.voice.rate = (self.voice.rate + delta).clamp(-100, 100);
                self.send_voice();
            }
            Request::WhenIdle(tx) => self.idle_waiters.push(tx),
        }
    }

    fn send_voice(&self) {
        if let Some(w) = &self.worker {
            let _ = w.jobs.send(Job::Voice(self.voice.clone()));
        }
    }

    /// Stops what is being said; it goes back into the queue (moves are never lost).
    fn interrupt(&mut self) {
        if let Some(c) = self.current.take() {
            if let Some(w) = &self.worker {
                let _ = w.jobs.send(Job::Stop);
            }
            self.queue.put_back(c.utterance);
        }
    }

    /// Stops what is being said and forgets it. A screen reader may still be speaking (its
    /// own words, or hector's after it stopped waiting): it is silenced in any case.
    fn silence_current(&mut self) {
        let speaking = self.current.take().is_some();
        if let Some(w) = &self.worker
            && (speaking || (w.ready && w.screen_reader))
        {
            let _ = w.jobs.send(Job::Stop);
        }
    }

    fn worker_event(&mut self, ev: WorkerEvent) {
        match ev {
            WorkerEvent::Ready(end) => {
                let Some(w) = self.worker.as_mut() else {
                    return;
                };
                w.ready = true;
                let kind = w.kind;
                match self.failed.take() {
                    Some((from, cause, reason, system)) => {
                        self.announced_first = true;
                        self.notice(Notice::Switched {
                            from,
                            to: kind,
                            cause,
                            reason,
                            system,
                        });
                        if end.is_some() {
                            self.notice(Notice::Using(kind, end));
                        }
                    }
                    None => {
                        self.announced_first = true;
                        self.notice(Notice::Using(kind, end));
                    }
                }
            }
            WorkerEvent::OpenFailed(e) => self.fail_on(&e),
            WorkerEvent::Finished(id) => {
                if self.current.as_ref().is_some_and(|c| c.id == id) {
                    self.current = None;
                }
            }
            WorkerEvent::Failed(id, e) => {
                let ours = id.is_none() || self.current.as_ref().map(|c| c.id) == id;
                if ours {
                    self.fail_on(&e);
                }
            }
            WorkerEvent::SoundFailed(reason) => {
                self.unplayable
                    .store(true, std::sync::atomic::Ordering::SeqCst);
                if !std::mem::replace(&mut self.told_no_sound, true) {
                    self.notice(Notice::NoSound { reason });
                }
            }
        }
    }

    fn watch(&mut self) {
        let now = Instant::now();
        let limit = self.config.hang_limit;
        let hung_call = self.worker.as_ref().is_some_and(|w| {
            w.busy
                .lock()
                .ok()
                .and_then(|b| *b)
                .is_some_and(|since| now.duration_since(since) > limit)
        });
        if hung_call {
            let kind = self.worker.as_ref().map_or(BackendKind::Print, |w| w.kind);
            self.fail(
                Cause::Hung,
                format!("{kind} did not answer within {} seconds", limit.as_secs()),
            );
            return;
        }
        if self.current.as_ref().is_some_and(|c| now > c.deadline) {
            let kind = self.worker.as_ref().map_or(BackendKind::Print, |w| w.kind);
            self.fail(Cause::Hung, format!("{kind} did not finish speaking"));
        }
    }

    fn dispatch(&mut self) {
        if self.muted || self.current.is_some() {
            return;
        }
        let Some(w) = self.worker.as_ref().filter(|w| w.ready) else {
            return;
        };
        let Some(u) = self.queue.pop() else { return };
        let id = self.next_id;
        self.next_id += 1;
        let (icons, clips) = sounds_for(self.config.sounds.as_ref(), w.kind, &u.cues);
        // A screen reader speaks at its own rate, maybe after words of its own: it is waited
        // for as long as its backend waits for the end, never taken for hung before.
        let length = if w.screen_reader {
            end::longest_wait_of_any(&u.text)
        } else {
            expected_length(&u.text, self.voice.rate)
        };
        let deadline = Instant::now()
            + self.config.hang_limit
            + length
            + ICON_LENGTH * icons.len() as u32
            + if clips.is_empty() {
                Duration::ZERO
            } else {
                SOUND_LIMIT
            };
        if w.jobs
            .send(Job::Speak {
                id,
                text: u.text.clone(),
                lang: u.lang.clone(),
                icons,
                clips,
                played: u.played.clone(),
                interrupt: u.kind == Kind::Urgent && w.screen_reader,
            })
            .is_err()
        {
            self.queue.put_back(u);
            self.fail(Cause::Failed, "the speech thread ended".into());
            return;
        }
        self.current = Some(Current {
            id,
            utterance: u,
            deadline,
        });
    }

    fn wake_idle_waiters(&mut self) {
        let silent = self.worker.is_none();
        if !self.idle_waiters.is_empty()
            && self.current.is_none()
            && (self.queue.is_empty() || silent)
        {
            for w in self.idle_waiters.drain(..) {
                let _ = w.send(());
            }
        }
    }
}

/// How the sounds of `cues` are heard with a backend of `kind`: as sound icons that
/// speech-dispatcher queues before the words, or as sounds hector plays itself first (every
/// other backend, and speech-dispatcher when no icon name leads to hector's files).
fn sounds_for(
    sounds: Option<&Sounds>,
    kind: BackendKind,
    cues: &[crate::core::cue::Cue],
) -> (Vec<String>, Vec<Clip>) {
    let Some(sounds) = sounds.filter(|_| !cues.is_empty()) else {
        return (Vec::new(), Vec::new());
    };
    if kind.plays_sound_icons() {
        let icons = sounds.icon_names(cues);
        if !icons.is_empty() {
            return (icons, Vec::new());
        }
    }
    (Vec::new(), sounds.clips_for(cues))
}

fn open(plan: Plan, voice: &Voice, sink: Sink) -> Result<Box<dyn Backend>, SpeechError> {
    Ok(match plan {
        #[cfg(target_os = "linux")]
        Plan::Open(BackendKind::SpeechDispatcher) => {
            Box::new(dispatcher::SpeechDispatcher::open(voice)?)
        }
        #[cfg(not(target_os = "linux"))]
        Plan::Open(BackendKind::SpeechDispatcher) => {
            return Err(SpeechError::NotOnThisSystem {
                backend: BackendKind::SpeechDispatcher.name(),
            });
        }
        Plan::Open(BackendKind::EspeakNg) => Box::new(espeak::EspeakNg::open(voice)?),
        #[cfg(windows)]
        Plan::Open(BackendKind::Nvda) => Box::new(nvda::NvdaBackend::open(voice)?),
        #[cfg(windows)]
        Plan::Open(BackendKind::Jaws) => Box::new(jaws::JawsBackend::open(voice)?),
        #[cfg(windows)]
        Plan::Open(BackendKind::Sapi) => Box::new(sapi::SapiBackend::open(voice)?),
        #[cfg(not(windows))]
        Plan::Open(kind @ (BackendKind::Nvda | BackendKind::Jaws | BackendKind::Sapi)) => {
            return Err(SpeechError::NotOnThisSystem {
                backend: kind.name(),
            });
        }
        // Opened as any other; only its absence is taken differently (`fail_on`).
        Plan::IfRunning(kind) => return open(Plan::Open(kind), voice, sink),
        Plan::Open(BackendKind::Tts) => Box::new(tts_backend::TtsBackend::open(voice)?),
        Plan::Open(BackendKind::Print) => Box::new(print::Print::new(sink)),
        Plan::Open(BackendKind::Capture) => {
            Box::new(print::Capture::new(SharedLog::default(), Behaviour::Normal))
        }
        Plan::Capture(log, behaviour) => Box::new(print::Capture::new(log, behaviour)),
    })
}

/// The worker thread: owns the backend, runs one call at a time, marks itself busy during each
/// call so that the supervisor can see a hang.
fn work(
    plan: Plan,
    voice: Voice,
    sink: Sink,
    jobs: Receiver<Job>,
    events: Sender<WorkerEvent>,
    busy: Busy,
) {
    let mark = |on: bool| {
        if let Ok(mut b) = busy.lock() {
            *b = on.then(Instant::now);
        }
    };
    mark(true);
    let opened = open(plan, &voice, sink);
    mark(false);
    let mut backend = match opened {
        Ok(b) => b,
        Err(e) => {
            let _ = events.send(WorkerEvent::OpenFailed(e));
            return;
        }
    };
    if events.send(WorkerEvent::Ready(backend.end())).is_err() {
        return;
    }
    let mut speaking: Option<u64> = None;
    // Made at the first sound it plays: a backend that plays its own never needs it.
    let mut player: Option<crate::io::platform::sound::Player> = None;
    loop {
        let job = if speaking.is_some() {
            jobs.recv_timeout(POLL)
        } else {
            jobs.recv().map_err(|_| RecvTimeoutError::Disconnected)
        };
        let event = match job {
            Ok(job) => {
                let mut play = |clips: &[Clip]| {
                    let player = player.get_or_insert_with(crate::io::platform::sound::Player::new);
                    if let Err(reason) = play_clips(player, clips) {
                        let _ = events.send(WorkerEvent::SoundFailed(reason));
                    }
                };
                run_job(job, backend.as_mut(), &mut speaking, &mark, &mut play)
            }
            Err(RecvTimeoutError::Timeout) => poll_speaking(backend.as_mut(), &mut speaking, &mark),
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if let Some(event) = event
            && events.send(event).is_err()
        {
            return;
        }
    }
}

/// hector's own sounds, one after another, each to its end, all within [`SOUND_LIMIT`].
fn play_clips(
    player: &mut crate::io::platform::sound::Player,
    clips: &[Clip],
) -> Result<(), String> {
    let deadline = Instant::now() + SOUND_LIMIT;
    for clip in clips {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        player.play(clip, left)?;
    }
    Ok(())
}

/// One job on the backend, marked busy during the call: what the supervisor must hear of it.
/// `play` plays hector's own sounds to their end.
fn run_job(
    job: Job,
    backend: &mut dyn Backend,
    speaking: &mut Option<u64>,
    mark: &dyn Fn(bool),
    play: &mut dyn FnMut(&[Clip]),
) -> Option<WorkerEvent> {
    match job {
        Job::Speak {
            id,
            text,
            lang,
            icons,
            clips,
            played,
            interrupt,
        } => {
            mark(true);
            if speaking.take().is_some() || interrupt {
                let _ = backend.stop();
            }
            // hector's own sounds after the silence and before the words: played to their
            // end here, they are never heard over words. A sound that cannot be played costs
            // only the sound.
            if !clips.is_empty() {
                play(&clips);
            }
            // The sounds go first, into the same queue as the words: heard before them. A
            // sound refused costs only the sound, never the words or the backend.
            for icon in &icons {
                let _ = backend.sound_icon(icon);
            }
            if icons.is_empty() {
                played.tell();
            }
            let r = if backend::clean(&text).is_empty() {
                Ok(false)
            } else {
                backend.speak(&text, &lang).map(|()| true)
            };
            // speech-dispatcher hands over the words once its icons have ended.
            played.tell();
            mark(false);
            match r {
                Ok(true) => {
                    *speaking = Some(id);
                    None
                }
                // Sounds alone: the backend's queue keeps their order; nothing waits here.
                Ok(false) => Some(WorkerEvent::Finished(id)),
                Err(e) => Some(WorkerEvent::Failed(Some(id), e)),
            }
        }
        Job::Stop => {
            mark(true);
            let r = backend.stop();
            mark(false);
            match (r, speaking.take()) {
                (Err(e), id) => Some(WorkerEvent::Failed(id, e)),
                (Ok(()), Some(id)) => Some(WorkerEvent::Finished(id)),
                (Ok(()), None) => None,
            }
        }
        Job::Voice(v) => {
            mark(true);
            let r = backend.set_voice(&v);
            mark(false);
            r.err().map(|e| WorkerEvent::Failed(None, e))
        }
    }
}

/// No job came while an utterance is said: whether the backend has finished it.
fn poll_speaking(
    backend: &mut dyn Backend,
    speaking: &mut Option<u64>,
    mark: &dyn Fn(bool),
) -> Option<WorkerEvent> {
    let id = (*speaking)?;
    mark(true);
    let r = backend.is_speaking();
    mark(false);
    match r {
        Ok(true) => None,
        Ok(false) => {
            *speaking = None;
            Some(WorkerEvent::Finished(id))
        }
        Err(e) => {
            *speaking = None;
            Some(WorkerEvent::Failed(Some(id), e))
        }
    }
}

/// Voices of one engine, as (voice name, language), optionally only for a language. Slow and
/// possibly blocking (speech-dispatcher without audio): call it off the main thread.
pub(crate) fn list_voices(
    kind: BackendKind,
    lang: Option<&str>,
) -> Result<Vec<(String, String)>, SpeechError> {
    let list = match kind {
        #[cfg(target_os = "linux")]
        BackendKind::SpeechDispatcher => dispatcher::list_voices()?,
        BackendKind::EspeakNg => espeak::list_voices(lang)?,
        other => {
            return Err(SpeechError::Unavailable {
                backend: other.name(),
                reason: "hector lists the voices of speech-dispatcher and espeak-ng only".into(),
            });
        }
    };
    Ok(match lang {
        Some(l) => list
            .into_iter()
            .filter(|(_, vl)| vl == l || vl.starts_with(&format!("{l}-")))
            .collect(),
        None => list,
    })
}

#[cfg(test)]
mod tests;
