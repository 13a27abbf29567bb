//! Opening names: the time to read the lichess table on first use, and the cost per move of
//! asking whether the position reached is named (what `--openings` does after every move)
//! and of naming a game's opening (the `eröffnung` question).
//!
//! cargo bench --bench openings -- [--games N]

mod support;

use std::time::Instant;

use hector::core::game::Game;
use hector::core::openings;
use hector::core::testkit::games::Rng;
use hector::core::variant::Variant;
use shakmaty::Chess;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = support::arg(&args, "--games").unwrap_or(2_000);

    let start = Instant::now();
    let named = openings::named(&Chess::default()).is_some();
    let build = start.elapsed();
    println!(
        "openings: table read on first use in {:.1} ms (start position named: {named})",
        build.as_secs_f64() * 1e3
    );

    // Random games of 30 plies; the first moves of random games are often named.
    let mut rng = Rng::new(2026);
    let mut played = Vec::with_capacity(games);
    for _ in 0..games {
        let mut g = Game::new(Variant::Standard);
        for _ in 0..30 {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            if g.play(m).is_err() {
                break;
            }
        }
        played.push(g);
    }

    let mut lookups = 0usize;
    let mut hits = 0usize;
    let start = Instant::now();
    for g in &played {
        for ply in 1..=g.ply() {
            if let Some(pos) = g.position_at(ply) {
                lookups += 1;
                hits += usize::from(openings::named(pos).is_some());
            }
        }
    }
    let per_move = start.elapsed().as_secs_f64() / lookups.max(1) as f64;
    println!(
        "  after a move: {:.2} µs per position ({lookups} positions, {hits} named)",
        per_move * 1e6
    );

    let start = Instant::now();
    let mut named_games = 0usize;
    for g in &played {
        named_games += usize::from(openings::of_game(g).is_some());
    }
    let per_game = start.elapsed().as_secs_f64() / played.len().max(1) as f64;
    println!(
        "  eröffnung: {:.2} µs per 30-ply game ({named_games} of {} games named)",
        per_game * 1e6,
        played.len()
    );
}
