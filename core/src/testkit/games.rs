//! Seeded random games written as PGN, for throughput benchmarks and robustness tests.

use std::fmt::Write as _;

use shakmaty::{Chess, Position, san::SanPlus};

use crate::laws::automatic_end;
use crate::repetition::Repetitions;

/// A small, fast, seedable generator (xorshift64*), so that sample files are reproducible
/// without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Options for [`write_games`].
#[derive(Clone, Copy, Debug)]
pub struct SampleOptions {
    pub games: usize,
    pub seed: u64,
    /// Add a `{ [%clk h:mm:ss] }` comment after every move, as online servers do.
    pub clock_comments: bool,
}

/// Writes `games` random legal games as PGN. Moves prefer captures and checks a little, games
/// stop at an automatic end or after 20 to 90 moves, and the Result tag is consistent.
pub fn write_games(opts: SampleOptions) -> String {
    let mut rng = Rng::new(opts.seed);
    let mut out = String::with_capacity(opts.games * 1200);
    for n in 1..=opts.games {
        write_game(&mut out, &mut rng, n, opts.clock_comments);
    }
    out
}

fn write_game(out: &mut String, rng: &mut Rng, n: usize, clocks: bool) {
    let mut pos = Chess::default();
    let mut reps = Repetitions::new(&pos);
    let limit = 40 + rng.below(140);
    let mut sans: Vec<SanPlus> = Vec::with_capacity(limit);
    let mut played: Vec<(shakmaty::Square, shakmaty::Square)> = Vec::with_capacity(limit);
    let mut result = "*";
    for _ in 0..limit {
        let moves = pos.legal_moves();
        if let Some(end) =
            automatic_end(&pos, !moves.is_empty(), reps.count_current(pos.halfmoves()))
        {
            result = end.result.pgn();
            break;
        }
        let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
        // Now and then a piece goes back where it came from, so that positions repeat.
        let undo = played
            .len()
            .checked_sub(2)
            .and_then(|i| played.get(i))
            .and_then(|&(from, to)| {
                moves
                    .iter()
                    .find(|m| m.from() == Some(to) && m.to() == from && !m.is_capture())
            });
        let m = match undo {
            Some(&back) if rng.below(4) == 0 => back,
            _ if !captures.is_empty() && rng.below(3) == 0 => *captures[rng.below(captures.len())],
            _ => moves[rng.below(moves.len())],
        };
        if let Some(from) = m.from() {
            played.push((from, m.to()));
        }
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m));
        reps.push(&pos);
    }
    if result == "*" {
        let moves = pos.legal_moves();
        if let Some(end) =
            automatic_end(&pos, !moves.is_empty(), reps.count_current(pos.halfmoves()))
        {
            result = end.result.pgn();
        } else {
            // Decided by resignation, agreement or time, as most real games are.
            result = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"][rng.below(5)];
        }
    }
    let (white_elo, black_elo) = (1800 + rng.below(900), 1800 + rng.below(900));
    let _ = write!(
        out,
        "[Event \"hector sample {n}\"]\n[Site \"Berlin GER\"]\n[Date \"2026.{:02}.{:02}\"]\n\
         [Round \"{}\"]\n[White \"Spieler, Weiß {}\"]\n[Black \"Spieler, Schwarz {}\"]\n\
         [Result \"{result}\"]\n[WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n\
         [TimeControl \"5400+30\"]\n[ECO \"A00\"]\n\n",
        1 + rng.below(12),
        1 + rng.below(28),
        1 + rng.below(9),
        rng.below(10_000),
        rng.below(10_000),
    );
    let mut line_len = 0;
    let mut seconds: i64 = 5400;
    for (i, san) in sans.iter().enumerate() {
        let mut token = String::new();
        if i % 2 == 0 {
            let _ = write!(token, "{}. ", i / 2 + 1);
        }
        let _ = write!(token, "{san}");
        if clocks {
            seconds = (seconds - rng.below(120) as i64 + 30).max(1);
            let _ = write!(
                token,
                " {{ [%clk {}:{:02}:{:02}] }}",
                seconds / 3600,
                seconds / 60 % 60,
                seconds % 60
            );
        }
        if line_len + token.len() + 1 > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&token);
        line_len += token.len();
    }
    if line_len > 0 {
        out.push(' ');
    }
    out.push_str(result);
    out.push_str("\n\n");
}
