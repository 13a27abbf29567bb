//! Hearing a move: the words a recogniser listens for (grammars made from the language
//! tables, and how those words sound), the phrase cut out of the audio, and the decision
//! taken from what was heard (play, ask back, nothing). No audio device and no recogniser
//! here: `io::voice` has them and brings their results.

pub mod decide;
pub mod grammar;
pub(crate) mod lexicon;
pub(crate) mod near;
pub(crate) mod tokens;
pub(crate) mod utterance;
pub use crate::notation::words::voice as words;
pub use lexicon::Lexicon;
pub use tokens::{Tokens, VoiceCommand};
pub use utterance::{Cut, Cutter, FRAME, RATE, Utterance, speech_frames};
