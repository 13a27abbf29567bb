//! How the player starts hector again: the words a hint should name.

use std::path::PathBuf;

/// `hector` when that name on the PATH is this program, else this program's full path (a
/// player who started it through `scripts/play` may not have it on the PATH).
pub fn command_name() -> String {
    let Ok(me) = std::env::current_exe().and_then(std::fs::canonicalize) else {
        return "hector".to_string();
    };
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let candidate: PathBuf = dir.join("hector");
            std::fs::canonicalize(candidate).is_ok_and(|p| p == me)
        })
    });
    if on_path {
        "hector".to_string()
    } else {
        me.display().to_string()
    }
}
