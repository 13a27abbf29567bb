//! Names the commit the binary is built from (`hector --version`). The language tables are
//! the core's data: core/build.rs embeds them.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    commit();
}

/// The commit for `hector --version`: $HECTOR_COMMIT when set (a build from a tarball that
/// knows it), else git's HEAD when this folder is a checkout's top (a worktree's .git is a
/// file: git finds its real folder), else the commit `cargo package` noted, else "unknown".
fn commit() {
    println!("cargo:rerun-if-env-changed=HECTOR_COMMIT");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let commit = std::env::var("HECTOR_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| git_commit(dir))
        .or_else(|| packaged_commit(dir))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=HECTOR_COMMIT={}", commit.trim());
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn git_commit(dir: &Path) -> Option<String> {
    // A tarball unpacked inside another checkout must not take that checkout's commit.
    let top = git(dir, &["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(dir).ok()? {
        return None;
    }
    // Build again when HEAD moves: HEAD itself (detached, or another branch checked out),
    // the branch's ref, and packed-refs where git gc put the refs.
    let git_dir = PathBuf::from(git(dir, &["rev-parse", "--absolute-git-dir"])?);
    let common = git(dir, &["rev-parse", "--git-common-dir"]).map(|c| dir.join(c))?;
    let mut watched = vec![git_dir.join("HEAD"), common.join("packed-refs")];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git_dir.join(&branch));
        watched.push(common.join(&branch));
    }
    // A path that does not exist would have cargo run this script before every build.
    for path in watched.iter().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    git(dir, &["rev-parse", "--short=12", "HEAD"])
}

/// `cargo package` writes the commit into .cargo_vcs_info.json: `"sha1": "…"`.
fn packaged_commit(dir: &Path) -> Option<String> {
    let info = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let rest = &info[info.find("\"sha1\"")? + 6..];
    let start = rest.find('"')? + 1;
    let sha: String = rest[start..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (sha.len() >= 12).then(|| sha[..12].to_string())
}
