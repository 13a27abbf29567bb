//! The floors of hector, held by reading every source file whole: core < io < app's services
//! < app's modes < cli. The core is a crate of its own, so the compiler keeps io, app and cli
//! out of it; this test keeps it from files, processes, threads, the network, the clock and
//! the terminal, and keeps each floor of the binary crate from naming a floor above it: io
//! names no app and no cli, app names no cli, a service names no mode, a mode names no other
//! mode. Paths are resolved as the compiler reads them: `use` trees with their groups
//! (`use std::{fs, thread}`), `super::` and `self::` from the module a line stands in
//! (inline `mod` blocks included), paths written inline in expressions
//! (`crate::app::x::f()`), the names a `use` or an `extern crate … as` brings into a module
//! (`use std::io; io::stdout()`, `use std as s`, `extern crate self as h`), the re-exports
//! of every module of the crate (`pub use app::modes::play as p;` in lib.rs), the files a
//! `#[path]` module or an `include!` brings in (read as the module that brings them in), and
//! paths a macro builds from its arguments (`std::$m::read`, which cannot be checked and
//! counts as broken). Comments and string literals are no code. A broken rule is named with
//! its file and line.

#![allow(
    clippy::expect_used,
    reason = "tests stop at the first surprise; the crate's lints are for hector itself"
)]

use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------
// Reading Rust: code without comments and literals, tokens, module paths, named paths.

/// The text with comments, string literals and character literals blanked out (newlines
/// kept, so lines stay the file's).
fn code_only(text: &str) -> Vec<char> {
    let s: Vec<char> = text.chars().collect();
    let mut out = s.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in out.iter_mut().take(to.min(s.len())).skip(from) {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = s[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(s.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (1, i + 2);
            while j < s.len() && depth > 0 {
                if s[j] == '/' && s.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if s[j] == '*' && s.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !prev_is_ident(&s, i)
            && raw_string_at(&s, if c == 'b' { i + 1 } else { i }).is_some()
        {
            let start = if c == 'b' { i + 1 } else { i };
            let end = raw_string_at(&s, start).unwrap_or(s.len());
            blank(&mut out, i, end);
            i = end;
        } else if c == '"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != '"' {
                j += if s[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}'), else a lifetime ('a).
            let end = if next == Some('\\') {
                s[i + 2..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map(|p| i + 2 + p)
            } else if s.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    blank(&mut out, i, end + 1);
                    i = end + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

fn prev_is_ident(s: &[char], i: usize) -> bool {
    i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_')
}

/// Where the raw string starting at `i` (`r"…"`, `r#"…"#`) ends, if one starts there.
fn raw_string_at(s: &[char], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let mut hashes = 0;
    while s.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if s.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < s.len() {
        if s[j] == '"' && (1..=hashes).all(|k| s.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(s.len())
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
}

/// The tokens of blanked code, each with its line, and where each starts (in chars).
fn tokens(code: &[char]) -> (Vec<(Tok, usize)>, Vec<usize>) {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < code.len() {
        let c = code[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < code.len() && (code[i].is_alphanumeric() || code[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(code[start..i].iter().collect()), line));
            starts.push(start);
        } else if c == ':' && code.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            starts.push(i);
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            starts.push(i);
            i += 1;
        }
    }
    (out, starts)
}

/// The string literal that begins after char `from` of the original text (the first `"` on),
/// unescaped only as far as a path needs.
fn literal_after(text: &[char], from: usize) -> Option<String> {
    let open = from + text.get(from..)?.iter().position(|&c| c == '"')?;
    let mut out = String::new();
    let mut j = open + 1;
    while j < text.len() && text[j] != '"' {
        if text[j] == '\\' {
            j += 1;
        }
        if let Some(&c) = text.get(j) {
            out.push(c);
        }
        j += 1;
    }
    Some(out)
}

/// A path the code names, resolved to where it leads.
#[derive(Clone, Debug, PartialEq)]
struct Named {
    line: usize,
    /// From the crate's root (`crate`, `super`, `self` resolved), or as written when it starts
    /// with another crate (std, shakmaty, …).
    path: Vec<String>,
    /// Ends in `::*`.
    glob: bool,
    /// Inside `#[cfg(test)]` code.
    test: bool,
    /// A macro builds it from its arguments (`std::$m::read`): where it leads is not known.
    built: bool,
}

/// The names a module brings into scope (`use`, `extern crate … as`), by the module they stand
/// in and the name, to the paths they stand for.
type Aliases = std::collections::HashMap<(Vec<String>, String), Vec<String>>;

/// A module whose file a `#[path]` names, or a file `include!` brings in: read as code of
/// `module` (the module declared, or the one including).
#[derive(Clone, Debug, PartialEq)]
struct Brought {
    line: usize,
    /// As written, relative to the declaring file's folder; `None`: not a literal the check
    /// can follow.
    file: Option<String>,
    module: Vec<String>,
    test: bool,
    /// By `#[path]` (else `include!`).
    path_attribute: bool,
}

/// What one file names: its paths, its macros, and the modules it declares as test code
/// (`#[cfg(test)] mod tests;`, whose files are test code too).
#[derive(Debug, Default)]
struct Scan {
    named: Vec<Named>,
    macros: Vec<(usize, String, bool)>,
    test_modules: Vec<String>,
    aliases: Aliases,
    /// The modules declared in the file (`mod x;`, `mod x { … }`), as paths.
    declared: std::collections::HashSet<Vec<String>>,
    brought: Vec<Brought>,
}

/// One path of a `use` tree: the path, whether it is a glob, and the name it brings into
/// scope (its last segment, or its `as` name; none for a glob or `as _`).
type UsePath = (Vec<String>, bool, Option<String>);

/// Expands a `use` tree (the tokens between `use` and `;`) into its paths.
fn use_paths(toks: &[Tok]) -> Vec<UsePath> {
    fn tree(toks: &[Tok], i: &mut usize, prefix: &[String], out: &mut Vec<UsePath>) {
        let mut path = prefix.to_vec();
        let mut itself = false;
        loop {
            match toks.get(*i) {
                Some(Tok::Ident(word)) if word == "as" => {
                    // The renamed path is what is named; the new name stands for it.
                    let name = match toks.get(*i + 1) {
                        Some(Tok::Ident(n)) if n != "_" => Some(n.clone()),
                        _ => None,
                    };
                    *i += 2;
                    out.push((path, false, name));
                    return;
                }
                Some(Tok::Ident(word)) => {
                    // `self` inside a group names the group's prefix itself.
                    if word == "self" && !prefix.is_empty() && path.len() == prefix.len() {
                        itself = true;
                    } else {
                        path.push(word.clone());
                    }
                    *i += 1;
                }
                Some(Tok::Sep) => *i += 1,
                Some(Tok::Punct('*')) => {
                    *i += 1;
                    out.push((path, true, None));
                    return;
                }
                Some(Tok::Punct('{')) => {
                    *i += 1;
                    loop {
                        match toks.get(*i) {
                            Some(Tok::Punct('}')) => {
                                *i += 1;
                                return;
                            }
                            Some(Tok::Punct(',')) => *i += 1,
                            None => return,
                            _ => tree(toks, i, &path, out),
                        }
                    }
                }
                _ => {
                    if path.len() > prefix.len() || prefix.is_empty() || itself {
                        let name = path.last().cloned();
                        out.push((path, false, name));
                    }
                    return;
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    // A leading `::` names an outside crate, as a path without it does.
    if toks.first() == Some(&Tok::Sep) {
        i = 1;
    }
    tree(toks, &mut i, &[], &mut out);
    out.retain(|(p, _, _)| !p.is_empty());
    out
}

/// Resolves `crate::`, `super::` and `self::` from `module` (the path of the module the line
/// stands in); other paths are left as written.
fn resolve(module: &[String], path: &[String]) -> Vec<String> {
    if !matches!(
        path.first().map(String::as_str),
        Some("crate" | "hector" | "self" | "super")
    ) {
        return path.to_vec();
    }
    let mut here: Vec<String> = module.to_vec();
    let mut rest = path;
    // `self::super::super::x`, `crate::…`: the keywords lead, in any order the compiler takes.
    while let Some(first) = rest.first() {
        match first.as_str() {
            "crate" | "hector" => here.clear(),
            "self" => {}
            "super" => {
                here.pop();
            }
            _ => break,
        }
        rest = &rest[1..];
    }
    here.extend(rest.iter().cloned());
    here
}

/// Resolves a path written in module `here`: `crate::`, `super::`, `self::` as [`resolve`]
/// does; a name the module brought into scope to what it stands for; a module declared in
/// this one to its full path; other paths (std, shakmaty, …) as written.
fn resolve_in(
    here: &[String],
    path: &[String],
    aliases: &Aliases,
    declared: &std::collections::HashSet<Vec<String>>,
) -> Vec<String> {
    let Some(first) = path.first() else {
        return Vec::new();
    };
    if matches!(first.as_str(), "crate" | "hector" | "self" | "super") {
        return resolve(here, path);
    }
    if let Some(target) = aliases.get(&(here.to_vec(), first.clone())) {
        return target.iter().chain(&path[1..]).cloned().collect();
    }
    let child: Vec<String> = here.iter().chain(std::iter::once(first)).cloned().collect();
    if !here.is_empty() && declared.contains(&child) {
        return here.iter().chain(path).cloned().collect();
    }
    path.to_vec()
}

/// Reads one file whose module path is `module`: the names its `use`s bring into scope are
/// read first (again while they change, as `use std as s; use s::io;` needs), then its paths
/// resolved with them.
fn scan(text: &str, module: &[String]) -> Scan {
    let mut aliases = Aliases::new();
    let mut declared = std::collections::HashSet::new();
    for _ in 0..6 {
        let s = scan_with(text, module, &aliases, &declared);
        if s.aliases == aliases && s.declared == declared {
            return s;
        }
        aliases = s.aliases;
        declared = s.declared;
    }
    scan_with(text, module, &aliases, &declared)
}

/// Reads one file with the names in scope and the modules declared as read so far.
fn scan_with(
    text: &str,
    module: &[String],
    aliases: &Aliases,
    declared: &std::collections::HashSet<Vec<String>>,
) -> Scan {
    let original: Vec<char> = text.chars().collect();
    let code = code_only(text);
    let (toks, starts) = tokens(&code);
    let mut scan = Scan::default();
    // `#[path = "…"]` seen, for the next `mod`.
    let mut path_attribute: Option<String> = None;
    // Inside a `macro_rules!` body: its depth.
    let mut macro_body: Option<usize> = None;
    // Inline modules: name, brace depth inside them, test code or not.
    let mut mods: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    // `#[cfg(test)]` seen, for the next item; and the item of test code being read: the depth
    // it stands at and whether its block has opened.
    let mut cfg_test = false;
    let mut test_item: Option<(usize, bool)> = None;
    let mut i = 0;
    let ident = |k: usize| match toks.get(k) {
        Some((Tok::Ident(w), _)) => Some(w.as_str()),
        _ => None,
    };
    while i < toks.len() {
        let (tok, line) = (&toks[i].0, toks[i].1);
        // Attributes: `#[cfg(test)]` marks the next item; the others are skipped.
        if *tok == Tok::Punct('#') && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Punct('[')) {
            let mut j = i + 2;
            let mut level = 1;
            let mut words = Vec::new();
            while j < toks.len() && level > 0 {
                match &toks[j].0 {
                    Tok::Punct('[') => level += 1,
                    Tok::Punct(']') => level -= 1,
                    Tok::Ident(w) => words.push(w.clone()),
                    _ => {}
                }
                j += 1;
            }
            if words == ["cfg", "test"] {
                cfg_test = true;
            }
            if words.first().map(String::as_str) == Some("path") {
                path_attribute = literal_after(&original, starts[i]);
            }
            i = j;
            continue;
        }
        let here: Vec<String> = module
            .iter()
            .cloned()
            .chain(mods.iter().map(|m| m.0.clone()))
            .collect();
        // A module declared: its path, and the file a `#[path]` names for it.
        if ident(i) == Some("mod")
            && let Some(name) = ident(i + 1)
        {
            let path: Vec<String> = here.iter().cloned().chain([name.to_string()]).collect();
            scan.declared.insert(path.clone());
            if let Some(file) = path_attribute.take() {
                scan.brought.push(Brought {
                    line,
                    file: Some(file),
                    module: path,
                    test: cfg_test || mods.iter().any(|m| m.2) || test_item.is_some(),
                    path_attribute: true,
                });
            }
        }
        if cfg_test && test_item.is_none() {
            cfg_test = false;
            if ident(i) == Some("mod") && toks.get(i + 2).map(|t| &t.0) == Some(&Tok::Punct(';')) {
                if let Some(name) = ident(i + 1) {
                    scan.test_modules.push(name.to_string());
                }
                i += 3;
                continue;
            }
            test_item = Some((depth, false));
        }
        let in_test = mods.iter().any(|m| m.2) || test_item.is_some();
        match tok {
            Tok::Punct('{') => {
                if ident(i.wrapping_sub(2)) == Some("mod")
                    && let Some(name) = ident(i - 1)
                {
                    let test = matches!(test_item, Some((d, false)) if d == depth);
                    if test {
                        test_item = None;
                    }
                    mods.push((name.to_string(), depth + 1, test));
                }
                if let Some((d, opened)) = &mut test_item
                    && *d == depth
                {
                    *opened = true;
                }
                // `macro_rules! name {`: the body's paths may be built from arguments.
                if macro_body.is_none()
                    && toks.get(i.wrapping_sub(2)).map(|t| &t.0) == Some(&Tok::Punct('!'))
                    && ident(i.wrapping_sub(3)) == Some("macro_rules")
                {
                    macro_body = Some(depth);
                }
                depth += 1;
            }
            Tok::Punct('}') => {
                if mods.last().is_some_and(|m| m.1 == depth) {
                    mods.pop();
                }
                if macro_body == Some(depth.saturating_sub(1)) {
                    macro_body = None;
                }
                depth = depth.saturating_sub(1);
                if matches!(test_item, Some((d, true)) if d == depth) {
                    test_item = None;
                }
            }
            Tok::Punct(';') => {
                if matches!(test_item, Some((d, false)) if d == depth) {
                    test_item = None;
                }
            }
            Tok::Punct('!') => {
                if let Some(name) = ident(i.wrapping_sub(1)) {
                    scan.macros.push((line, name.to_string(), in_test));
                    if name == "include" {
                        // A literal path is followed; the build script's own output
                        // (`concat!(env!("OUT_DIR"), …)`) is data it writes; anything else
                        // cannot be followed.
                        // `include!("x.rs")`: the literal is blanked, `(` then `)` remain.
                        let literal =
                            matches!(toks.get(i + 2).map(|t| &t.0), Some(Tok::Punct(')')));
                        let out_dir = ident(i + 2) == Some("concat")
                            && ident(i + 5) == Some("env")
                            && literal_after(&original, starts[i]).as_deref() == Some("OUT_DIR");
                        if !out_dir {
                            scan.brought.push(Brought {
                                line,
                                file: literal
                                    .then(|| literal_after(&original, starts[i]))
                                    .flatten(),
                                module: here.clone(),
                                test: in_test,
                                path_attribute: false,
                            });
                        }
                    }
                }
            }
            Tok::Ident(w)
                if w == "extern" && ident(i + 1) == Some("crate") && ident(i + 3) == Some("as") =>
            {
                if let (Some(krate), Some(name)) = (ident(i + 2), ident(i + 4)) {
                    let target = match krate {
                        "self" => Vec::new(),
                        other => vec![other.to_string()],
                    };
                    if name != "_" {
                        scan.aliases
                            .insert((here.clone(), name.to_string()), target.clone());
                    }
                    scan.named.push(Named {
                        line,
                        path: target,
                        glob: false,
                        test: in_test,
                        built: false,
                    });
                }
                i += 5;
                continue;
            }
            Tok::Ident(w) if w == "use" => {
                let end = (i + 1..toks.len())
                    .find(|&k| toks[k].0 == Tok::Punct(';'))
                    .unwrap_or(toks.len());
                let tree: Vec<Tok> = toks[i + 1..end].iter().map(|t| t.0.clone()).collect();
                for (path, glob, name) in use_paths(&tree) {
                    let resolved = resolve_in(&here, &path, aliases, declared);
                    if let Some(name) = name {
                        scan.aliases.insert((here.clone(), name), resolved.clone());
                    }
                    scan.named.push(Named {
                        line,
                        path: resolved,
                        glob,
                        test: in_test,
                        built: false,
                    });
                }
                if matches!(test_item, Some((d, false)) if d == depth) {
                    test_item = None;
                }
                i = end + 1;
                continue;
            }
            Tok::Ident(first) if toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Sep) => {
                // A path written inline: `crate::app::x::f()`, `std::fs::read(…)`. Only its
                // start counts: `a::b::c` is not also `b::c`.
                let after_sep = i > 0 && toks[i - 1].0 == Tok::Sep;
                let mut path = vec![first.clone()];
                let mut built = false;
                let mut j = i + 1;
                while toks.get(j).map(|t| &t.0) == Some(&Tok::Sep) {
                    match toks.get(j + 1) {
                        Some((Tok::Ident(w), _)) => {
                            path.push(w.clone());
                            j += 2;
                        }
                        // `std::$m`: a macro's argument makes the rest.
                        Some((Tok::Punct('$'), _)) if macro_body.is_some() => {
                            built = true;
                            j += 1;
                            break;
                        }
                        _ => break,
                    }
                }
                if !after_sep {
                    scan.named.push(Named {
                        line,
                        path: resolve_in(&here, &path, aliases, declared),
                        glob: false,
                        test: in_test,
                        built,
                    });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    scan
}

// ---------------------------------------------------------------------------------------
// The files and their modules.

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).expect("the sources are readable");
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under a crate's `src`: `app/modes/play/mod.rs` is
/// app::modes::play, `lib.rs` and `main.rs` the root.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if !matches!(stem, "mod" | "lib" | "main") {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The files declared under `#[cfg(test)]` (and the files below them): test code.
fn test_files(root: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("a source file is readable");
        let rel = file.strip_prefix(root).unwrap_or(file);
        let module = module_of(rel);
        for name in scan(&text, &module).test_modules {
            let dir = root.join(module.join("/"));
            out.push(dir.join(format!("{name}.rs")));
            out.push(dir.join(&name));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The floors of the binary crate.

#[derive(Clone, Debug, PartialEq)]
enum Floor {
    /// The crate's root, the core's re-export, outside crates: no floor of hector's.
    Outside,
    Io,
    /// `app` itself (its mod.rs).
    App,
    Service,
    /// `app::modes` itself (its mod.rs, or a path that stops there).
    Modes,
    Mode(String),
    Cli,
}

fn floor(path: &[String]) -> Floor {
    let p: Vec<&str> = path.iter().map(String::as_str).collect();
    match p.as_slice() {
        ["io", ..] => Floor::Io,
        ["cli", ..] => Floor::Cli,
        ["app", "services", ..] => Floor::Service,
        ["app", "modes", mode, ..] => Floor::Mode((*mode).to_string()),
        ["app", "modes"] => Floor::Modes,
        ["app"] | ["app", ..] => Floor::App,
        _ => Floor::Outside,
    }
}

/// Why `from` may not name `to` (a path of the crate, resolved), if it may not.
fn breaks_floor(from: &Floor, to: &Named) -> Option<&'static str> {
    // `use crate::*;` names every module at once.
    let target = if to.glob && to.path.is_empty() {
        Floor::Cli
    } else {
        floor(&to.path)
    };
    let app_or_cli = matches!(
        target,
        Floor::App | Floor::Service | Floor::Modes | Floor::Mode(_) | Floor::Cli
    );
    match from {
        Floor::Io if app_or_cli => Some("io names app or cli"),
        Floor::App | Floor::Service | Floor::Modes | Floor::Mode(_) if target == Floor::Cli => {
            Some("app names cli")
        }
        Floor::Service if matches!(target, Floor::Modes | Floor::Mode(_)) => {
            Some("a service names a mode")
        }
        Floor::Mode(mine) => match &target {
            Floor::Mode(other) if other != mine => Some("a mode names another mode"),
            Floor::Modes => Some("a mode names the modes"),
            // `crate::app::*` reaches every mode.
            Floor::App if to.glob || to.path.len() == 1 => Some("a mode names the modes"),
            _ => None,
        },
        // `crate::app` itself, or all of it, reaches every mode.
        Floor::Service if target == Floor::App && (to.glob || to.path.len() == 1) => {
            Some("a service names the modes")
        }
        _ => None,
    }
}

/// Whether a resolved path leads into the crate (not to std or another crate).
fn in_crate(path: &[String]) -> bool {
    path.is_empty() || matches!(path[0].as_str(), "io" | "app" | "cli")
}

/// Every floor broken by the names of `scan`, read as code of a module of floor `from`; the
/// crate's re-exports followed.
fn named_breaks(from: &Floor, scan: &Scan, exports: &Exports) -> Vec<String> {
    scan.named
        .iter()
        .filter_map(|n| {
            let mut n = n.clone();
            n.path = through(exports, &n.path);
            if n.built && in_crate(&n.path) {
                return Some(format!(
                    "{}: a path a macro builds (cannot be checked): {}::$…",
                    n.line,
                    shown(&n)
                ));
            }
            breaks_floor(from, &n).map(|why| format!("{}: {why}: {}", n.line, shown(&n)))
        })
        .collect()
}

/// Every floor broken in one file of the binary crate (test code included: a test of io
/// is io).
fn floor_breaks(text: &str, module: &[String]) -> Vec<String> {
    named_breaks(&floor(module), &scan(text, module), &Exports::new())
}

/// What the crate's modules re-export: a module's path and a name it brought into scope, to
/// what the name stands for (`pub use app::modes::play as p;` in lib.rs: `p` is
/// app::modes::play).
type Exports = std::collections::HashMap<Vec<String>, Vec<String>>;

/// `path` with every re-exported prefix replaced by what it stands for.
fn through(exports: &Exports, path: &[String]) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let found = (1..=path.len())
            .rev()
            .find_map(|k| exports.get(&path[..k]).map(|t| (k, t.clone())));
        match found {
            Some((k, target)) if target != path[..k] => {
                path = target
                    .into_iter()
                    .chain(path[k..].iter().cloned())
                    .collect();
            }
            _ => break,
        }
    }
    path
}

/// A resolved path as the message shows it: from `crate`, with its `::*`.
fn shown(n: &Named) -> String {
    let path = if n.path.is_empty() {
        "crate".to_string()
    } else {
        n.path.join("::")
    };
    if n.glob { format!("{path}::*") } else { path }
}

// ---------------------------------------------------------------------------------------
// The core's purity.

/// What the core must not name (a path that starts with it), and why.
const IMPURE_PATHS: &[(&str, &str)] = &[
    ("std::fs", "files"),
    ("std::net", "the network"),
    ("std::process", "processes"),
    ("std::thread", "threads"),
    ("std::env", "the environment"),
    ("std::io::stdin", "the terminal's streams"),
    ("std::io::stdout", "the terminal's streams"),
    ("std::io::stderr", "the terminal's streams"),
    ("std::sync::mpsc", "threads"),
    (
        "std::time::Instant",
        "the system clock (instants come as Timestamp)",
    ),
    ("std::time::SystemTime", "the system clock"),
    ("std::os", "the operating system"),
    ("crossterm", "the terminal"),
    ("ratatui", "the terminal"),
    ("serialport", "serial ports"),
    ("tts", "speech"),
    ("speech_dispatcher", "speech"),
    ("nix", "the operating system"),
    ("libc", "the operating system"),
    ("directories", "the file system"),
    ("crossbeam_channel", "threads"),
    ("ureq", "the network"),
    ("clap", "the command line"),
];

/// Names that are impure however they are reached (a type imported under its own name).
const IMPURE_NAMES: &[(&str, &str)] = &[
    ("Instant", "the system clock (instants come as Timestamp)"),
    ("SystemTime", "the system clock"),
];

const IMPURE_MACROS: &[&str] = &["println", "eprintln", "print", "eprint", "dbg"];

/// Everything impure a core file names outside its tests.
fn impurities(text: &str, module: &[String]) -> Vec<String> {
    let scan = scan(text, module);
    let mut out = Vec::new();
    for n in scan.named.iter().filter(|n| !n.test) {
        let joined = n.path.join("::");
        let before = out.len();
        for (word, what) in IMPURE_PATHS {
            if joined == *word || joined.starts_with(&format!("{word}::")) {
                out.push(format!("{}: {joined} ({what})", n.line));
            }
        }
        if n.glob && matches!(n.path.first().map(String::as_str), Some("std" | "core")) {
            out.push(format!("{}: {joined}::* (all of it)", n.line));
        }
        if n.built && out.len() == before {
            out.push(format!(
                "{}: {joined}::$… (a path a macro builds cannot be checked)",
                n.line
            ));
        }
        for (name, what) in IMPURE_NAMES {
            if out.len() == before && n.path.iter().any(|p| p == name) {
                out.push(format!("{}: {joined} ({what})", n.line));
            }
        }
    }
    for (line, name, test) in &scan.macros {
        if !test && IMPURE_MACROS.contains(&name.as_str()) {
            out.push(format!("{line}: {name}! (the terminal)"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The checks of the tree.

fn crate_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(root, &mut files);
    files.sort();
    files
}

/// A file brought in, read (its path and text), or why it cannot be.
type Read = Result<(PathBuf, String), String>;

/// The files a file brings in (`#[path]` modules, `include!`), each read as the module that
/// brings it in, with what to say when one cannot be read or followed. Test code's are left
/// out when `production` is asked for.
fn brought_in(file: &Path, scan: &Scan, production: bool) -> Vec<(Brought, Read)> {
    scan.brought
        .iter()
        .filter(|b| !(production && b.test))
        .map(|b| {
            let read = match &b.file {
                None => Err(format!(
                    "{}: an include! the check cannot follow (not a literal path)",
                    b.line
                )),
                Some(f) => {
                    let target = file.parent().unwrap_or(Path::new(".")).join(f);
                    std::fs::read_to_string(&target)
                        .map(|text| (target, text))
                        .map_err(|e| format!("{}: {f} cannot be read: {e}", b.line))
                }
            };
            (b.clone(), read)
        })
        .collect()
}

/// Everything impure in the core's production code under `root` (its `src`), the files its
/// `#[path]` modules and `include!`s bring in read as the module that brings them in.
fn core_breaks(root: &Path) -> Vec<String> {
    let files = crate_files(root);
    let tests = test_files(root, &files);
    let mut broken = Vec::new();
    for file in files
        .iter()
        .filter(|f| !tests.iter().any(|t| f.starts_with(t)))
    {
        let rel = file.strip_prefix(root).unwrap_or(file);
        let text = std::fs::read_to_string(file).expect("a core file is readable");
        let module = module_of(rel);
        for hit in impurities(&text, &module) {
            broken.push(format!("{}:{hit}", rel.display()));
        }
        for (b, read) in brought_in(file, &scan(&text, &module), true) {
            match read {
                Err(why) => broken.push(format!("{}:{why}", rel.display())),
                Ok((target, inner)) => {
                    for hit in impurities(&inner, &b.module) {
                        broken.push(format!(
                            "{}:{}: in {}: {hit}",
                            rel.display(),
                            b.line,
                            target.display()
                        ));
                    }
                }
            }
        }
    }
    broken
}

/// Every floor broken in the binary crate under `root` (its `src`): each file's names, with
/// the re-exports of every module followed, and the files its `#[path]` modules and
/// `include!`s bring in, read as the module that brings them in (a `#[path]` that reaches
/// another floor's folder is itself broken).
fn tree_floor_breaks(root: &Path) -> (Vec<String>, usize) {
    let files = crate_files(root);
    let mut read = 0;
    let scans: Vec<(PathBuf, Vec<String>, Scan)> = files
        .iter()
        .map(|file| {
            let rel = file.strip_prefix(root).unwrap_or(file);
            let text = std::fs::read_to_string(file).expect("a source file is readable");
            read += text.lines().count();
            let module = module_of(rel);
            let s = scan(&text, &module);
            (file.clone(), module, s)
        })
        .collect();
    let mut exports = Exports::new();
    for (_, _, s) in &scans {
        for ((here, name), target) in &s.aliases {
            let key: Vec<String> = here.iter().cloned().chain([name.clone()]).collect();
            exports.insert(key, target.clone());
        }
    }
    let mut broken = Vec::new();
    for (file, module, s) in &scans {
        let rel = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        let from = floor(module);
        for hit in named_breaks(&from, s, &exports) {
            broken.push(format!("src/{rel}:{hit}"));
        }
        for (b, got) in brought_in(file, s, false) {
            let (target, inner) = match got {
                Ok(t) => t,
                Err(why) => {
                    broken.push(format!("src/{rel}:{why}"));
                    continue;
                }
            };
            if b.path_attribute {
                // Where the file stands says which floor its code is.
                let at = target
                    .canonicalize()
                    .ok()
                    .and_then(|t| {
                        let r = root.canonicalize().ok()?;
                        t.strip_prefix(&r).ok().map(Path::to_path_buf)
                    })
                    .map(|r| module_of(&r));
                let theirs = at.as_deref().map(floor);
                if theirs.as_ref() != Some(&floor(&b.module)) {
                    broken.push(format!(
                        "src/{rel}:{}: #[path] brings in {} from another floor's folder",
                        b.line,
                        target.display()
                    ));
                }
            }
            for hit in named_breaks(&from, &scan(&inner, &b.module), &exports) {
                broken.push(format!(
                    "src/{rel}:{}: in {}: {hit}",
                    b.line,
                    target.display()
                ));
            }
        }
    }
    (broken, read)
}

#[test]
fn the_core_does_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("core/src");
    assert!(crate_files(&root).len() > 20, "the core's files");
    let broken = core_breaks(&root);
    assert!(
        broken.is_empty(),
        "the core must stay pure:\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_floor_names_only_the_floors_below() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(crate_files(&root).len() > 40, "hector's files");
    let (broken, read) = tree_floor_breaks(&root);
    assert!(read > 20_000, "only {read} lines read");
    assert!(
        broken.is_empty(),
        "core < io < app's services < app's modes < cli:\n{}",
        broken.join("\n")
    );
}

/// The adapters say what failed in types of their own (the operation, the path, the
/// system's error as the source), so that a caller tells a full disk from a refused file
/// without reading a message: no production code in io names anyhow.
#[test]
fn the_adapters_errors_are_typed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<PathBuf> = crate_files(&root)
        .into_iter()
        .filter(|f| f.starts_with(root.join("io")))
        .collect();
    assert!(files.len() > 20, "io's files: {files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap_or(file);
        let text = std::fs::read_to_string(file).expect("a source file is readable");
        for n in scan(&text, &module_of(rel)).named {
            if !n.test && n.path.first().is_some_and(|p| p == "anyhow") {
                broken.push(format!(
                    "src/{}:{}: {}",
                    rel.display(),
                    n.line,
                    n.path.join("::")
                ));
            }
        }
    }
    assert!(broken.is_empty(), "io names anyhow:\n{}", broken.join("\n"));
}

// ---------------------------------------------------------------------------------------
// The platform seam.

/// The operating system's own calls: only `io::platform` names them, so that another system
/// is another file there, not edits across io, app and cli.
const SYSTEM_CALLS: &[&str] = &[
    "std::os::unix",
    "std::os::windows",
    "std::os::fd",
    "nix",
    "libc",
    "windows_sys",
];

/// Every operating system call a file of the binary crate names outside its tests.
fn system_calls(text: &str, module: &[String]) -> Vec<String> {
    scan(text, module)
        .named
        .iter()
        .filter(|n| !n.test)
        .filter_map(|n| {
            let joined = n.path.join("::");
            SYSTEM_CALLS
                .iter()
                .any(|w| joined == *w || joined.starts_with(&format!("{w}::")))
                .then(|| format!("{}: {joined}", n.line))
        })
        .collect()
}

#[test]
fn only_the_platform_seam_names_the_operating_system() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = crate_files(&root);
    let tests = test_files(&root, &files);
    let seam = root.join("io").join("platform");
    let mut broken = Vec::new();
    let mut seam_files = 0;
    for file in files
        .iter()
        .filter(|f| !tests.iter().any(|t| f.starts_with(t)))
    {
        if file.starts_with(&seam) {
            seam_files += 1;
            continue;
        }
        let rel = file.strip_prefix(&root).unwrap_or(file);
        let text = std::fs::read_to_string(file).expect("a source file is readable");
        for hit in system_calls(&text, &module_of(rel)) {
            broken.push(format!("src/{}:{hit}", rel.display()));
        }
    }
    assert!(seam_files > 10, "the seam's files: {seam_files}");
    assert!(
        broken.is_empty(),
        "the operating system is named outside src/io/platform:\n{}",
        broken.join("\n")
    );
}

#[test]
fn a_system_call_is_found_in_code_and_not_in_tests() {
    let text = "use std::os::unix::fs::PermissionsExt;\nfn f() { let _ = nix::unistd::getpid(); }\n#[cfg(test)]\n#[cfg(unix)]\nmod tests {\n    use std::os::unix::fs::symlink;\n}\n#[cfg(unix)]\nfn g() { let _ = nix::unistd::getppid(); }\n";
    assert_eq!(
        system_calls(text, &module("io::files")),
        [
            "1: std::os::unix::fs::PermissionsExt",
            "2: nix::unistd::getpid",
            "9: nix::unistd::getppid"
        ]
    );
    assert!(system_calls("use std::os::raw::c_int;", &module("io::x")).is_empty());
}

// ---------------------------------------------------------------------------------------
// The reading itself: the tricks that fooled the line-by-line check.

fn module(path: &str) -> Vec<String> {
    path.split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn a_group_names_each_of_its_paths() {
    let hits = impurities("use std::{fs, thread};\nfn f() {}\n", &module("notation"));
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert!(hits[0].starts_with("1: std::fs"), "{hits:?}");
    assert!(hits[1].starts_with("1: std::thread"), "{hits:?}");
    let nested = impurities(
        "use std::{collections::HashMap, io::{self, stdin}, sync::{Arc, mpsc::channel}};",
        &module("x"),
    );
    assert_eq!(nested.len(), 2, "{nested:?}");
    assert!(nested[0].contains("std::io::stdin"), "{nested:?}");
    assert!(nested[1].contains("std::sync::mpsc::channel"), "{nested:?}");
}

#[test]
fn an_inline_path_counts_as_an_import() {
    let text =
        "fn f() {\n    let _ = std::fs::read(\"x\");\n    crate::app::modes::play::run();\n}\n";
    assert_eq!(
        impurities(text, &module("record")),
        ["2: std::fs::read (files)"]
    );
    assert_eq!(
        floor_breaks(text, &module("io::journal")),
        ["3: io names app or cli: app::modes::play::run"]
    );
}

#[test]
fn super_and_self_are_resolved_from_the_files_module() {
    // super::super from app::services::speaker is the crate's root.
    assert_eq!(
        floor_breaks(
            "use super::super::modes::say;",
            &module("app::services::speaker")
        ),
        ["1: a service names a mode: app::modes::say"]
    );
    assert_eq!(
        floor_breaks(
            "use super::super::super::app::modes::say::notice_text;",
            &module("io::speech::tests")
        ),
        ["1: io names app or cli: app::modes::say::notice_text"]
    );
    assert_eq!(
        floor_breaks(
            "use super::super::board::interrupted;",
            &module("app::modes::simulate::model")
        ),
        ["1: a mode names another mode: app::modes::board::interrupted"]
    );
    // Within one mode, super is that mode.
    assert!(
        floor_breaks(
            "use super::{Opponent, Start};",
            &module("app::modes::play::resume")
        )
        .is_empty()
    );
    assert_eq!(
        floor_breaks("use self::super::super::cli::Cli;", &module("app::x")),
        ["1: app names cli: cli::Cli"]
    );
    assert_eq!(
        resolve(&module("a::b::c"), &module("super::super::io")),
        module("a::io")
    );
    assert_eq!(
        resolve(&module("a::b"), &module("self::c")),
        module("a::b::c")
    );
    assert_eq!(
        resolve(&module("a::b"), &module("std::fs")),
        module("std::fs")
    );
}

#[test]
fn code_after_a_test_module_is_read_and_the_test_module_is_not() {
    // The production code after `#[cfg(test)] mod tests;` and after a test block is checked;
    // the test code is not (the core's tests may use files and threads).
    let text = "\
#[cfg(test)]
mod tests;
#[cfg(test)]
mod more {
    use std::fs;
    fn f() { std::thread::spawn(|| {}); }
}
#[cfg(test)]
use std::env;
pub fn g() { let _ = std::process::id(); }
";
    let scan = scan(text, &module("board"));
    assert_eq!(scan.test_modules, ["tests"]);
    assert_eq!(
        impurities(text, &module("board")),
        ["10: std::process::id (processes)"]
    );
    // The floors hold in test code too: a test of io is io.
    assert_eq!(
        floor_breaks(
            "#[cfg(test)]\nmod tests {\n    use crate::app::x;\n}\n",
            &module("io::y")
        ),
        ["3: io names app or cli: app::x"]
    );
}

#[test]
fn an_inline_module_is_a_module() {
    // From app::modes::play::inner, super::super is app::modes.
    let text = "mod inner {\n    use super::super::clock;\n    use super::Start;\n}\n";
    assert_eq!(
        floor_breaks(text, &module("app::modes::play")),
        ["2: a mode names another mode: app::modes::clock"]
    );
    // Read as if the module were not there, the same line would pass.
    assert!(floor_breaks("use super::super::clock;", &module("app::modes::play")).is_empty());
}

#[test]
fn comments_and_strings_are_no_code() {
    let text = "// use std::fs;\n/* std::thread /* nested */ std::env */\nconst A: &str = \"std::fs::read\";\nconst B: &str = r#\"crate::cli \"quoted\"\"#;\nconst C: char = '\\'';\nfn f<'a>(x: &'a str) -> &'a str { x }\nuse std::net::TcpStream;\n";
    assert_eq!(
        impurities(text, &module("x")),
        ["7: std::net::TcpStream (the network)"]
    );
    assert!(floor_breaks(text, &module("io::x")).is_empty());
}

#[test]
fn renames_globs_and_macros_are_caught() {
    assert_eq!(
        impurities(
            "use std::fs as files;\nuse std::*;\nfn f() { println!(\"x\"); }\n",
            &module("x")
        ),
        [
            "1: std::fs (files)",
            "2: std::* (all of it)",
            "3: println! (the terminal)"
        ]
    );
    assert_eq!(
        impurities("use std::time::{Duration, Instant};", &module("x")),
        ["1: std::time::Instant (the system clock (instants come as Timestamp))"]
    );
    assert_eq!(
        floor_breaks("use crate::app::modes::*;", &module("app::modes::play")),
        ["1: a mode names the modes: app::modes::*"]
    );
    assert_eq!(
        floor_breaks("use crate::*;", &module("io::x")),
        ["1: io names app or cli: crate::*"]
    );
}

// ---------------------------------------------------------------------------------------
// The tricks that fooled the scanner before it followed names and files: each in a fixture
// source tree it must flag.

/// A source tree in a temporary folder, removed when dropped.
struct Tree(PathBuf);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hector-boundaries-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let file = dir.join(path);
            std::fs::create_dir_all(file.parent().expect("a folder")).expect("the folder");
            std::fs::write(&file, text).expect("the file");
        }
        Tree(dir)
    }

    fn src(&self) -> PathBuf {
        self.0.join("src")
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_local_alias_is_followed() {
    // `use std::io;` then `io::stdout()`: the path is std::io::stdout.
    assert_eq!(
        impurities(
            "use std::io;\nfn f() { let _ = io::stdout(); }\n",
            &module("notation")
        ),
        ["2: std::io::stdout (the terminal's streams)"]
    );
    // `use std as s;`, and an alias of an alias.
    assert_eq!(
        impurities(
            "use std as s;\nuse s::fs as f;\nfn g() { let _ = f::read(\"x\"); s::thread::yield_now(); }\n",
            &module("notation")
        ),
        [
            "2: std::fs (files)",
            "3: std::fs::read (files)",
            "3: std::thread::yield_now (threads)"
        ]
    );
    // In the binary crate: a mode's alias of another mode.
    assert_eq!(
        floor_breaks(
            "use crate::app::modes as m;\nfn f() { m::board::run(); }\n",
            &module("app::modes::play")
        ),
        [
            "1: a mode names the modes: app::modes",
            "2: a mode names another mode: app::modes::board::run"
        ]
    );
}

#[test]
fn extern_crate_self_as_a_name_is_the_crates_root() {
    assert_eq!(
        floor_breaks(
            "extern crate self as h;\nfn f() { h::app::modes::play::run(); }\n",
            &module("io::x")
        ),
        ["2: io names app or cli: app::modes::play::run"]
    );
    assert_eq!(
        impurities(
            "extern crate std as s;\nfn f() { s::process::exit(1); }\n",
            &module("x")
        ),
        ["2: std::process::exit (processes)"]
    );
}

#[test]
fn a_re_export_through_lib_rs_is_followed() {
    let tree = Tree::new(&[
        (
            "src/lib.rs",
            "pub mod app;\npub mod io;\npub use app::modes::play as p;\n",
        ),
        ("src/app/mod.rs", "pub mod modes;\n"),
        ("src/app/modes/mod.rs", "pub mod play;\n"),
        ("src/app/modes/play.rs", "pub fn run() {}\n"),
        ("src/io/mod.rs", "pub mod x;\n"),
        ("src/io/x.rs", "use crate::p::run;\n"),
    ]);
    let (broken, _) = tree_floor_breaks(&tree.src());
    assert_eq!(
        broken,
        ["src/io/x.rs:1: io names app or cli: app::modes::play::run"]
    );
}

#[test]
fn a_path_attribute_is_followed() {
    // io takes a mode's file as a module of its own.
    let tree = Tree::new(&[
        ("src/lib.rs", "pub mod app;\npub mod io;\n"),
        ("src/io/mod.rs", "pub mod x;\n"),
        (
            "src/io/x.rs",
            "#[path = \"../app/modes/play/inner.rs\"]\nmod inner;\n",
        ),
        (
            "src/app/modes/play/inner.rs",
            "pub fn f() { crate::app::services::speaker::say(); }\n",
        ),
    ]);
    let (broken, _) = tree_floor_breaks(&tree.src());
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(
        broken[0].starts_with("src/io/x.rs:2: #[path] brings in ")
            && broken[0].ends_with("from another floor's folder"),
        "{broken:?}"
    );
    assert!(
        broken[1].starts_with("src/io/x.rs:2: in ")
            && broken[1].ends_with(": 1: io names app or cli: app::services::speaker::say"),
        "{broken:?}"
    );
    // The core takes a file from outside its folder: what it does counts as the core's.
    let tree = Tree::new(&[
        ("src/lib.rs", "pub mod net_help;\n"),
        (
            "src/net_help.rs",
            "#[path = \"../outside/net.rs\"]\nmod net;\n",
        ),
        (
            "outside/net.rs",
            "pub fn f() { let _ = std::net::TcpStream::connect(\"x:1\"); }\n",
        ),
    ]);
    let broken = core_breaks(&tree.src());
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("net_help.rs:2: in ")
            && broken[0].ends_with(": 1: std::net::TcpStream::connect (the network)"),
        "{broken:?}"
    );
}

#[test]
fn an_include_is_followed() {
    let tree = Tree::new(&[
        ("src/lib.rs", "pub mod x;\n"),
        (
            "src/x.rs",
            "include!(\"../outside/files.rs\");\nconst A: &str = include!(concat!(\"a\", \"b\"));\n\
             mod data {\n    include!(concat!(env!(\"OUT_DIR\"), \"/data.rs\"));\n}\n",
        ),
        (
            "outside/files.rs",
            "pub fn f() { let _ = std::fs::read(\"x\"); }\n",
        ),
    ]);
    let broken = core_breaks(&tree.src());
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(
        broken[0].starts_with("x.rs:1: in ") && broken[0].ends_with(": 1: std::fs::read (files)"),
        "{broken:?}"
    );
    // A path the check cannot follow is broken; the build script's output is its data.
    assert_eq!(
        broken[1],
        "x.rs:2: an include! the check cannot follow (not a literal path)"
    );
}

#[test]
fn a_path_a_macro_builds_is_caught() {
    assert_eq!(
        impurities(
            "macro_rules! read {\n    ($m:ident) => { std::$m::read(\"x\") };\n}\n",
            &module("x")
        ),
        ["2: std::$… (a path a macro builds cannot be checked)"]
    );
    assert_eq!(
        floor_breaks(
            "macro_rules! call {\n    ($m:ident) => { crate::$m::run() };\n}\n",
            &module("io::x")
        ),
        ["2: a path a macro builds (cannot be checked): crate::$…"]
    );
    // `$crate::` is the crate's root: resolved as any crate path.
    assert!(
        floor_breaks(
            "macro_rules! out {\n    () => { $crate::io::output::write() };\n}\n",
            &module("io::x")
        )
        .is_empty()
    );
}
