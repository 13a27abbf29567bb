//! The recogniser: PocketSphinx decoders set up with a language's words, the phrase cut out
//! of a source's sound, and that phrase decoded with the core's grammars. What to do with the
//! decodes is the core's decision (`core::voice::decide`).
//!
//! Four decoders, none shared between threads: two hear when speech begins and ends (one
//! after 200 ms of silence, the phrase's end; one after 100 ms, when the decodes start ahead),
//! one decodes with the position's grammar, one with the language's grammar (then the second
//! pass without the move it heard) and the answers' grammars. The position's pass runs on
//! one thread, the language's and the second pass on another.
//!
//! Decoding ahead: a microphone's phrase ends after 200 ms of silence, and what is decoded is
//! the phrase up to the first 100 ms of that silence. Those samples are all there when the
//! silence has lasted 100 ms, so the decodes start then, while the rest of the silence comes;
//! if it holds, their result is the one the decodes after the end would give (the same
//! samples, the same decoders), and it is ready up to 100 ms sooner. If speech resumes, the
//! result is dropped and listening goes on.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Chess;

use crate::core::notation::Language;
use crate::core::voice::Lexicon;
use crate::core::voice::Tokens;
use crate::core::voice::decide::{AnswerDecodes, COVERAGE, MoveDecodes, Second, coverage, meaning};
use crate::core::voice::grammar::{self, Heard, Without};
use crate::core::voice::{Cut, Cutter, FRAME, RATE, Utterance, speech_frames};
use crate::io::voice::model::Model;
use crate::io::voice::source::{AudioSource, SourceError};
use crate::io::voice::sphinx::{Decoder, Hears, Setup, SphinxError, thread_cpu_time};

/// The longest phrase, in seconds: a move with its squares takes three.
pub(crate) const LONGEST_SECONDS: usize = 8;

/// Frames of silence (10 ms each) that end a phrase: 200 ms (the default 500 ms makes the
/// player wait; 150 ms cut phrases at a pause between words).
pub const END_SILENCE: u32 = 20;

/// Frames of silence after which the decodes start ahead of the phrase's end: 100 ms. What
/// is decoded ends there, so that the decodes started then and those after the end read the
/// same samples.
pub(crate) const EARLY_SILENCE: u32 = 10;

/// The samples of silence at a microphone's phrase's end that are not decoded.
const UNDECODED: usize = (END_SILENCE - EARLY_SILENCE) as usize * FRAME;

/// Frames of speech (by the sound's energy) a microphone's phrase has at least: 50 ms. The
/// voice activity flag rises on steady noise some half a second after listening begins (its
/// start, whatever the noise); such a phrase has no speech in it, and listening goes on.
const LEAST_SPEECH: u32 = 5;

/// Why the recogniser cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// PocketSphinx cannot be loaded: the loader's words.
    Library(String),
    /// The model cannot be read.
    ModelRefused,
    /// Neither hector nor the model has a pronunciation dictionary for the language.
    NoDictionary,
    /// Words of the language that the dictionary lacks.
    UnknownWords(Vec<String>),
    /// A grammar was refused (a defect: the core's grammars are tested).
    Grammar(String),
}

impl From<SphinxError> for SetupError {
    fn from(e: SphinxError) -> SetupError {
        match e {
            SphinxError::NotInstalled(why) => SetupError::Library(why),
            SphinxError::Model | SphinxError::Decode => SetupError::ModelRefused,
            SphinxError::Grammar(g) => SetupError::Grammar(g),
        }
    }
}

/// A phrase heard, and how long its decodes took after its end.
#[derive(Clone, Debug)]
pub struct Timed<T> {
    pub decodes: T,
    pub(crate) took: Duration,
    /// The processor time of the longer of the decoding threads: the wait on an idle
    /// machine with a core for each.
    pub cpu_path: Duration,
}

/// What a phrase is heard for.
#[derive(Clone, Debug)]
pub enum Expect {
    /// A move (or a command) in this position.
    Move(Chess),
    /// The answer to a question.
    Answer,
}

/// A phrase's decodes, for what it was heard for.
#[derive(Clone, Debug)]
pub enum Decodes {
    Move(Timed<MoveDecodes>),
    Answer(Timed<AnswerDecodes>),
}

/// A phrase heard and decoded.
#[derive(Clone, Debug)]
pub struct Phrase {
    /// The phrase as decoded (a microphone's without the last 100 ms of its final silence).
    pub utterance: Utterance,
    pub decodes: Decodes,
    /// Its decodes had started before its end, and were used.
    pub ahead: bool,
    /// Decodes started ahead and dropped because speech resumed.
    pub dropped: u32,
    /// From the phrase's end (its final silence complete) to its decodes.
    pub(crate) waited: Duration,
}

pub struct Recogniser {
    /// When a phrase ends.
    vad: Decoder,
    /// When the decodes may start ahead of its end.
    early: Decoder,
    decoders: Decoders,
}

/// The decoders of phrases, with the language's words.
struct Decoders {
    tokens: Tokens,
    position: Decoder,
    language: Decoder,
}

const LANGUAGE: &str = "language";
const ANSWER: &str = "answer";
const WITHOUT_YES: &str = "without_yes";
const WITHOUT_SECOND: &str = "without_second";
const POSITION: &str = "position";
const SECOND: &str = "second";
const MOVES: &str = "moves";
const VAD: &str = "vad";

/// A decoder for `model` that knows the words of `lexicon`, if any.
fn decoder(
    model: &Model,
    lexicon: Option<&Lexicon>,
    end_silence: u32,
    hears: Hears,
) -> Result<Decoder, SetupError> {
    let mut d = Decoder::new(&Setup {
        model: &model.dir,
        dictionary: model.dictionary.as_deref(),
        end_silence,
        hears,
    })?;
    if let Some(lexicon) = lexicon {
        for e in lexicon.entries() {
            // A word the model's own dictionary has keeps its pronunciation there; hector's
            // adds the variants it lacks (a phone the model does not know is refused here).
            if e.name == e.word && d.knows(&e.word) && model.dictionary.is_some() {
                continue;
            }
            if let Some(name) = free_name(&d, &e.word, &e.name, &e.phones) {
                d.add_word(&name, &e.phones);
            }
        }
    }
    Ok(d)
}

/// The name under which a pronunciation of `word` is added: `name` if the decoder's
/// dictionary lacks it, else the first free `word(n)`; none when the dictionary already
/// says the word so (a model's dictionary may hold hector's variants, or others under
/// their numbers).
fn free_name(d: &Decoder, word: &str, name: &str, phones: &str) -> Option<String> {
    if !d.knows(name) {
        return Some(name.to_string());
    }
    let mut n = 1u32;
    loop {
        let taken = if n == 1 {
            word.to_string()
        } else {
            format!("{word}({n})")
        };
        match d.phones(&taken) {
            Some(said) if said == phones => return None,
            Some(_) => n += 1,
            None if n == 1 => n += 1,
            None => return Some(taken),
        }
    }
}

impl Recogniser {
    /// Sets the recogniser up for `lang` with `model`: hector's dictionary for the language
    /// (on Debian's English model) and the model's own, if it has one.
    pub fn new(lang: &Language, model: &Model) -> Result<Recogniser, SetupError> {
        let lexicon = Lexicon::for_language(lang);
        if lexicon.is_none() && model.dictionary.is_none() {
            return Err(SetupError::NoDictionary);
        }
        let mut vad = decoder(model, lexicon, END_SILENCE, Hears::Blocks)?;
        let tokens = Tokens::spelled(lang, |w| vad.knows(w))
            .map_err(|unknown| SetupError::UnknownWords(unknown.0))?;
        let mut early = decoder(model, lexicon, EARLY_SILENCE, Hears::Blocks)?;
        let mut position = decoder(model, lexicon, END_SILENCE, Hears::Phrases)?;
        let mut language = decoder(model, lexicon, END_SILENCE, Hears::Phrases)?;
        // Any one word: this decoder's search only has to keep up with the sound.
        let any_word = format!("#JSGF V1.0;\ngrammar vad;\npublic <utt> = {};\n", tokens.no);
        vad.set_grammar(VAD, &any_word)?;
        early.set_grammar(VAD, &any_word)?;
        language.set_grammar(WITHOUT_YES, &grammar::answer(&tokens, Without::Yes))?;
        language.set_grammar(WITHOUT_SECOND, &grammar::answer(&tokens, Without::Second))?;
        language.set_grammar(ANSWER, &grammar::answer(&tokens, Without::Nothing))?;
        language.set_grammar(LANGUAGE, &grammar::language(&tokens))?;
        position.set_grammar(
            POSITION,
            &grammar::position(&Chess::default(), &tokens, None),
        )?;
        Ok(Recogniser {
            vad,
            early,
            decoders: Decoders {
                tokens,
                position,
                language,
            },
        })
    }

    pub fn tokens(&self) -> &Tokens {
        &self.decoders.tokens
    }

    /// The next phrase of `source`; `None` when its sound ended without speech or `stop`
    /// said so. A phrase longer than [`LONGEST_SECONDS`] is cut there (the utterance says so).
    pub fn phrase(
        &mut self,
        source: &mut dyn AudioSource,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Utterance>, PhraseError> {
        let mut cutter = Cutter::new(source.cut(), RATE * LONGEST_SECONDS);
        let anew = source.cut() == Cut::End;
        self.vad
            .start_listening(VAD, anew)
            .map_err(PhraseError::Sphinx)?;
        let found = loop {
            if stop() {
                break None;
            }
            let block = match source.next_block() {
                Ok(Some(b)) => b,
                Ok(None) => break cutter.finish(),
                Err(e) => {
                    self.vad.stop_listening();
                    return Err(PhraseError::Source(e));
                }
            };
            let in_speech = self.vad.listen(&block);
            if let Some(u) = cutter.push(&block, in_speech) {
                break Some(u);
            }
        };
        self.vad.stop_listening();
        Ok(found)
    }

    /// The decodes of a phrase said for a move in `pos` (see [`Decoders::hear_move`]).
    pub fn hear_move(
        &mut self,
        pos: &Chess,
        samples: &[i16],
    ) -> Result<Timed<MoveDecodes>, SphinxError> {
        let go_on = || true;
        self.decoders
            .hear_move(pos, samples, &go_on)?
            .ok_or(SphinxError::Decode)
    }

    /// The decodes of a phrase said as the answer to a question (see
    /// [`Decoders::hear_answer`]).
    pub fn hear_answer(&mut self, samples: &[i16]) -> Result<Timed<AnswerDecodes>, SphinxError> {
        let go_on = || true;
        self.decoders
            .hear_answer(samples, &go_on)?
            .ok_or(SphinxError::Decode)
    }

    /// The next phrase of `source` and its decodes for `expect`; `None` when its sound ended
    /// without speech or `stop` said so.
    ///
    /// A phrase that ends at the first silence (a microphone's) is decoded without the last
    /// 100 ms of that silence, and with `ahead` its decodes start on a thread of their own
    /// as soon as the silence has lasted 100 ms. Should speech resume, that thread is told
    /// to stop after the decode it is in, its result is dropped, and the decodes start again
    /// at the next silence. With or without `ahead`, the same sound gives the same decodes.
    pub fn hear(
        &mut self,
        source: &mut dyn AudioSource,
        stop: &dyn Fn() -> bool,
        expect: &Expect,
        ahead: bool,
    ) -> Result<Option<Phrase>, PhraseError> {
        let at_silence = source.cut() == Cut::FirstSilence;
        let ahead = ahead && at_silence;
        let mut cutter = Cutter::new(source.cut(), RATE * LONGEST_SECONDS);
        let Recogniser {
            vad,
            early,
            decoders,
        } = self;
        let decoders = Mutex::new(decoders);
        // A decode started ahead goes on while its number is the one wanted.
        let wanted = AtomicU64::new(0);
        // A recording's phrase is cut as if nothing had been heard before it.
        vad.start_listening(VAD, !at_silence)
            .map_err(PhraseError::Sphinx)?;
        if ahead && let Err(e) = early.start_listening(VAD, false) {
            vad.stop_listening();
            return Err(PhraseError::Sphinx(e));
        }
        std::thread::scope(|s| {
            let decoders = &decoders;
            let wanted = &wanted;
            // The decodes started ahead: their samples' length and their thread.
            let mut pending = None;
            let mut early_speech = false;
            let mut dropped = 0;
            let found = loop {
                if stop() {
                    break Ok(None);
                }
                let block = match source.next_block() {
                    Ok(Some(b)) => b,
                    Ok(None) => break Ok(cutter.finish().map(|u| (u, false))),
                    Err(e) => break Err(PhraseError::Source(e)),
                };
                let in_speech = vad.listen(&block);
                let early_in_speech = ahead && early.listen(&block);
                if let Some(u) = cutter.push(&block, in_speech) {
                    if at_silence && !u.cut && speech_frames(&u.samples) < LEAST_SPEECH {
                        // No speech in it: decodes started for it are dropped.
                        if let Some((_, old)) = pending.take() {
                            wanted.fetch_add(1, Ordering::SeqCst);
                            let _ = join(old);
                            dropped += 1;
                        }
                        early_speech = false;
                        continue;
                    }
                    break Ok(Some((u, at_silence)));
                }
                if !ahead {
                    continue;
                }
                let fell = early_speech && !early_in_speech;
                early_speech = early_in_speech;
                // Speech resumed within 100 ms of the silence: those decodes are stale.
                if let Some((len, _)) = &pending
                    && cutter.audio().len() >= len + UNDECODED
                {
                    wanted.fetch_add(1, Ordering::SeqCst);
                }
                if fell && in_speech && cutter.heard_speech() {
                    if let Some((_, old)) = pending.take() {
                        wanted.fetch_add(1, Ordering::SeqCst);
                        let _ = join(old);
                        dropped += 1;
                    }
                    let number = wanted.load(Ordering::SeqCst);
                    let samples = cutter.audio().to_vec();
                    let len = samples.len();
                    let started = std::thread::Builder::new()
                        .name("hector-voice-ahead".into())
                        .spawn_scoped(s, move || {
                            let go_on = || wanted.load(Ordering::SeqCst) == number;
                            let mut d = decoders.lock().unwrap_or_else(|p| p.into_inner());
                            d.hear(expect, &samples, &go_on)
                        });
                    // Without a thread, the decodes wait for the end.
                    if let Ok(t) = started {
                        pending = Some((len, t));
                    }
                }
            };
            vad.stop_listening();
            if ahead {
                early.stop_listening();
            }
            let (mut utterance, ended_by_silence) = match found {
                Ok(Some(f)) => f,
                Ok(None) | Err(_) => {
                    wanted.fetch_add(1, Ordering::SeqCst);
                    if let Some((_, t)) = pending.take() {
                        let _ = join(t);
                    }
                    return found.map(|_| None);
                }
            };
            let ended = Instant::now();
            if ended_by_silence && !utterance.cut {
                let keep = utterance.samples.len().saturating_sub(UNDECODED);
                utterance.samples.truncate(keep);
            }
            let early_result = pending.take().and_then(|(len, t)| {
                if len != utterance.samples.len() {
                    wanted.fetch_add(1, Ordering::SeqCst);
                    dropped += 1;
                }
                let result = join(t);
                (len == utterance.samples.len()).then_some(result).flatten()
            });
            let (decodes, ahead) = match early_result {
                Some(d) => (d, true),
                None => {
                    let go_on = || true;
                    let mut d = decoders.lock().unwrap_or_else(|p| p.into_inner());
                    let decodes = d
                        .hear(expect, &utterance.samples, &go_on)
                        .and_then(|d| d.ok_or(SphinxError::Decode))
                        .map_err(PhraseError::Sphinx)?;
                    (decodes, false)
                }
            };
            Ok(Some(Phrase {
                utterance,
                decodes,
                ahead,
                dropped,
                waited: ended.elapsed(),
            }))
        })
    }
}

/// The decodes of a thread started ahead: `None` when they were stopped or failed (they are
/// made again after the phrase's end).
fn join(
    t: std::thread::ScopedJoinHandle<'_, Result<Option<Decodes>, SphinxError>>,
) -> Option<Decodes> {
    t.join().ok().and_then(Result::ok).flatten()
}

impl Decoders {
    /// The decodes of `samples` for `expect`; `None` when `go_on` said to stop between two.
    fn hear(
        &mut self,
        expect: &Expect,
        samples: &[i16],
        go_on: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Decodes>, SphinxError> {
        Ok(match expect {
            Expect::Move(pos) => self.hear_move(pos, samples, go_on)?.map(Decodes::Move),
            Expect::Answer => self.hear_answer(samples, go_on)?.map(Decodes::Answer),
        })
    }

    /// The decodes of a phrase said for a move in `pos`: the position's and the language's
    /// grammars at once, and the second pass without the move or command heard (for a
    /// command only when both grammars heard it).
    ///
    /// A move is played only when both grammars heard it, so the second pass starts as soon
    /// as the language's grammar has heard a move or command of this position, beside the
    /// position's first pass, on the language's decoder: the wait after the phrase is then
    /// the longer of the two threads, not the first passes and then the second. Its result is
    /// used only when the position's grammar heard the same. `None` when `go_on` said to
    /// stop (checked between decodes: one in progress runs to its end).
    fn hear_move(
        &mut self,
        pos: &Chess,
        samples: &[i16],
        go_on: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Timed<MoveDecodes>>, SphinxError> {
        if !go_on() {
            return Ok(None);
        }
        let began = Instant::now();
        let main_cpu = thread_cpu_time();
        let speech = speech_frames(samples);
        self.position
            .set_grammar(POSITION, &grammar::position(pos, &self.tokens, None))?;
        let tokens = &self.tokens;
        let language = &mut self.language;
        let position = &mut self.position;
        let (first, other) = std::thread::scope(|s| {
            let other = s.spawn(move || {
                let cpu = thread_cpu_time();
                language.use_grammar(LANGUAGE)?;
                let other = language.decode(samples)?;
                let heard = other.as_ref().and_then(|d| meaning(&d.words, pos, tokens));
                let ahead = match heard {
                    Some(h) if go_on() => {
                        let without = grammar::position(pos, tokens, Some(h));
                        language.set_grammar(SECOND, &without)?;
                        let second = match language.decode(samples)? {
                            Some(d) => Second::Best(d),
                            None => Second::Nothing,
                        };
                        Some((h, second))
                    }
                    _ => None,
                };
                Ok((other, ahead, thread_cpu_time().saturating_sub(cpu)))
            });
            let first = position.decode(samples);
            let first_cpu = thread_cpu_time().saturating_sub(main_cpu);
            let other = other.join().unwrap_or(Err(SphinxError::Decode));
            (first.map(|f| (f, first_cpu)), other)
        });
        let ((mut first, first_cpu), (other, ahead, other_cpu)) = (first?, other?);
        if !go_on() {
            return Ok(None);
        }
        let again = thread_cpu_time();
        // A short command that covers little of the speech swallowed a longer phrase: the
        // position's moves alone hear it again. The language's grammar heard something else,
        // so what they hear is asked back, never played.
        if let Some(f) = &first
            && matches!(meaning(&f.words, pos, tokens), Some(Heard::Command(_)))
            && coverage(f, speech) < COVERAGE
        {
            self.position
                .set_grammar(MOVES, &grammar::position_moves(pos, tokens))?;
            if let Some(d) = self.position.decode(samples)? {
                first = Some(d);
            }
        }
        let heard = first
            .as_ref()
            .and_then(|d| meaning(&d.words, pos, &self.tokens));
        // Kept also when the words cover too little of the speech: such a move is asked
        // back whatever the margin, and the second pass's best (often the phrase with the
        // word the first lost: "Dame Hector quatre" heard as "hector quatre") may be named
        // second in the question. It was decoded already.
        let second = match (&first, heard, ahead) {
            (Some(_), Some(h), Some((said, second))) if said == h => second,
            // The grammars heard different things: the move is asked back whatever comes,
            // and a second pass without it (on the position's decoder, after the first
            // passes: only phrases asked back wait for it) finds the move to name second.
            (Some(_), Some(h @ Heard::Move(_)), _) => {
                if !go_on() {
                    return Ok(None);
                }
                self.position
                    .set_grammar(SECOND, &grammar::position(pos, tokens, Some(h)))?;
                match self.position.decode(samples)? {
                    Some(d) => Second::Best(d),
                    None => Second::Nothing,
                }
            }
            _ => Second::NotRun,
        };
        Ok(Some(Timed {
            decodes: MoveDecodes {
                position: first,
                language: other,
                second,
                speech_frames: speech,
            },
            took: began.elapsed(),
            cpu_path: first_cpu.max(other_cpu) + thread_cpu_time().saturating_sub(again),
        }))
    }

    /// The decodes of a phrase said as the answer to a question: with the answer's grammar,
    /// and for a "yes" again without it; `None` when `go_on` said to stop.
    fn hear_answer(
        &mut self,
        samples: &[i16],
        go_on: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Timed<AnswerDecodes>>, SphinxError> {
        if !go_on() {
            return Ok(None);
        }
        let began = Instant::now();
        let cpu = thread_cpu_time();
        self.language.use_grammar(ANSWER)?;
        let answer = self.language.decode(samples)?;
        // "yes" and the second's word are heard again without the word heard.
        let again = answer.as_ref().and_then(|a| {
            let words = a.words.trim();
            if words == self.tokens.yes {
                Some(WITHOUT_YES)
            } else if words == self.tokens.second {
                Some(WITHOUT_SECOND)
            } else {
                None
            }
        });
        let without = match again {
            Some(without) => {
                if !go_on() {
                    return Ok(None);
                }
                self.language.use_grammar(without)?;
                match self.language.decode(samples)? {
                    Some(d) => Second::Best(d),
                    None => Second::Nothing,
                }
            }
            _ => Second::NotRun,
        };
        Ok(Some(Timed {
            decodes: AnswerDecodes {
                answer,
                without,
                speech_frames: speech_frames(samples),
            },
            took: began.elapsed(),
            cpu_path: thread_cpu_time().saturating_sub(cpu),
        }))
    }
}

/// Why no phrase came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhraseError {
    Source(SourceError),
    Sphinx(SphinxError),
}
