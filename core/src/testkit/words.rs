//! What the core's unit tests share: the language tables and instants.

use crate::notation::language::{Language, language};
use crate::time::Timestamp;

/// The German table, hector's default language.
pub fn de() -> &'static Language {
    language("de").expect("German is built in")
}

/// The English table.
pub fn en() -> &'static Language {
    language("en").expect("English is built in")
}

/// The instant `ms` milliseconds after the start.
pub fn t(ms: u64) -> Timestamp {
    Timestamp::from_millis(ms)
}
