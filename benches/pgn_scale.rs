//! `hector check` on big and hostile PGN input: speed against pgn-reader's `validate` example,
//! peak memory for growing files, and the crafted inputs that once broke the bounds.
//!
//! cargo bench --bench pgn_scale -- [--mb N] [--big-mb N] [--repeat R] [--dir DIR] [--skip-validate]
//!
//! Writes a PGN of N MB (default 200) of seeded random games and its .zst to DIR (default the
//! system's temporary directory), builds pgn-reader's `validate` example from crates.io in a
//! cargo project of its own under target/ (it only checks that each SAN is legal; hector does
//! much more), and times both side by side, best of R (default 3). Then it measures hector's
//! peak resident memory on 60 MB and `--big-mb` (default 600) MB inputs and on the crafted
//! inputs. Every file it writes is removed at the end, also after a failure. Peak memory and
//! elapsed time come from GNU time (`/usr/bin/time`, Debian package `time`).

mod support;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hector::core::testkit::games::{SampleOptions, write_games};

/// Writes a crafted input and says how many bytes.
type MakeInput = dyn Fn(&mut dyn Write) -> std::io::Result<u64>;

/// Removes the benchmark's files when it ends, however it ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Measured {
    seconds: f64,
    /// User and system CPU time: what the work costs, however busy the machine is.
    cpu: f64,
    peak_mb: f64,
    code: Option<i32>,
}

/// Runs `shell` (a shell command line whose measured program is prefixed with `TIME`) and
/// reads what GNU time says about that program.
fn measure(shell: &str, dir: &Path) -> Measured {
    let report = dir.join("time.txt");
    let line = shell.replace(
        "TIME ",
        &format!("/usr/bin/time -o {} -f '%e %M %x %U %S' ", report.display()),
    );
    let status = Command::new("sh")
        .arg("-c")
        .arg(&line)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    // GNU time puts "Command exited with non-zero status N" first when it is not 0.
    let fields: Vec<&str> = text
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let field = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    let _ = status;
    Measured {
        seconds: field(0).unwrap_or(f64::NAN),
        cpu: field(3).unwrap_or(f64::NAN) + field(4).unwrap_or(f64::NAN),
        peak_mb: field(1).map_or(f64::NAN, |kib| kib / 1024.0),
        code: field(2).map(|c| c as i32),
    }
}

fn best(shell: &str, dir: &Path, repeat: usize) -> Measured {
    let mut best: Option<Measured> = None;
    for _ in 0..repeat.max(1) {
        let m = measure(shell, dir);
        if best.as_ref().is_none_or(|b| m.seconds < b.seconds) {
            best = Some(m);
        }
    }
    best.unwrap_or(Measured {
        seconds: f64::NAN,
        cpu: f64::NAN,
        peak_mb: f64::NAN,
        code: None,
    })
}

/// Writes at least `mb` megabytes: a block of seeded games, repeated.
fn write_pgn(path: &Path, block: &[u8], mb: usize) -> std::io::Result<u64> {
    let mut out = BufWriter::new(File::create(path)?);
    let mut written = 0u64;
    while written < (mb as u64) * 1_000_000 {
        out.write_all(block)?;
        out.write_all(b"\n")?;
        written += block.len() as u64 + 1;
    }
    out.flush()?;
    Ok(written)
}

/// Builds pgn-reader's `validate` example in a project of its own under target/, once.
fn build_validate() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-pgn-reader");
    let binary = root.join("target/release/validate");
    if binary.exists() {
        return Ok(binary);
    }
    std::fs::create_dir_all(root.join("src")).map_err(|e| e.to_string())?;
    // shakmaty stays at 0.30.1, which builds with this Rust.
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"validate\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\npgn-reader = \"=0.29.0\"\nshakmaty = \"=0.30.1\"\nzstd = \"0.13\"\n\n\
         [workspace]\n",
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(root.join("src/main.rs"), "fn main() {}\n").map_err(|e| e.to_string())?;
    let manifest = root.join("Cargo.toml");
    let metadata = Command::new("cargo")
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&manifest)
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    let metadata: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let crate_dir = metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "pgn-reader"))
        .and_then(|p| p["manifest_path"].as_str())
        .and_then(|m| Path::new(m).parent().map(Path::to_path_buf))
        .ok_or("pgn-reader not found in cargo metadata")?;
    // The example as published, built as this project's program.
    std::fs::copy(
        crate_dir.join("examples/validate.rs"),
        root.join("src/main.rs"),
    )
    .map_err(|e| format!("copy validate.rs: {e}"))?;
    let status = Command::new("cargo")
        .args(["build", "--release", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .status()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !status.success() {
        return Err("building pgn-reader's validate failed".into());
    }
    Ok(binary)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mb: usize = support::arg(&args, "--mb").unwrap_or(200);
    let big_mb: usize = support::arg(&args, "--big-mb").unwrap_or(600);
    let repeat: usize = support::arg(&args, "--repeat").unwrap_or(3);
    let skip_validate = args.iter().any(|a| a == "--skip-validate");
    let base =
        support::arg::<String>(&args, "--dir").map_or_else(std::env::temp_dir, PathBuf::from);
    let dir = Scratch(base.join(format!("hector-pgn-scale-{}", std::process::id())));
    if let Err(e) = std::fs::create_dir_all(&dir.0) {
        eprintln!("cannot make {}: {e}", dir.0.display());
        return;
    }
    let d = &dir.0;
    let hector = env!("CARGO_BIN_EXE_hector");
    if !Path::new("/usr/bin/time").exists() {
        eprintln!("pgn_scale needs GNU time (/usr/bin/time): apt-get install time");
        return;
    }

    // 10,000 seeded games (about 9 MB), repeated to the size asked for.
    let block = write_games(SampleOptions {
        games: 10_000,
        seed: 2026,
        clock_comments: false,
    });
    let pgn = d.join("games.pgn");
    let zst = d.join("games.pgn.zst");
    let size = match write_pgn(&pgn, block.as_bytes(), mb) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("cannot write {}: {e}", pgn.display());
            return;
        }
    };
    let compressed = File::open(&pgn)
        .and_then(|input| {
            let output = File::create(&zst)?;
            zstd::stream::copy_encode(input, output, 3)
        })
        .and_then(|()| std::fs::metadata(&zst).map(|m| m.len()));
    let zst_size = match compressed {
        Ok(n) => n,
        Err(e) => {
            eprintln!("cannot write {}: {e}", zst.display());
            return;
        }
    };
    let games = (size / (block.len() as u64 + 1)) * 10_000;
    println!(
        "pgn_scale: {games} games, {:.0} MB of PGN, {:.0} MB as .zst; best of {repeat}",
        size as f64 / 1e6,
        zst_size as f64 / 1e6
    );
    let row = |what: &str, m: &Measured, bytes: u64| {
        println!(
            "  {what:<44} {:>6.2} s  {:>6.1} MB/s  cpu {:>6.2} s  peak {:>5.1} MB  exit {}",
            m.seconds,
            bytes as f64 / 1e6 / m.seconds,
            m.cpu,
            m.peak_mb,
            m.code.map_or("?".to_string(), |c| c.to_string())
        );
    };
    let (p, z) = (pgn.display().to_string(), zst.display().to_string());
    let validate = if skip_validate {
        None
    } else {
        match build_validate() {
            Ok(v) => Some(v.display().to_string()),
            Err(e) => {
                eprintln!("{e}");
                None
            }
        }
    };
    if let Some(v) = &validate {
        row(
            "pgn-reader validate (1 thread)",
            &best(&format!("TIME {v} {p}"), d, repeat),
            size,
        );
        row(
            "pgn-reader validate, .zst",
            &best(&format!("TIME {v} {z}"), d, repeat),
            size,
        );
    }
    for (what, cmd) in [
        (
            "hector check --jobs 1",
            format!("TIME {hector} check --jobs 1 {p}"),
        ),
        (
            "hector check --jobs 2",
            format!("TIME {hector} check --jobs 2 {p}"),
        ),
        (
            "hector check --jobs 2, .zst",
            format!("TIME {hector} check --jobs 2 {z}"),
        ),
        (
            "hector check --jobs 2 --json",
            format!("TIME {hector} check --jobs 2 --json {p}"),
        ),
        (
            "hector transcript --jobs 2 --format tsv",
            format!("TIME {hector} transcript --jobs 2 --format tsv {p}"),
        ),
    ] {
        row(what, &best(&cmd, d, repeat), size);
    }
    let _ = std::fs::remove_file(&zst);

    // Peak memory does not grow with the file.
    println!("peak memory by input size (hector check --jobs 2):");
    for mb in [60, big_mb] {
        let file = d.join(format!("games-{mb}.pgn"));
        match write_pgn(&file, block.as_bytes(), mb) {
            Ok(bytes) => {
                let m = measure(
                    &format!("TIME {hector} check --jobs 2 {}", file.display()),
                    d,
                );
                row(&format!("{:.0} MB", bytes as f64 / 1e6), &m, bytes);
            }
            Err(e) => eprintln!("cannot write {}: {e}", file.display()),
        }
        let _ = std::fs::remove_file(&file);
    }
    let _ = std::fs::remove_file(&pgn);

    // The crafted inputs.
    println!("crafted inputs (hector check --json, default jobs):");
    let crafted: [(&str, Box<MakeInput>); 4] = [
        (
            "1M tags in one game",
            Box::new(|w| {
                let mut n = 0u64;
                w.write_all(b"[Event \"tags\"]\n")?;
                for i in 0..1_000_000 {
                    let tag = format!("[Tag{i} \"value\"]\n");
                    w.write_all(tag.as_bytes())?;
                    n += tag.len() as u64;
                }
                w.write_all(b"\n1. e4 *\n")?;
                Ok(n)
            }),
        ),
        (
            "200k games, each with a { never closed",
            Box::new(|w| {
                let game = b"[Event \"x\"]\n1. e4 { no end\n";
                for _ in 0..200_000 {
                    w.write_all(game)?;
                }
                Ok(200_000 * game.len() as u64)
            }),
        ),
        (
            "100 MB of (",
            Box::new(|w| {
                let chunk = vec![b'('; 1 << 20];
                for _ in 0..100 {
                    w.write_all(&chunk)?;
                }
                Ok(100 << 20)
            }),
        ),
        (
            "a 200 MB line",
            Box::new(|w| {
                let chunk = b"e4 ".repeat(1 << 18);
                let mut n = 0u64;
                while n < 200_000_000 {
                    w.write_all(&chunk)?;
                    n += chunk.len() as u64;
                }
                Ok(n)
            }),
        ),
    ];
    for (what, make) in crafted {
        let file = d.join("crafted.pgn");
        let written = File::create(&file).and_then(|f| {
            let mut w = BufWriter::new(f);
            let n = make(&mut w)?;
            w.flush()?;
            Ok(n)
        });
        match written {
            Ok(bytes) => {
                let m = measure(
                    &format!(
                        "TIME {hector} check --json {} > {}/out.txt",
                        file.display(),
                        d.display()
                    ),
                    d,
                );
                let out = std::fs::metadata(d.join("out.txt")).map_or(0, |m| m.len());
                row(&format!("{what} ({out} bytes of output)"), &m, bytes);
            }
            Err(e) => eprintln!("cannot write {}: {e}", file.display()),
        }
        let _ = std::fs::remove_file(&file);
    }
    let m = measure(
        &format!(
            "head -c 300000000 /dev/zero | TIME {hector} check --json - > {}/out.txt",
            d.display()
        ),
        d,
    );
    let out = std::fs::metadata(d.join("out.txt")).map_or(0, |m| m.len());
    row(
        &format!("300 MB of zero bytes on stdin ({out} bytes of output)"),
        &m,
        300_000_000,
    );
}
