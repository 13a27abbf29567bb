//! The messages' locale on Unix: the environment's, nothing else.

/// The locale the system names for messages ("fr_FR.UTF-8", "C"); `None` when unset.
pub(crate) fn messages_locale() -> Option<String> {
    super::from_environment()
}
