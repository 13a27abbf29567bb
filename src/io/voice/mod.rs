//! Hearing the player: audio from a microphone or a recording, the phrase cut out of it, and
//! PocketSphinx's decodes of it with the core's grammars (`core::voice`), on a thread of its
//! own. The decisions are the core's.

pub(crate) mod log;
pub mod model;
pub mod recogniser;
pub mod source;
pub(crate) mod sphinx;
pub(crate) mod wav;
