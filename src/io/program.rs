//! How the player starts hector again: the words a hint should name.

use std::path::PathBuf;

use crate::core::notation::{Language, fill};

/// The command a hint names, as the player types it. Said whole, a full path would be a long
/// string of folder names to listen through.
pub(crate) const COMMAND: &str = "hector";

/// This program's full path when `hector` on the PATH is not this program (a player who
/// started it through `scripts/play` may not have it on the PATH); `None` when the command
/// alone starts it.
pub(crate) fn path_off_the_path() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let me = std::fs::canonicalize(&exe).ok()?;
    // `hector.exe` on Windows, where a canonical path is also written `\\?\C:\…`: the path
    // shown is the one the system started hector by.
    let file = crate::io::platform::process::program_file(COMMAND);
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let candidate: PathBuf = dir.join(&file);
            std::fs::canonicalize(candidate).is_ok_and(|p| p == me)
        })
    });
    (!on_path).then(|| exe.display().to_string())
}

/// The line shown (never said) after a hint that names the command, when the command alone
/// would not find this program: where it is.
pub fn path_line(lang: &Language) -> Option<String> {
    path_off_the_path().map(|path| fill(&lang.play.program_path, &[("path", &path)]))
}
