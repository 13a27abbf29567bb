//! Embeds every language table in assets/lang/ into the core, so that adding a language is
//! adding a file; and checks every table against de.toml, the reference: a table that is not
//! TOML, lacks a key or has one de.toml does not have, or whose text drops or invents a
//! placeholder ({piece}, {square}…), stops the build with the file, the key and what is wrong.
//! (The tests load every table through the same types hector uses and check the rest.)

#![expect(
    clippy::panic,
    reason = "a build script reports failure by panicking: that is how cargo stops the build"
)]

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // The tables live at the top of the repository, beside the binary's other assets.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/lang");
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=tables_check.rs");
    let mut entries: Vec<(String, String)> = Vec::new();
    if let Ok(read) = std::fs::read_dir(&dir) {
        for entry in read.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "toml")
                && let Some(code) = path.file_stem().and_then(|s| s.to_str())
            {
                println!("cargo:rerun-if-changed={}", path.display());
                entries.push((code.to_string(), path.display().to_string()));
            }
        }
    }
    entries.sort();
    let problems = check_tables(&entries);
    if !problems.is_empty() {
        panic!(
            "the language tables in {} are not complete:\n{}",
            dir.display(),
            problems.join("\n")
        );
    }
    let mut out =
        String::from("/// Language tables embedded from assets/lang/ (code, TOML text).\n");
    out.push_str("pub static EMBEDDED: &[(&str, &str)] = &[\n");
    for (code, path) in &entries {
        let _ = writeln!(out, "    ({code:?}, include_str!({path:?})),");
    }
    out.push_str("];\n");
    let target =
        Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("languages.rs");
    if let Err(e) = std::fs::write(&target, out) {
        panic!("cannot write {}: {e}", target.display());
    }
}

// The checks, shared with the tests (notation::language), which run them on broken tables.
include!("tables_check.rs");
