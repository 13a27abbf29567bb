//! The messages' locale on Windows: the environment's when a shell set one, else the user's
//! interface language.
//!
//! Unsafe code: one Win32 call that takes nothing and only returns a number.
#![allow(
    unsafe_code,
    reason = "one Win32 call that takes nothing and returns the interface language"
)]

use windows_sys::Win32::Globalization::GetUserDefaultUILanguage;

/// The locale the system names for messages: a locale variable, else the user's interface
/// language as its two-letter code ("fr"); `None` for a language hector has no name for.
pub(crate) fn messages_locale() -> Option<String> {
    super::from_environment().or_else(|| {
        // SAFETY: takes nothing and returns the user's interface language identifier.
        let id = unsafe { GetUserDefaultUILanguage() };
        primary_language(id).map(str::to_string)
    })
}

/// The code of a language identifier's primary language (its low ten bits), for the
/// languages hector speaks.
fn primary_language(id: u16) -> Option<&'static str> {
    match id & 0x3ff {
        0x07 => Some("de"),
        0x09 => Some("en"),
        0x0a => Some("es"),
        0x0c => Some("fr"),
        0x13 => Some("nl"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_language_of_an_identifier() {
        // fr-FR, fr-CA, de-AT, nl-BE, en-GB, es-MX; Italian has no table.
        assert_eq!(primary_language(0x040c), Some("fr"));
        assert_eq!(primary_language(0x0c0c), Some("fr"));
        assert_eq!(primary_language(0x0c07), Some("de"));
        assert_eq!(primary_language(0x0813), Some("nl"));
        assert_eq!(primary_language(0x0809), Some("en"));
        assert_eq!(primary_language(0x080a), Some("es"));
        assert_eq!(primary_language(0x0410), None);
    }
}
