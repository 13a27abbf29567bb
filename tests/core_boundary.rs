//! The core's boundary, enforced: no code of `src/core` (outside its tests) reaches for files,
//! processes, threads, the network, the environment, the system clock, the terminal, the
//! speech or serial libraries, or hector's adapters and modes (`crate::io`, `crate::app`).
//! A rule broken here is named with its file and line.

// Tests and benchmarks stop at the first surprise, and the pseudo-terminals need the
// system's calls: the crate's [lints] are for hector itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

use std::path::{Path, PathBuf};

/// What the core must not name, and why.
const FORBIDDEN: &[(&str, &str)] = &[
    ("std::fs", "files"),
    ("std::net", "the network"),
    ("std::process", "processes"),
    ("std::thread", "threads"),
    ("std::env", "the environment"),
    ("std::io::std", "the terminal's streams"),
    (
        "Instant",
        "the system clock (instants are passed in as Timestamp)",
    ),
    ("SystemTime", "the system clock"),
    ("println!", "the terminal"),
    ("eprintln!", "the terminal"),
    ("print!(", "the terminal"),
    ("eprint!(", "the terminal"),
    ("dbg!(", "the terminal"),
    ("crossterm", "the terminal"),
    ("ratatui", "the terminal"),
    ("serialport", "serial ports"),
    ("tts::", "speech"),
    ("speech_dispatcher", "speech"),
    ("nix::", "the operating system"),
    ("directories::", "the file system"),
    ("crossbeam", "threads"),
    ("std::sync::mpsc", "threads"),
    ("crate::io", "the adapters"),
    ("crate::app", "the modes"),
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).expect("core/src is readable");
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of a core file that are not test code: files of tests are skipped, and a file's
/// `#[cfg(test)]` module (at its end, by the project's convention) is cut off.
fn production_lines(path: &Path) -> Vec<(usize, String)> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name == "tests.rs" || name.ends_with("_tests.rs") {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).expect("a core file is readable");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        // What follows a line comment is prose.
        let code = match code.find("//") {
            Some(at) => &code[..at],
            None => code,
        };
        out.push((i + 1, code.to_string()));
    }
    out
}

#[test]
fn the_core_does_no_io_and_knows_no_adapter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("core/src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    assert!(files.len() > 20, "the core's files: {files:?}");
    let mut broken = Vec::new();
    for file in &files {
        for (number, line) in production_lines(file) {
            for (word, what) in FORBIDDEN {
                if line.contains(word) {
                    broken.push(format!(
                        "{}:{number}: {word} ({what}): {line}",
                        file.strip_prefix(&root).unwrap_or(file).display()
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "the core must stay pure:\n{}",
        broken.join("\n")
    );
}

/// The check itself finds what it is meant to find.
#[test]
fn the_check_finds_a_forbidden_use() {
    let dir = std::env::temp_dir().join(format!("hector-boundary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("sample.rs");
    std::fs::write(
        &file,
        "use crate::io::journal;\n// std::fs in a comment\nfn f() {}\n#[cfg(test)]\nmod tests { use std::fs; }\n",
    )
    .expect("write");
    let lines = production_lines(&file);
    let _ = std::fs::remove_dir_all(&dir);
    let hits: Vec<_> = lines
        .iter()
        .filter(|(_, l)| FORBIDDEN.iter().any(|(w, _)| l.contains(w)))
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(hits, [1]);
}
