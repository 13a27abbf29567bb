//! The recogniser: PocketSphinx decoders set up with a language's words, the phrase cut out
//! of a source's sound, and that phrase decoded with the core's grammars. What to do with the
//! decodes is the core's decision (`core::voice::decide`).
//!
//! Three decoders, none shared between threads: one hears when speech begins and ends, one
//! decodes with the position's grammar, one with the language's grammar (then the second
//! pass without the move it heard) and the answers' grammars. The position's pass runs on
//! one thread, the language's and the second pass on another.

use std::time::{Duration, Instant};

use shakmaty::Chess;

use crate::core::notation::language::Language;
use crate::core::voice::decide::{AnswerDecodes, COVERAGE, MoveDecodes, Second, coverage, meaning};
use crate::core::voice::grammar::{self, Heard};
use crate::core::voice::lexicon::Lexicon;
use crate::core::voice::tokens::Tokens;
use crate::core::voice::utterance::{Cutter, RATE, Utterance, speech_frames};
use crate::io::voice::model::Model;
use crate::io::voice::source::{AudioSource, SourceError};
use crate::io::voice::sphinx::{Decoder, Setup, SphinxError, thread_cpu_time};

/// The longest phrase, in seconds: a move with its squares takes three.
pub const LONGEST_SECONDS: usize = 8;

/// Frames of silence (10 ms each) that end a phrase: 200 ms (the default 500 ms makes the
/// player wait; 150 ms cut phrases at a pause between words).
const END_SILENCE: u32 = 20;

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
    pub took: Duration,
    /// The processor time of the longer of the decoding threads: the wait on an idle
    /// machine with a core for each.
    pub cpu_path: Duration,
}

pub struct Recogniser {
    tokens: Tokens,
    vad: Decoder,
    position: Decoder,
    language: Decoder,
}

const LANGUAGE: &str = "language";
const ANSWER: &str = "answer";
const WITHOUT_YES: &str = "without_yes";
const POSITION: &str = "position";
const SECOND: &str = "second";
const MOVES: &str = "moves";
const VAD: &str = "vad";

/// A decoder for `model` that knows the words of `lexicon`, if any.
fn decoder(model: &Model, lexicon: Option<&Lexicon>) -> Result<Decoder, SetupError> {
    let mut d = Decoder::new(&Setup {
        model: &model.dir,
        dictionary: model.dictionary.as_deref(),
        end_silence: END_SILENCE,
    })?;
    if let Some(lexicon) = lexicon {
        for e in lexicon.entries() {
            // A word the model's own dictionary has keeps its pronunciation there; hector's
            // adds the variants it lacks (a phone the model does not know is refused here).
            if e.name == e.word && d.knows(&e.word) && model.dictionary.is_some() {
                continue;
            }
            d.add_word(&e.name, &e.phones);
        }
    }
    Ok(d)
}

impl Recogniser {
    /// Sets the recogniser up for `lang` with `model`: hector's dictionary for the language
    /// (on Debian's English model) and the model's own, if it has one.
    pub fn new(lang: &Language, model: &Model) -> Result<Recogniser, SetupError> {
        let lexicon = Lexicon::embedded(&lang.code);
        if lexicon.is_none() && model.dictionary.is_none() {
            return Err(SetupError::NoDictionary);
        }
        let mut vad = decoder(model, lexicon)?;
        let tokens = Tokens::spelled(lang, |w| vad.knows(w))
            .map_err(|unknown| SetupError::UnknownWords(unknown.0))?;
        let mut position = decoder(model, lexicon)?;
        let mut language = decoder(model, lexicon)?;
        // Any one word: this decoder's search only has to keep up with the sound.
        vad.set_grammar(
            VAD,
            &format!("#JSGF V1.0;\ngrammar vad;\npublic <utt> = {};\n", tokens.no),
        )?;
        language.set_grammar(WITHOUT_YES, &grammar::answer(&tokens, false))?;
        language.set_grammar(ANSWER, &grammar::answer(&tokens, true))?;
        language.set_grammar(LANGUAGE, &grammar::language(&tokens))?;
        position.set_grammar(
            POSITION,
            &grammar::position(&Chess::default(), &tokens, None),
        )?;
        Ok(Recogniser {
            tokens,
            vad,
            position,
            language,
        })
    }

    pub fn tokens(&self) -> &Tokens {
        &self.tokens
    }

    /// The next phrase of `source`; `None` when its sound ended without speech or `stop`
    /// said so. A phrase longer than [`LONGEST_SECONDS`] is cut there (the utterance says so).
    pub fn phrase(
        &mut self,
        source: &mut dyn AudioSource,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Utterance>, PhraseError> {
        let mut cutter = Cutter::new(source.cut(), RATE * LONGEST_SECONDS);
        self.vad.start_listening(VAD).map_err(PhraseError::Sphinx)?;
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

    /// The decodes of a phrase said for a move in `pos`: the position's and the language's
    /// grammars at once, and, when both heard the same and the words cover the speech, the
    /// second pass without what was heard.
    ///
    /// A move is played only when both grammars heard it, so the second pass starts as soon
    /// as the language's grammar has heard a move or command of this position, beside the
    /// position's first pass, on the language's decoder: the wait after the phrase is then
    /// the longer of the two threads, not the first passes and then the second. Its result is
    /// used only when the position's grammar heard the same.
    pub fn hear_move(
        &mut self,
        pos: &Chess,
        samples: &[i16],
    ) -> Result<Timed<MoveDecodes>, SphinxError> {
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
                    Some(h) => {
                        let without = grammar::position(pos, tokens, Some(h));
                        language.set_grammar(SECOND, &without)?;
                        let second = match language.decode(samples)? {
                            Some(d) => Second::Best(d),
                            None => Second::Nothing,
                        };
                        Some((h, second))
                    }
                    None => None,
                };
                Ok((other, ahead, thread_cpu_time().saturating_sub(cpu)))
            });
            let first = position.decode(samples);
            let first_cpu = thread_cpu_time().saturating_sub(main_cpu);
            let other = other.join().unwrap_or(Err(SphinxError::Decode));
            (first.map(|f| (f, first_cpu)), other)
        });
        let ((mut first, first_cpu), (other, ahead, other_cpu)) = (first?, other?);
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
        let second = match (&first, heard, ahead) {
            (Some(f), Some(h), Some((said, second)))
                if said == h && coverage(f, speech) >= COVERAGE =>
            {
                second
            }
            _ => Second::NotRun,
        };
        Ok(Timed {
            decodes: MoveDecodes {
                position: first,
                language: other,
                second,
                speech_frames: speech,
            },
            took: began.elapsed(),
            cpu_path: first_cpu.max(other_cpu) + thread_cpu_time().saturating_sub(again),
        })
    }

    /// The decodes of a phrase said as the answer to a question: with the answer's grammar,
    /// and for a "yes" again without it.
    pub fn hear_answer(&mut self, samples: &[i16]) -> Result<Timed<AnswerDecodes>, SphinxError> {
        let began = Instant::now();
        let cpu = thread_cpu_time();
        self.language.use_grammar(ANSWER)?;
        let answer = self.language.decode(samples)?;
        let without_yes = match &answer {
            Some(a) if a.words.trim() == self.tokens.yes => {
                self.language.use_grammar(WITHOUT_YES)?;
                match self.language.decode(samples)? {
                    Some(d) => Second::Best(d),
                    None => Second::Nothing,
                }
            }
            _ => Second::NotRun,
        };
        Ok(Timed {
            decodes: AnswerDecodes {
                answer,
                without_yes,
                speech_frames: speech_frames(samples),
            },
            took: began.elapsed(),
            cpu_path: thread_cpu_time().saturating_sub(cpu),
        })
    }
}

/// Why no phrase came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhraseError {
    Source(SourceError),
    Sphinx(SphinxError),
}
