//! Seeded sample journals, written as the play mode writes them: the games of
//! [`super::games`] (and some random Chess960 games) replayed through the game's own API, with
//! clock times, checkpoints, touched pieces, draw offers, claims right and wrong, illegal
//! moves, penalties, notes and endings sprinkled in.

use shakmaty::{Color, Position};

use super::games::{Rng, SampleOptions, write_games};
use crate::game::{ClaimVerdict, Game, IllegalMoveVerdict};
use crate::laws::{ClaimKind, Rules};
use crate::pgn::Reader;
use crate::record::entry::millis;
use crate::record::import::import_game;
use crate::record::{Entry, Header, Times};
use crate::variant::{Variant, chess960_position};

/// A header and entries that replay without error.
#[derive(Clone, Debug)]
pub struct SampleJournal {
    pub header: Header,
    pub entries: Vec<Entry>,
}

/// `count` journals from `seed`; every tenth game is a Chess960 game of random moves.
pub fn sample_journals(count: usize, seed: u64) -> Vec<SampleJournal> {
    let pgn = write_games(SampleOptions {
        games: count,
        seed,
        clock_comments: false,
    });
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut out = Vec::with_capacity(count);
    for (i, raw) in Reader::new(pgn.as_bytes()).enumerate() {
        let n = i + 1;
        let Ok(imported) = import_game(&raw, n) else {
            continue;
        };
        let mut header = imported.header(&format!(
            "2026-11-{:02}T{:02}:{:02}:{:02}Z",
            1 + n % 28,
            n % 24,
            n % 60,
            (n * 7) % 60
        ));
        header.time_control = Some("5400+30".into());
        header.opponent = if n % 2 == 0 {
            "keyboard".into()
        } else {
            "engine Stockfish 15.1, level 3".into()
        };
        header.local_player = Some(if n % 3 == 0 {
            Color::Black
        } else {
            Color::White
        });
        let result = raw.tag("Result").unwrap_or("*").to_string();
        let (sans, start) = if n % 10 == 0 {
            header.variant = Variant::Chess960;
            let number = rng.below(960) as u16;
            let Some(start) = chess960_position(number) else {
                continue;
            };
            header.start_fen = Some(
                shakmaty::fen::Fen::from_position(&start, shakmaty::EnPassantMode::Legal)
                    .to_string(),
            );
            (
                random_moves(&start, &mut rng),
                Game::from_position(start, Variant::Chess960),
            )
        } else {
            (
                imported.game.moves().iter().map(|p| p.mv).collect(),
                Game::from_position(imported.game.start().clone(), Variant::Standard),
            )
        };
        let game = start.with_rules(header.rules);
        let entries = sprinkle(game, &sans, &result, &mut rng);
        out.push(SampleJournal { header, entries });
    }
    out
}

/// Random legal moves from `start` until the game ends or 40 to 160 plies.
fn random_moves(start: &shakmaty::Chess, rng: &mut Rng) -> Vec<shakmaty::Move> {
    let mut game = Game::from_position(start.clone(), Variant::Chess960);
    let mut moves = Vec::new();
    for _ in 0..40 + rng.below(120) {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        if game.play(m).is_err() {
            break;
        }
        moves.push(m);
    }
    moves
}

/// Plays `moves` into `game`, writing the entries a play mode would write.
fn sprinkle(mut game: Game, moves: &[shakmaty::Move], result: &str, rng: &mut Rng) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut clock = Times {
        white_ms: 5_400_000,
        black_ms: 5_400_000,
    };
    let penalty_ms = millis(Rules::default().time_penalty);
    for &m in moves {
        if game.is_over() {
            break;
        }
        let by = game.turn();
        let think = 1_000 + rng.below(90_000) as u64;
        let left = clock.of(by).saturating_sub(think).max(1_000);
        if rng.below(3) == 0 {
            // A checkpoint while the player thinks.
            let mut mid = clock;
            mid.set(by, clock.of(by).saturating_sub(think / 2));
            entries.push(Entry::ClockCheckpoint {
                white_ms: mid.white_ms,
                black_ms: mid.black_ms,
                running: Some(by),
                paused: false,
                used: None,
            });
        }
        if rng.below(60) == 0
            && game.illegal_move_count(by) == 0
            && let Ok(IllegalMoveVerdict::Penalty(p)) = game.illegal_move_completed(by)
        {
            entries.push(Entry::IllegalMove { by });
            entries.push(Entry::Penalty {
                beneficiary: p.beneficiary,
                ms: millis(p.time),
                article: p.article.to_string(),
            });
            let now = clock.of(p.beneficiary);
            clock.set(p.beneficiary, now + millis(p.time));
        }
        let claim = rng.below(30);
        if claim < 2 || game.claims().any() && rng.below(4) == 0 {
            let kind = if rng.below(2) == 0 {
                ClaimKind::Threefold
            } else {
                ClaimKind::FiftyMoves
            };
            let intended = (claim == 1).then_some(m);
            if let Ok(verdict) = game.claim_draw(by, kind, intended) {
                let correct = matches!(verdict, ClaimVerdict::Correct(_));
                entries.push(Entry::Claim {
                    by,
                    kind,
                    intended: intended.map(|m| crate::record::entry::uci_of(m, game.variant())),
                    correct,
                });
                if correct {
                    break;
                }
                entries.push(Entry::Penalty {
                    beneficiary: !by,
                    ms: penalty_ms,
                    article: "9.5b".into(),
                });
                let now = clock.of(!by);
                clock.set(!by, now + penalty_ms);
                if intended.is_some() {
                    // The game played the intended move (9.5b); its clock times follow.
                    clock.set(by, left + 30_000);
                    if let Some(last) = game.last_move() {
                        entries.push(Entry::from_played(last, by, game.variant(), Some(clock)));
                    }
                    continue;
                }
            }
        }
        if rng.below(10) == 0
            && let Some(from) = m.from()
            && game.touch(by, from).is_ok()
        {
            entries.push(Entry::Touched { by, square: from });
        }
        let Ok(report) = game.play(m) else {
            break;
        };
        clock.set(by, left + 30_000);
        entries.push(Entry::from_played(
            &report.played,
            by,
            game.variant(),
            Some(clock),
        ));
        if !game.is_over() && rng.below(25) == 0 && game.offer_draw(by).is_ok() {
            entries.push(Entry::DrawOffered { by });
        }
        if rng.below(80) == 0 {
            entries.push(Entry::Note {
                text: format!("Uhr geprüft nach Zug {}", game.fullmove_number()),
            });
        }
    }
    if !game.is_over() {
        let loser = match result {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            _ => None,
        };
        let ending = match (loser, rng.below(4)) {
            (Some(color), 0) => game
                .flag_fall(color)
                .ok()
                .map(|_| Entry::FlagFell { color }),
            (Some(by), _) => game.resign(by).ok().map(|_| Entry::Resigned { by }),
            _ => None,
        };
        entries.extend(ending);
        match loser {
            Some(_) => {}
            None if result == "1/2-1/2" => {
                let by = game.turn();
                let offered = game.pending_draw_offer() == Some(!by)
                    || game.offer_draw(!by).is_ok() && {
                        entries.push(Entry::DrawOffered { by: !by });
                        true
                    };
                if offered && game.accept_draw(by).is_ok() {
                    entries.push(Entry::DrawAccepted { by });
                }
            }
            _ => {}
        }
    }
    if let Some(o) = game.outcome() {
        entries.push(Entry::Result {
            result: o.result,
            termination: o.termination,
        });
    }
    entries
}

/// A long game of `plies` half-moves that no automatic end cuts short (random moves, quiet
/// ones preferred so the pieces stay, a pawn move or capture when the 75-move rule nears),
/// with a clock checkpoint every `checkpoint_ms` of thinking time (0: none). `None` when the
/// seed leads to a dead end.
pub fn long_game(plies: usize, checkpoint_ms: u64, seed: u64) -> Option<SampleJournal> {
    let mut rng = Rng::new(seed);
    let header = Header::new("2026-11-21T14:03:05Z", "Lang, Anna", "Lang, Bert");
    let mut game = Game::default();
    let mut entries = Vec::with_capacity(plies * 2);
    let mut clock = Times {
        white_ms: 7_200_000,
        black_ms: 7_200_000,
    };
    while game.ply() < plies {
        let by = game.turn();
        let mut candidates: Vec<shakmaty::Move> = game.legal_moves().into_iter().collect();
        let urgent = game.position().halfmoves() > 60;
        // A random order, then the preferred kind of move first.
        for i in (1..candidates.len()).rev() {
            candidates.swap(i, rng.below(i + 1));
        }
        candidates.sort_by_key(|m| {
            let zeroing = m.is_zeroing();
            match (urgent, zeroing, m.is_capture()) {
                (true, true, _) => 0,
                (false, false, _) => 0,
                (false, true, false) => 1,
                _ => 2,
            }
        });
        let mut played = None;
        for m in candidates {
            let Ok(report) = game.play(m) else { continue };
            if game.is_over() {
                game.take_back();
                continue;
            }
            played = Some(report.played);
            break;
        }
        let played = played?;
        let think = 5_000 + rng.below(55_000) as u64;
        if checkpoint_ms > 0 {
            let mut t = checkpoint_ms;
            while t < think {
                let mut mid = clock;
                mid.set(by, clock.of(by).saturating_sub(t));
                entries.push(Entry::ClockCheckpoint {
                    white_ms: mid.white_ms,
                    black_ms: mid.black_ms,
                    running: Some(by),
                    paused: false,
                    used: None,
                });
                t += checkpoint_ms;
            }
        }
        clock.set(by, clock.of(by).saturating_sub(think) + 30_000);
        entries.push(Entry::from_played(
            &played,
            by,
            Variant::Standard,
            Some(clock),
        ));
    }
    Some(SampleJournal { header, entries })
}
