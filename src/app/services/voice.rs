//! Voice input for the modes: the recogniser set up once with its model and language, what
//! stands in its way in the language table's words, and a thread that listens to the
//! microphone when asked and hands back the core's decision as an event for the runtime's
//! loop.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::Chess;

use crate::core::notation::{Language, WordSet, fill};
use crate::core::voice::decide::{
    Answer, AnswerDecodes, Decision, Decoded, Evidence, Judgement, MoveDecodes, Second, Settings,
    judge_answer, judge_move, question, question_move_or_command, question_two,
};
use crate::core::voice::grammar::Heard as GrammarHeard;
use crate::io::voice::log::{self, VoiceLog};
use crate::io::voice::model::{self, ModelProblem};
use crate::io::voice::recogniser::{
    Decodes, Expect, LONGEST_SECONDS, Phrase, PhraseError, Recogniser, SetupError,
};
use crate::io::voice::source::{Microphone, RecorderProblem, RecordingError, SourceError};
use crate::io::voice::wav::WavProblem;

/// Whether this system has voice input: PocketSphinx and the recording programs are set
/// up on Linux; Windows has neither yet.
pub(crate) const AVAILABLE: bool = cfg!(unix);

/// What a mode was asked to do with voice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct VoiceOptions {
    /// A PocketSphinx model the player installed, instead of Debian's English one.
    pub(crate) model: Option<PathBuf>,
    /// Every move heard is asked back.
    pub(crate) always_ask: bool,
}

/// Why voice cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unavailable {
    /// This system has no voice input yet (Windows).
    System,
    Model(ModelProblem),
    Setup(PathBuf, SetupError),
    Microphone(Vec<RecorderProblem>),
}

/// The recogniser for `lang` with the model named (or Debian's).
pub(crate) fn recogniser(lang: &Language, named: Option<&Path>) -> Result<Recogniser, Unavailable> {
    if !AVAILABLE {
        return Err(Unavailable::System);
    }
    let model = model::find(named).map_err(Unavailable::Model)?;
    // A model the player named is tried in a process of its own first: PocketSphinx ends
    // the process (or crashes) on some damaged files instead of refusing them.
    if let Some(named) = named
        && !model::survives(named, &lang.code, lang.words.name())
    {
        return Err(Unavailable::Setup(model.dir, SetupError::ModelRefused));
    }
    Recogniser::new(lang, &model).map_err(|e| Unavailable::Setup(model.dir.clone(), e))
}

/// `hector voice-model-check DIR LANG WORDS`: the recogniser set up with the model in `dir`
/// for the language `code` and its `words`; 0 when it works, 2 when it is refused (the
/// process that asked then refuses it itself, in words).
pub(crate) fn check_model(dir: &Path, code: &str, words: &str) -> std::process::ExitCode {
    let set = if words == WordSet::Fide.name() {
        WordSet::Fide
    } else {
        WordSet::Language
    };
    let Ok(lang) = crate::core::notation::language(code) else {
        return std::process::ExitCode::from(2);
    };
    let lang = lang.with_words(set);
    match model::find(Some(dir)).map(|m| Recogniser::new(lang, &m)) {
        Ok(Ok(_)) => std::process::ExitCode::SUCCESS,
        _ => std::process::ExitCode::from(2),
    }
}

/// Why voice cannot be used, in words.
pub(crate) fn unavailable_words(lang: &Language, why: &Unavailable) -> String {
    let v = &lang.voice;
    match why {
        Unavailable::System => lang.windows.voice_unavailable.clone(),
        Unavailable::Model(ModelProblem::NoDefault(dir)) => {
            fill(&v.no_default_model, &[("dir", &dir.display().to_string())])
        }
        Unavailable::Model(ModelProblem::NoModel(dir)) => {
            fill(&v.no_model, &[("dir", &dir.display().to_string())])
        }
        Unavailable::Setup(dir, e) => match e {
            SetupError::Library(reason) => fill(&v.no_library, &[("reason", reason)]),
            SetupError::ModelRefused => {
                fill(&v.model_refused, &[("dir", &dir.display().to_string())])
            }
            SetupError::NoDictionary => fill(&v.no_dictionary, &[("language", &lang.name)]),
            SetupError::UnknownWords(words) => {
                fill(&v.unknown_words, &[("words", &words.join(", "))])
            }
            SetupError::Grammar(_) => v.failed.clone(),
        },
        Unavailable::Microphone(problems) => {
            let reasons: Vec<String> = problems.iter().map(|p| recorder_words(lang, p)).collect();
            fill(&v.no_microphone, &[("reasons", &reasons.join("; "))])
        }
    }
}

fn recorder_words(lang: &Language, p: &RecorderProblem) -> String {
    let v = &lang.voice;
    match p {
        RecorderProblem::Missing(program) => fill(&v.recorder_missing, &[("program", program)]),
        RecorderProblem::Failed { program, reason } => fill(
            &v.recorder_failed,
            &[("program", program), ("reason", reason)],
        ),
        RecorderProblem::Silent(program) => fill(&v.recorder_silent, &[("program", program)]),
    }
}

/// Why a recording cannot be heard, in words.
pub(crate) fn recording_words(lang: &Language, file: &Path, e: &RecordingError) -> String {
    let v = &lang.voice;
    let file = file.display().to_string();
    match e {
        RecordingError::Read(reason) => {
            fill(&v.cannot_read, &[("file", &file), ("reason", reason)])
        }
        RecordingError::NotWav(p) => {
            let template = &v.wav_reasons[p.index()];
            let reason = match *p {
                WavProblem::Encoding(f) => fill(template, &[("format", &f.to_string())]),
                WavProblem::Bits(b) => fill(template, &[("bits", &b.to_string())]),
                WavProblem::Rate(r) => fill(template, &[("rate", &r.to_string())]),
                _ => template.clone(),
            };
            fill(&v.not_wav, &[("file", &file), ("reason", &reason)])
        }
    }
}

/// A source ended while listening, in words.
pub(crate) fn source_words(lang: &Language, e: &SourceError) -> String {
    match e {
        SourceError::Ended { program, reason } => fill(
            &lang.voice.recorder_ended,
            &[("program", program), ("reason", reason)],
        ),
    }
}

/// The phrase cut at the longest length, in words.
pub(crate) fn cut_words(lang: &Language) -> String {
    fill(
        &lang.voice.cut,
        &[("seconds", &LONGEST_SECONDS.to_string())],
    )
}

/// What the listener is asked to hear, with the request's number.
#[derive(Clone, Debug)]
struct Request {
    number: u64,
    ask: Ask,
}

/// What the listener is asked to hear.
#[derive(Clone, Debug)]
pub(crate) enum Ask {
    /// A move (or a command) in this position.
    Move(Chess),
    /// The answer to a question.
    Answer,
}

/// What the listener heard, for the mode.
#[derive(Clone, Debug)]
pub(crate) enum Heard {
    /// It listens now (said once per listening).
    Listening,
    Move {
        pos: Chess,
        judgement: Judgement,
        decodes: MoveDecodes,
        cut: bool,
        /// From the phrase's end to its decodes.
        took: Duration,
    },
    Answer {
        answer: Answer,
        evidence: Evidence,
        decodes: AnswerDecodes,
        took: Duration,
    },
    /// Nothing came (silence, or listening was stopped).
    Nothing,
    /// The microphone stopped: listening ends, in words.
    Gone(String),
}

/// The listening thread: asked to listen, it hears one phrase and sends what it heard.
pub(crate) struct Listener {
    asks: Sender<Request>,
    heard: Receiver<(u64, Heard)>,
    /// The request wanted now: a phrase of an earlier one is dropped (the position it was
    /// to be heard in has changed, or listening was stopped).
    wanted: Arc<AtomicU64>,
}

impl Listener {
    /// Sets up the recogniser and the microphone, and starts the thread; why not, in words,
    /// when it cannot.
    pub(crate) fn start(
        lang: &'static Language,
        options: &VoiceOptions,
    ) -> Result<Listener, String> {
        let recogniser =
            recogniser(lang, options.model.as_deref()).map_err(|e| unavailable_words(lang, &e))?;
        let input =
            Microphone::open().map_err(|p| unavailable_words(lang, &Unavailable::Microphone(p)))?;
        let (asks, ask_rx) = unbounded::<Request>();
        let (heard_tx, heard) = unbounded::<(u64, Heard)>();
        let wanted = Arc::new(AtomicU64::new(0));
        let settings = Settings {
            always_ask: options.always_ask,
        };
        let worker_wanted = wanted.clone();
        thread::Builder::new()
            .name("hector-voice".into())
            .spawn(move || {
                listen_loop(
                    lang,
                    recogniser,
                    input,
                    settings,
                    &ask_rx,
                    &heard_tx,
                    &worker_wanted,
                );
            })
            .map_err(|e| e.to_string())?;
        Ok(Listener {
            asks,
            heard,
            wanted,
        })
    }

    /// Listens for one phrase (what the answer will be judged as).
    pub(crate) fn listen(&self, ask: Ask) {
        let number = self.wanted.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = self.asks.send(Request { number, ask });
    }

    /// Stops listening (the key again, the position changed): the phrase in progress is
    /// dropped.
    pub(crate) fn stop(&self) {
        self.wanted.fetch_add(1, Ordering::SeqCst);
    }

    /// What the listener heard, with the number of the request it answers.
    pub(crate) fn heard(&self) -> &Receiver<(u64, Heard)> {
        &self.heard
    }

    /// Whether a result answers the request wanted now.
    pub(crate) fn current(&self, number: u64) -> bool {
        self.wanted.load(Ordering::SeqCst) == number
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        // The thread ends at its next request (none comes) or when its phrase is dropped.
        self.wanted.fetch_add(1, Ordering::SeqCst);
    }
}

fn listen_loop(
    lang: &'static Language,
    mut recogniser: Recogniser,
    mut input: Microphone,
    settings: Settings,
    asks: &Receiver<Request>,
    sender: &Sender<(u64, Heard)>,
    wanted: &AtomicU64,
) {
    while let Ok(request) = asks.recv() {
        // Only the newest request counts: a position asked for before a move was typed is
        // stale.
        let Request { number, ask } = asks.try_iter().last().unwrap_or(request);
        if wanted.load(Ordering::SeqCst) != number {
            continue;
        }
        let stop = || wanted.load(Ordering::SeqCst) != number;
        let heard = Tagged { number, sender };
        let expect = match &ask {
            Ask::Move(pos) => Expect::Move(pos.clone()),
            Ask::Answer => Expect::Answer,
        };
        // The decodes start ahead of the phrase's end (at 100 ms of its final silence).
        input.drain();
        let _ = heard.send(Heard::Listening);
        let phrase = recogniser.hear(&mut input, &stop, &expect, true);
        let phrase: Phrase = match phrase {
            Ok(Some(p)) => p,
            Ok(None) => {
                let _ = heard.send(Heard::Nothing);
                continue;
            }
            Err(PhraseError::Source(e)) => {
                let _ = heard.send(Heard::Gone(source_words(lang, &e)));
                return;
            }
            Err(PhraseError::Sphinx(_)) => {
                let _ = heard.send(Heard::Gone(lang.voice.failed.clone()));
                return;
            }
        };
        if stop() {
            let _ = heard.send(Heard::Nothing);
            continue;
        }
        if heard
            .send(judged(&recogniser, ask, phrase, settings, lang))
            .is_err()
        {
            return;
        }
    }
}

/// What a phrase decoded for what was asked says: a move in the position, or an answer.
fn judged(
    recogniser: &Recogniser,
    ask: Ask,
    phrase: Phrase,
    settings: Settings,
    lang: &Language,
) -> Heard {
    match (ask, phrase.decodes) {
        (Ask::Move(pos), Decodes::Move(t)) => {
            let judgement = judge_move(&pos, recogniser.tokens(), &t.decodes, settings);
            Heard::Move {
                pos,
                judgement,
                decodes: t.decodes,
                cut: phrase.utterance.cut,
                took: phrase.waited,
            }
        }
        (Ask::Answer, Decodes::Answer(t)) => {
            let (answer, evidence) = judge_answer(recogniser.tokens(), &t.decodes);
            Heard::Answer {
                answer,
                evidence,
                decodes: t.decodes,
                took: phrase.waited,
            }
        }
        // The decodes are those asked for: a move's for a move, an answer's for an answer.
        _ => Heard::Gone(lang.voice.failed.clone()),
    }
}

/// The sender of one request's results.
struct Tagged<'a> {
    number: u64,
    sender: &'a Sender<(u64, Heard)>,
}

impl Tagged<'_> {
    fn send(&self, heard: Heard) -> Result<(), ()> {
        self.sender.send((self.number, heard)).map_err(|_| ())
    }
}

/// What the mode does with what was heard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Handled as if the player had typed this line (a move in UCI, a command's word).
    Line(String),
    /// Said and shown: a question asked back, or why nothing was done.
    Say(String),
    /// Nothing to say.
    Quiet,
}

/// Voice input in an interactive mode: the listener, the question asked back, and when to
/// listen. In line mode hector listens after each prompt; on the full screen a key starts
/// listening for one phrase (and for the answer, when it is asked back).
pub(crate) struct VoiceInput {
    lang: &'static Language,
    listener: Option<Listener>,
    /// Where every phrase heard is written down (not the journal).
    log: Option<VoiceLog>,
    /// A move or command asked back (or two moves), done only on the answer that names it.
    question: Option<Asked>,
    /// Listening now.
    listening: bool,
    /// Line mode: listen again after each phrase.
    pub(crate) continuous: bool,
    /// Listening for the answer to the mode's own question (quit, resign, a draw offered).
    answering_mode: bool,
    /// The last phrase was carried out as a typed line: should the mode ask a question
    /// now (a command that asks first), its answer is listened for too.
    follow_up: bool,
}

impl VoiceInput {
    /// Sets voice input up; why it cannot be used, in words, to be said once (typing works as
    /// before).
    pub(crate) fn start(
        lang: &'static Language,
        options: &VoiceOptions,
    ) -> (VoiceInput, Option<String>) {
        let (listener, why) = match Listener::start(lang, options) {
            Ok(l) => (Some(l), None),
            Err(why) => (None, Some(why)),
        };
        let started = listener
            .as_ref()
            .and_then(|_| crate::io::journal::data_dir().ok())
            .map(|dir| VoiceLog::start(dir.join(log::FILE_NAME)));
        let (log, log_problem) = match started {
            Some((log, problem)) => (Some(log), problem),
            None => (None, None),
        };
        // Voice input works without its log: why the log is not kept is said once.
        let why = why.or_else(|| {
            log_problem.map(|e| {
                let reason = match &e {
                    log::LogError::Owned(o) => crate::app::services::games::owned_problem(o, lang),
                    other => crate::core::notation::printable(&crate::io::error_chain(other))
                        .into_owned(),
                };
                crate::core::notation::fill(&lang.voice.log_refused, &[("reason", &reason)])
            })
        });
        (
            VoiceInput {
                lang,
                listener,
                log,
                question: None,
                listening: false,
                continuous: false,
                answering_mode: false,
                follow_up: false,
            },
            why,
        )
    }

    /// Where what is heard arrives, while voice input works.
    pub(crate) fn receiver(&self) -> Option<Receiver<(u64, Heard)>> {
        self.listener.as_ref().map(|l| l.heard().clone())
    }

    pub(crate) fn works(&self) -> bool {
        self.listener.is_some()
    }

    pub(crate) fn listening(&self) -> bool {
        self.listening
    }

    /// Starts listening in `pos`: for the answer when a question is open (one asked back,
    /// or the mode's own: `mode_asks`); nothing when already listening or voice does not work.
    pub(crate) fn listen(&mut self, pos: &Chess, mode_asks: bool) {
        let Some(l) = &self.listener else {
            return;
        };
        if self.listening {
            return;
        }
        self.listening = true;
        self.answering_mode = mode_asks && self.question.is_none();
        l.listen(if self.question.is_some() || mode_asks {
            Ask::Answer
        } else {
            Ask::Move(pos.clone())
        });
    }

    /// The position changed (a move was played or typed): a phrase heard now would be
    /// judged in the old one, so listening starts over.
    pub(crate) fn moved(&mut self, pos: &Chess) {
        if let Some(l) = &self.listener
            && self.listening
        {
            l.stop();
            self.listening = false;
            self.question = None;
            if self.continuous {
                self.listen(pos, false);
            }
        }
    }

    /// Stops listening (the key again).
    pub(crate) fn stop(&mut self) {
        if let Some(l) = &self.listener {
            l.stop();
        }
    }

    /// What to do with what the listener heard for request `number`. Every phrase heard is
    /// written to the voice log with what was decided; the journal gets only the moves played.
    pub(crate) fn heard(&mut self, number: u64, heard: Heard) -> Outcome {
        // An earlier request's phrase is dropped; the listener's end never is.
        let current = self.listener.as_ref().is_some_and(|l| l.current(number));
        if !current && !matches!(heard, Heard::Gone(_)) {
            return Outcome::Quiet;
        }
        let question = self.question.clone();
        let heard_line = heard_line(&heard);
        let (outcome, decided) = self.decide(heard);
        if let (Some(log), Some(heard_line)) = (&self.log, heard_line) {
            log.write(format!(
                "{}\t{heard_line}\t{}",
                crate::io::utc::now_utc(),
                decided.words(question.as_ref())
            ));
        }
        outcome
    }

    fn decide(&mut self, heard: Heard) -> (Outcome, Decided) {
        let lang = self.lang;
        match heard {
            Heard::Listening => return (Outcome::Quiet, Decided::Nothing),
            Heard::Gone(why) => {
                self.listening = false;
                self.listener = None;
                return (Outcome::Say(why), Decided::Nothing);
            }
            _ => {}
        }
        self.listening = false;
        match heard {
            Heard::Move {
                pos,
                judgement,
                cut,
                ..
            } => self.decide_move(&pos, judgement, cut),
            Heard::Answer { answer, .. } if std::mem::take(&mut self.answering_mode) => {
                let word = |w: &[String]| w.first().cloned().unwrap_or_default();
                let out = match answer {
                    Answer::Yes => Outcome::Line(word(&lang.commands.yes)),
                    Answer::No => Outcome::Line(word(&lang.commands.no)),
                    Answer::Unsure => Outcome::Say(lang.voice.unsure.clone()),
                    Answer::Second | Answer::Other | Answer::Nothing => Outcome::Quiet,
                };
                (out, Decided::Answer(AnswerTo::Mode(answer)))
            }
            Heard::Answer { answer, .. } => {
                let out = self.answered(answer);
                (out, Decided::Answer(AnswerTo::AskedBack(answer)))
            }
            // Silence lets a question go.
            Heard::Nothing => {
                let decided = if self.question.is_some() {
                    Decided::Answer(AnswerTo::AskedBack(Answer::Nothing))
                } else if self.answering_mode {
                    Decided::Answer(AnswerTo::Mode(Answer::Nothing))
                } else {
                    Decided::Silence
                };
                self.question = None;
                self.answering_mode = false;
                (Outcome::Quiet, decided)
            }
            Heard::Listening | Heard::Gone(_) => (Outcome::Quiet, Decided::Nothing),
        }
    }

    /// A move or a command heard: played or typed when sure, asked back when not.
    fn decide_move(&mut self, pos: &Chess, judgement: Judgement, cut: bool) -> (Outcome, Decided) {
        let lang = self.lang;
        let uci =
            |m| shakmaty::uci::UciMove::from_move(m, shakmaty::CastlingMode::Chess960).to_string();
        let (out, decided) = match judgement.decision {
            Decision::Play(m) => (Outcome::Line(uci(m)), Decided::Played(uci(m))),
            Decision::Command(c) => {
                let typed = c.typed(lang).to_string();
                (Outcome::Line(typed.clone()), Decided::Command(typed))
            }
            Decision::Ask(h) => {
                let first = match h {
                    GrammarHeard::Move(m) => uci(m),
                    GrammarHeard::Command(c) => c.typed(lang).to_string(),
                };
                let asked = Asked {
                    first,
                    second: None,
                };
                self.question = Some(asked.clone());
                (Outcome::Say(question(h, pos, lang)), Decided::Asked(asked))
            }
            Decision::AskTwo(a, b) => {
                let asked = Asked {
                    first: uci(a),
                    second: Some(uci(b)),
                };
                self.question = Some(asked.clone());
                (
                    Outcome::Say(question_two(a, b, pos, lang)),
                    Decided::Asked(asked),
                )
            }
            // The move first: "yes" plays it, the second's word runs the command.
            Decision::AskMoveOrCommand(m, c) => {
                let asked = Asked {
                    first: uci(m),
                    second: Some(c.typed(lang).to_string()),
                };
                self.question = Some(asked.clone());
                (
                    Outcome::Say(question_move_or_command(m, c, pos, lang)),
                    Decided::Asked(asked),
                )
            }
            Decision::Nothing => (
                Outcome::Say(lang.voice.nothing.clone()),
                Decided::NotUnderstood,
            ),
        };
        if cut && let Outcome::Say(s) = &out {
            return (Outcome::Say(format!("{}. {s}", cut_words(lang))), decided);
        }
        (out, decided)
    }

    /// A question asked back is open: listen for its answer next.
    pub(crate) fn asking(&self) -> bool {
        self.question.is_some()
    }

    /// What an answer does to the question asked back: "yes" takes the first move (or the
    /// command), the second's word the second move; an unsure one asks again; anything else
    /// lets the question go.
    fn answered(&mut self, answer: Answer) -> Outcome {
        let lang = self.lang;
        match answer {
            Answer::Yes => self
                .question
                .take()
                .map_or(Outcome::Quiet, |q| Outcome::Line(q.first)),
            Answer::Second => self
                .question
                .take()
                .and_then(|q| q.second)
                .map_or(Outcome::Quiet, Outcome::Line),
            Answer::Unsure => Outcome::Say(match self.question.as_ref() {
                Some(Asked {
                    second: Some(_), ..
                }) => lang.voice.unsure_two.clone(),
                _ => lang.voice.unsure.clone(),
            }),
            // "no", silence, or something else: the question lapses.
            Answer::No | Answer::Other | Answer::Nothing => {
                self.question = None;
                Outcome::Quiet
            }
        }
    }

    /// A typed line while a question asked back is open: a yes word or 1 takes the first
    /// move, a word of the second or 2 the second, a no word lets the question go (as said
    /// ones do); `None` for any other line, which the mode takes as typed.
    pub(crate) fn typed(&mut self, line: &str) -> Option<Outcome> {
        let q = self.question.as_ref()?;
        let answer = typed_answer(self.lang, line, q.second.is_some())?;
        let question = self.question.clone();
        let out = self.answered(answer);
        if let Some(log) = &self.log {
            log.write(format!(
                "{}	typed	-	{}	-	-	-	-	{}",
                crate::io::utc::now_utc(),
                crate::core::notation::printable(line.trim()),
                Decided::Answer(AnswerTo::AskedBack(answer)).words(question.as_ref())
            ));
        }
        Some(out)
    }

    /// Whether the last phrase was carried out as a line, once.
    pub(crate) fn take_follow_up(&mut self) -> bool {
        std::mem::take(&mut self.follow_up)
    }

    /// Notes that a phrase was carried out as a typed line.
    pub(crate) fn carried_out(&mut self) {
        self.follow_up = true;
    }
}

/// A move (UCI) or command asked back, and the move named second, if two were.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Asked {
    first: String,
    second: Option<String>,
}

/// A typed line as the answer to a question asked back, in `lang`'s words (case and the
/// spaces around ignored): yes or 1, the second's words or 2 (only when two moves were
/// asked), no.
fn typed_answer(lang: &Language, line: &str, two: bool) -> Option<Answer> {
    let line = line.trim().to_lowercase();
    let is = |words: &[String]| words.iter().any(|w| w.to_lowercase() == line);
    if line == "1" || is(&lang.commands.yes) {
        Some(Answer::Yes)
    } else if two && (line == "2" || is(&lang.voice.second)) {
        Some(Answer::Second)
    } else if is(&lang.commands.no) {
        Some(Answer::No)
    } else {
        None
    }
}

/// What was done with a phrase, for the voice log.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Decided {
    /// A move (UCI) handed to the mode as if typed.
    Played(String),
    /// A command handed to the mode as if typed.
    Command(String),
    /// A move (UCI) or command asked back, or two moves.
    Asked(Asked),
    NotUnderstood,
    Silence,
    Answer(AnswerTo),
    /// Nothing was heard to decide on (listening ended).
    Nothing,
}

/// An answer: to a question asked back, or to the mode's own (quit, resign, a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnswerTo {
    AskedBack(Answer),
    Mode(Answer),
}

impl Decided {
    /// In the log's words; `question`: what was asked back.
    fn words(&self, question: Option<&Asked>) -> String {
        let q = question.map_or("-", |a| a.first.as_str());
        let second = question.and_then(|a| a.second.as_deref());
        match self {
            Decided::Played(m) => format!("played {m}"),
            Decided::Command(c) => format!("command {c}"),
            Decided::Asked(Asked {
                first,
                second: None,
            }) => format!("asked back {first}"),
            Decided::Asked(Asked {
                first,
                second: Some(second),
            }) => format!("asked back {first} or second {second}"),
            Decided::NotUnderstood => "not understood".into(),
            Decided::Silence => "silence".into(),
            Decided::Answer(AnswerTo::AskedBack(a)) => match a {
                Answer::Yes if q.parse::<shakmaty::uci::UciMove>().is_ok() => {
                    format!("yes: played {q}")
                }
                Answer::Yes => format!("yes: carried out {q}"),
                Answer::Second => match second {
                    Some(s) => format!("second: played {s}"),
                    None => format!("second, none asked: let go {q}"),
                },
                Answer::No => format!("no: let go {q}"),
                Answer::Unsure => format!("unsure: asked again {q}"),
                Answer::Other => format!("something else: let go {q}"),
                Answer::Nothing => format!("silence: let go {q}"),
            },
            Decided::Answer(AnswerTo::Mode(a)) => match a {
                Answer::Yes => "yes to hector's question".into(),
                Answer::No => "no to hector's question".into(),
                Answer::Unsure => "unsure: hector's question asked again".into(),
                Answer::Second | Answer::Other | Answer::Nothing => {
                    "no answer to hector's question".into()
                }
            },
            Decided::Nothing => "-".into(),
        }
    }
}

/// What a phrase was heard as, for the voice log: the position, each decode's words and
/// score, and the tests of the decision; `None` for what is not worth a line.
fn heard_line(heard: &Heard) -> Option<String> {
    match heard {
        Heard::Listening => None,
        Heard::Move {
            pos,
            judgement,
            decodes,
            cut,
            took,
        } => {
            let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
            Some(format!(
                "move\t{fen}\tposition {}\tlanguage {}\tsecond pass {}\t{}{}\t{} ms",
                decoded(decodes.position.as_ref()),
                decoded(decodes.language.as_ref()),
                second(&decodes.second),
                evidence(&judgement.evidence, decodes.speech_frames),
                if *cut { ", cut" } else { "" },
                took.as_millis()
            ))
        }
        Heard::Answer {
            evidence: e,
            decodes,
            took,
            ..
        } => Some(format!(
            "answer\t-\tanswer {}\twithout the word heard {}\t-\t{}\t{} ms",
            decoded(decodes.answer.as_ref()),
            second(&decodes.without),
            evidence(e, decodes.speech_frames),
            took.as_millis()
        )),
        Heard::Nothing => Some("nothing\t-\t-\t-\t-\t-\t-".into()),
        Heard::Gone(why) => Some(format!("ended\t-\t{why}\t-\t-\t-\t-")),
    }
}

fn decoded(d: Option<&Decoded>) -> String {
    match d {
        Some(d) => format!(
            "\"{}\" score {} in {} frames ({} in words)",
            d.words, d.score, d.frames, d.word_frames
        ),
        None => "nothing".into(),
    }
}

fn second(s: &Second) -> String {
    match s {
        Second::NotRun => "not run".into(),
        Second::Nothing => "nothing".into(),
        Second::Best(d) => decoded(Some(d)),
    }
}

fn evidence(e: &Evidence, speech_frames: u32) -> String {
    let margin = match e.margin {
        Some(m) if m.is_finite() => format!("{m:.2}"),
        Some(_) => "nothing else fits".into(),
        None => "-".into(),
    };
    // The move one near word away, which kept the move heard from being played at once.
    let near = e.near.map_or(String::new(), |m| {
        format!(
            ", near {}",
            shakmaty::uci::UciMove::from_move(m, shakmaty::CastlingMode::Chess960)
        )
    });
    format!(
        "agree {}, speech {speech_frames} frames, coverage {:.2}, margin {margin}{near}",
        if e.agree { "yes" } else { "no" },
        e.coverage
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(words: &str, score: i32) -> Decoded {
        Decoded {
            words: words.into(),
            score,
            frames: 150,
            word_frames: 120,
        }
    }

    #[test]
    fn a_move_heard_is_one_line_with_every_decode_and_the_tests() {
        let heard = Heard::Move {
            pos: Chess::default(),
            judgement: Judgement {
                decision: Decision::Nothing,
                evidence: Evidence {
                    agree: true,
                    coverage: 0.95,
                    margin: Some(7.25),
                    near: None,
                },
            },
            decodes: MoveDecodes {
                position: Some(decoded("springer felix drei", -90_000)),
                language: Some(decoded("springer felix drei", -91_000)),
                second: Second::Best(decoded("springer hector drei", -100_000)),
                speech_frames: 126,
            },
            cut: false,
            took: Duration::from_millis(120),
        };
        let line = heard_line(&heard).expect("a line");
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            fields,
            [
                "move",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "position \"springer felix drei\" score -90000 in 150 frames (120 in words)",
                "language \"springer felix drei\" score -91000 in 150 frames (120 in words)",
                "second pass \"springer hector drei\" score -100000 in 150 frames (120 in words)",
                "agree yes, speech 126 frames, coverage 0.95, margin 7.25",
                "120 ms",
            ]
        );
        assert_eq!(heard_line(&Heard::Listening), None);
    }

    fn one(first: &str) -> Asked {
        Asked {
            first: first.into(),
            second: None,
        }
    }

    #[test]
    fn what_was_decided_names_the_move_and_the_answer() {
        let g1f3 = one("g1f3");
        let q = Some(&g1f3);
        assert_eq!(Decided::Played("g1f3".into()).words(None), "played g1f3");
        assert_eq!(Decided::Asked(one("g1f3")).words(None), "asked back g1f3");
        assert_eq!(Decided::NotUnderstood.words(None), "not understood");
        let asked = |a| Decided::Answer(AnswerTo::AskedBack(a));
        assert_eq!(asked(Answer::Yes).words(q), "yes: played g1f3");
        assert_eq!(
            asked(Answer::Yes).words(Some(&one("brett"))),
            "yes: carried out brett"
        );
        assert_eq!(asked(Answer::No).words(q), "no: let go g1f3");
        assert_eq!(asked(Answer::Nothing).words(q), "silence: let go g1f3");
        assert_eq!(asked(Answer::Unsure).words(q), "unsure: asked again g1f3");
        assert_eq!(
            Decided::Answer(AnswerTo::Mode(Answer::Yes)).words(None),
            "yes to hector's question"
        );
        let two = Asked {
            first: "e2e3".into(),
            second: Some("e2e4".into()),
        };
        assert_eq!(
            Decided::Asked(two.clone()).words(None),
            "asked back e2e3 or second e2e4"
        );
        assert_eq!(asked(Answer::Yes).words(Some(&two)), "yes: played e2e3");
        assert_eq!(
            asked(Answer::Second).words(Some(&two)),
            "second: played e2e4"
        );
    }

    /// Typed answers: the words of the table in every language and the digits; 2 and the
    /// second's words only when two moves were asked; anything else is no answer.
    #[test]
    fn typed_answers_in_every_language() {
        for code in ["de", "en", "es", "fr", "nl"] {
            let lang = crate::core::notation::language(code).expect("table");
            let yes = &lang.commands.yes[0];
            let no = &lang.commands.no[0];
            for (line, two, want) in [
                (yes.as_str(), true, Some(Answer::Yes)),
                ("1", false, Some(Answer::Yes)),
                (" 1 ", true, Some(Answer::Yes)),
                ("2", true, Some(Answer::Second)),
                ("2", false, None),
                (no.as_str(), true, Some(Answer::No)),
                ("e2e4", true, None),
            ] {
                assert_eq!(typed_answer(lang, line, two), want, "{code}: {line:?}");
            }
            for word in &lang.voice.second {
                let upper = word.to_uppercase();
                assert_eq!(
                    typed_answer(lang, &upper, true),
                    Some(Answer::Second),
                    "{code}: {word}"
                );
                assert_eq!(typed_answer(lang, word, false), None, "{code}: {word}");
            }
        }
    }

    /// A two-move question answered: yes plays the first, the second's word (said or typed)
    /// the second, no neither; an unsure answer asks again naming the three answers.
    #[test]
    fn a_move_or_a_command_and_each_answer() {
        use crate::core::voice::VoiceCommand;
        let lang = crate::core::notation::language("en").expect("en");
        let pos = Chess::default();
        let h4 = shakmaty::uci::UciMove::from_ascii(b"h2h4")
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        let asked = || {
            let mut v = VoiceInput {
                lang,
                listener: None,
                log: None,
                question: None,
                listening: false,
                continuous: false,
                answering_mode: false,
                follow_up: false,
            };
            let judgement = Judgement {
                decision: Decision::AskMoveOrCommand(h4, VoiceCommand::Explorer),
                evidence: Evidence::default(),
            };
            let (out, _) = v.decide_move(&pos, judgement, false);
            assert_eq!(
                out,
                Outcome::Say("Hector four, or second: Explorer?".into())
            );
            assert!(v.asking());
            v
        };
        // "yes" plays the move, the second's word runs the command, "no" neither.
        assert_eq!(asked().answered(Answer::Yes), Outcome::Line("h2h4".into()));
        assert_eq!(
            asked().answered(Answer::Second),
            Outcome::Line("explorer".into())
        );
        let mut v = asked();
        assert_eq!(v.answered(Answer::No), Outcome::Quiet);
        assert!(!v.asking());
        // Typed: 2 or "second" the command, 1 the move.
        assert_eq!(asked().typed("2"), Some(Outcome::Line("explorer".into())));
        assert_eq!(
            asked().typed("second"),
            Some(Outcome::Line("explorer".into()))
        );
        assert_eq!(asked().typed("1"), Some(Outcome::Line("h2h4".into())));
    }

    #[test]
    fn a_two_move_question_and_each_answer() {
        let lang = crate::core::notation::language("de").expect("de");
        let open = || VoiceInput {
            lang,
            listener: None,
            log: None,
            question: Some(Asked {
                first: "e2e3".into(),
                second: Some("e2e4".into()),
            }),
            listening: false,
            continuous: false,
            answering_mode: false,
            follow_up: false,
        };
        let mut v = open();
        assert_eq!(v.answered(Answer::Yes), Outcome::Line("e2e3".into()));
        assert!(!v.asking());
        let mut v = open();
        assert_eq!(v.answered(Answer::Second), Outcome::Line("e2e4".into()));
        assert!(!v.asking());
        let mut v = open();
        assert_eq!(v.answered(Answer::No), Outcome::Quiet);
        assert!(!v.asking());
        let mut v = open();
        assert_eq!(
            v.answered(Answer::Unsure),
            Outcome::Say("Ja, zweitens oder nein?".into())
        );
        assert!(v.asking(), "an unsure answer keeps the question");
        assert_eq!(v.typed("zweitens"), Some(Outcome::Line("e2e4".into())));
        let mut v = open();
        assert_eq!(v.typed("Springer"), None);
        assert!(v.asking(), "another line leaves the question open");
        assert_eq!(v.typed("1"), Some(Outcome::Line("e2e3".into())));
        // A one-move question: the second's word is no answer to it.
        let mut v = open();
        v.question = Some(one("g1f3"));
        assert_eq!(v.answered(Answer::Second), Outcome::Quiet);
        assert!(!v.asking());
        let mut v = open();
        v.question = Some(one("g1f3"));
        assert_eq!(v.typed("2"), None);
        assert_eq!(
            v.answered(Answer::Unsure),
            Outcome::Say("Ja oder nein?".into())
        );
    }
}
