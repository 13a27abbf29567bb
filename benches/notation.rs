//! Throughput of `hector transcript` (MB/s of PGN) and the time to parse one spoken phrase.
//!
//! cargo bench --bench notation -- [--games N] [--repeat R]
//!
//! The transcript figure runs the mode's own code (`render_game`: replay, phrase, TSV line)
//! into a memory buffer, single-threaded. The parse figure is the mean over many phrases of every
//! form, in positions taken from random games.

mod support;

use std::time::Instant;

use hector::app::modes::transcript::{Format, render_game};
use hector::core::notation::language;
use hector::core::notation::parse_move;
use hector::core::notation::{Form, announce};
use hector::core::pgn::Reader;
use hector::core::testkit::games::{Rng, SampleOptions, write_games};
use shakmaty::{Chess, Position};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = support::arg(&args, "--games").unwrap_or(10_000);
    let repeat: usize = support::arg(&args, "--repeat").unwrap_or(5);
    let Ok(de) = language("de") else {
        eprintln!("no German table");
        return;
    };
    let text = write_games(SampleOptions {
        games,
        seed: 2026,
        clock_comments: false,
    });
    let bytes = text.as_bytes();
    let mut best = f64::MAX;
    let mut out = String::with_capacity(bytes.len() * 4);
    let mut plies = 0usize;
    for _ in 0..repeat.max(1) {
        out.clear();
        let start = Instant::now();
        for (n, raw) in Reader::new(bytes).enumerate() {
            if let Err(e) = render_game(&raw, n + 1, de, Form::Short, Format::Tsv, &mut out) {
                eprintln!("game {}: {e}", n + 1);
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        plies = out.lines().count();
    }
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "transcript: {games} games, {plies} plies, {mb:.1} MB of PGN, {:.1} MB of TSV",
        out.len() as f64 / 1e6
    );
    println!(
        "  best {best:.3} s  {:.1} MB/s of PGN  {:.2} M plies/s",
        mb / best,
        plies as f64 / best / 1e6
    );

    // Phrases of every form and language, in positions from random games.
    let en = language("en").unwrap_or(de);
    let mut rng = Rng::new(5);
    let mut cases: Vec<(Chess, String)> = Vec::new();
    for _ in 0..200 {
        let mut pos = Chess::default();
        for _ in 0..rng.below(60) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let m = moves[rng.below(moves.len())];
        for (lang, form) in [
            (de, Form::Short),
            (de, Form::Long),
            (en, Form::Short),
            (en, Form::Long),
        ] {
            cases.push((pos.clone(), announce(&pos, m, lang, form)));
        }
    }
    let rounds = 20;
    let start = Instant::now();
    let mut ok = 0usize;
    for _ in 0..rounds {
        for (pos, phrase) in &cases {
            ok += usize::from(parse_move(phrase, pos).is_ok());
        }
    }
    let per = start.elapsed().as_secs_f64() / (rounds * cases.len()) as f64;
    println!(
        "parse: {} phrases x {rounds}, mean {:.2} µs per phrase ({ok} parsed)",
        cases.len(),
        per * 1e6
    );
}
