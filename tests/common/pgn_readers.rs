//! Two PGN readers that are not hector, for the PGN hector writes: pgn-extract (Debian) and
//! python-chess in its strict mode (tests/data/pgn_strict.py; scripts/setup unpacks
//! python-chess, which Debian 12 does not package). Each is asked to read a whole file and
//! must agree with what the test expects; a reader that is missing fails the test with what
//! to run.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::find_program;

/// The version scripts/setup unpacks.
const PYTHON_CHESS: &str = "python-chess-1.11.2";

/// The seven tag roster (PGN 8.1.1), in its order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Every tag hector writes besides the roster, in ASCII order.
pub const OTHERS: [&str; 6] = [
    "Annotator",
    "FEN",
    "SetUp",
    "Termination",
    "TimeControl",
    "Variant",
];

/// Where scripts/setup put python-chess: `$XDG_CACHE_HOME/hector/…`, else `~/.cache/hector/…`.
fn python_chess_dir() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .expect("HOME is set");
    let dir = cache.join("hector").join(PYTHON_CHESS);
    assert!(
        dir.join("chess").join("pgn.py").is_file(),
        "python-chess is not in {}: run scripts/setup",
        dir.display()
    );
    dir
}

/// One game as python-chess read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictGame {
    /// The tag names in the order of the file (after the roster, which python-chess keeps
    /// first).
    pub tags: Vec<String>,
    pub plies: usize,
    /// The board after the last move: FEN's first field.
    pub board: String,
    /// "w" or "b".
    pub side: String,
}

/// Every game of `file` read by python-chess, which stops at its first error of any kind:
/// the test fails with that error.
pub fn python_chess_strict(file: &Path) -> Vec<StrictGame> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn_strict.py");
    let python = find_program("python3").expect("python3: run scripts/setup");
    let out = Command::new(python)
        .arg(&script)
        .arg(file)
        .env("PYTHONPATH", python_chess_dir())
        .output()
        .expect("run python3");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python-chess (strict) refuses {}: {stderr}",
        file.display()
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            StrictGame {
                tags: fields[0].split(' ').map(str::to_string).collect(),
                plies: fields[1].parse().expect("plies"),
                board: fields[2].to_string(),
                side: fields[3].to_string(),
            }
        })
        .collect()
}

/// The tag lines of each game of a PGN text, in order: lines that begin with `[` and a tag
/// name (a movetext line may begin with a comment's `[%clk …]`).
pub fn tag_sections(text: &str) -> Vec<Vec<String>> {
    let mut sections: Vec<Vec<String>> = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        let tag = line
            .strip_prefix('[')
            .and_then(|rest| rest.chars().next())
            .is_some_and(|c| c.is_ascii_alphanumeric());
        if tag {
            if !in_tags {
                sections.push(Vec::new());
                in_tags = true;
            }
            if let Some(last) = sections.last_mut() {
                last.push(line.to_string());
            }
        } else if !line.trim().is_empty() {
            in_tags = false;
        }
    }
    sections
}

/// pgn-extract reads `file` without a complaint and writes its games again with their tags
/// in the standard's export order (`-R`: the roster, then [`OTHERS`] in ASCII order); the
/// tag sections it writes, game by game.
pub fn pgn_extract_in_standard_order(file: &Path, dir: &Path) -> Vec<Vec<String>> {
    let pgn_extract = find_program("pgn-extract").expect("pgn-extract: run scripts/setup");
    let order = dir.join("tag-order");
    let names: Vec<&str> = ROSTER.iter().chain(OTHERS.iter()).copied().collect();
    std::fs::write(&order, names.join("\n") + "\n").expect("write the tag order");
    let out = Command::new(pgn_extract)
        .arg("-s")
        .arg(format!("-R{}", order.display()))
        .arg(file)
        .output()
        .expect("run pgn-extract");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pgn-extract failed: {stderr}");
    assert!(stderr.trim().is_empty(), "pgn-extract complains: {stderr}");
    tag_sections(&String::from_utf8_lossy(&out.stdout))
}

/// The tag names of a tag section, and whether they stand in the standard's export order:
/// the roster in its order, then the others in ASCII order.
pub fn in_export_order(section: &[String]) -> bool {
    let names: Vec<&str> = section
        .iter()
        .filter_map(|l| l.strip_prefix('['))
        .filter_map(|l| l.split(' ').next())
        .collect();
    let (roster, others) = names.split_at(names.len().min(ROSTER.len()));
    roster == ROSTER && others.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes())
}
