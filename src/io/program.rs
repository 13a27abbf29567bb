//! How the player starts hector again: the words a hint should name.

use std::path::PathBuf;

/// `hector` when that name on the PATH is this program, else this program's full path (a
/// player who started it through `scripts/play` may not have it on the PATH).
pub(crate) fn command_name() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return "hector".to_string();
    };
    let Ok(me) = std::fs::canonicalize(&exe) else {
        return "hector".to_string();
    };
    // `hector.exe` on Windows, where a canonical path is also written `\\?\C:\…`: the path
    // shown is the one the system started hector by.
    let file = crate::io::platform::process::program_file("hector");
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| {
            let candidate: PathBuf = dir.join(&file);
            std::fs::canonicalize(candidate).is_ok_and(|p| p == me)
        })
    });
    if on_path {
        "hector".to_string()
    } else {
        exe.display().to_string()
    }
}
