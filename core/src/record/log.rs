//! The event log of a game, for the arbiter to read back: one sentence per entry of the
//! journal that happened at the board (moves with both clocks, touched pieces, offers,
//! claims, penalties, the boards' mismatches and how they were resolved, the clock, the end),
//! in the game's words. Clock checkpoints and settings are left out: they are bookkeeping;
//! so is a touched piece that its player then moved (every move begins with a touch, 4.3).

use shakmaty::{Chess, Color, Move, Position, Square, san::SanPlus};

use super::entry::{Entry, Header, Times};
use super::export::{Remark, arbiter_remark, remark_words, termination_words};
use super::replay::{ReplayError, Replayer, Step};
use crate::notation::clock_words::clock_face;
use crate::notation::language::{Language, fill};
use crate::notation::speak::announce_san;

/// The log of a journal, one line per event, oldest first.
pub fn event_log(
    header: &Header,
    entries: &[Entry],
    lang: &Language,
) -> Result<Vec<String>, ReplayError> {
    let mut replayer = Replayer::new(header)?;
    let mut lines = Vec::new();
    // Touches wait for the move: (square, line).
    let mut touches: Vec<(Square, String)> = Vec::new();
    for entry in entries {
        let before: Chess = replayer.game().position().clone();
        let last_before = replayer.game().last_move().cloned();
        let step = replayer.apply(entry)?;
        let line = line_for(entry, &step, &before, last_before, &replayer, header, lang);
        match (entry, &step) {
            (Entry::Touched { square, .. }, _) => {
                if let Some(line) = line
                    && !touches.iter().any(|(sq, _)| sq == square)
                {
                    touches.push((*square, line));
                }
                continue;
            }
            (_, Step::Played) => {
                let moved: Vec<Square> = match replayer.game().last_move().map(|p| p.mv) {
                    Some(Move::Castle { king, rook }) => vec![king, rook],
                    Some(m) => m.from().into_iter().collect(),
                    None => Vec::new(),
                };
                lines.extend(
                    touches
                        .drain(..)
                        .filter(|(sq, _)| !moved.contains(sq))
                        .map(|(_, l)| l),
                );
            }
            _ => {}
        }
        if let Some(line) = line {
            lines.push(line);
        }
    }
    lines.extend(touches.into_iter().map(|(_, l)| l));
    Ok(lines)
}

fn line_for(
    entry: &Entry,
    step: &Step,
    before: &Chess,
    last_before: Option<crate::game::PlayedMove>,
    replayer: &Replayer,
    header: &Header,
    lang: &Language,
) -> Option<String> {
    let w = &lang.record;
    let color = |c: Color| lang.color(c).to_string();
    let game = replayer.game();
    let text = match (entry, step) {
        (Entry::Move { clock, by, .. }, Step::Played) => {
            let played = game.last_move()?;
            let words = announce_san(played.san, played.mv, lang, header.form);
            let number = before.fullmoves().get().to_string();
            let mut line = fill(
                &w.log_move,
                &[
                    ("number", &number),
                    ("color", &color(*by)),
                    ("move", &words),
                ],
            );
            if let Some(times) = clock {
                line = format!("{line}. {}", times_words(*times, lang));
            }
            line
        }
        (Entry::Move { .. }, _) => return None,
        (Entry::Touched { by, square }, _) => {
            let role = before.board().role_at(*square)?;
            fill(
                &w.log_touched,
                &[
                    ("color", &color(*by)),
                    ("piece", lang.piece(role)),
                    ("square", &lang.square(*square)),
                ],
            )
        }
        (Entry::DrawOffered { by }, _) => fill(&w.log_offer, &[("color", &color(*by))]),
        (Entry::DrawDeclined { by }, _) => fill(&w.log_declined, &[("color", &color(*by))]),
        (Entry::DrawAccepted { by }, _) => fill(&w.log_accepted, &[("color", &color(*by))]),
        (
            Entry::Claim {
                by,
                kind,
                intended,
                correct,
            },
            _,
        ) => {
            let intended = intended
                .and_then(|uci| uci.to_move(before).ok())
                .map(|m| SanPlus::from_move(before.clone(), m));
            remark_words(
                &Remark::Claim {
                    by: *by,
                    kind: *kind,
                    intended,
                    correct: *correct,
                },
                lang,
            )
        }
        (
            Entry::Penalty {
                beneficiary,
                ms,
                article,
            },
            _,
        ) => remark_words(
            &Remark::Penalty {
                beneficiary: *beneficiary,
                ms: *ms,
                article: article.clone(),
            },
            lang,
        ),
        (Entry::IllegalMove { by }, _) => remark_words(&Remark::IllegalMove(*by), lang),
        (Entry::UnpromotedPawn { by, .. }, _) => remark_words(&Remark::UnpromotedPawn(*by), lang),
        (Entry::TakenBack { .. }, _) => remark_words(&Remark::TakenBack(last_before?.san), lang),
        (Entry::Note { text }, _) => remark_words(&Remark::Note(text.clone()), lang),
        (Entry::Resigned { by }, _) => fill(&w.log_resigned, &[("color", &color(*by))]),
        (Entry::FlagFell { color: c }, _) => fill(&w.log_flag, &[("color", &color(*c))]),
        (Entry::BothFlagsFell { .. }, _) => w.log_both_flags.clone(),
        (
            Entry::Result {
                result,
                termination,
            },
            _,
        ) => fill(
            &w.log_result,
            &[
                ("result", lang.result_said(*result)),
                ("how", termination_words(*termination, lang)),
            ],
        ),
        (Entry::ClockCheckpoint { .. } | Entry::Setting { .. }, _) => return None,
        (other, _) => remark_words(&arbiter_remark(other, game)?, lang),
    };
    Some(text)
}

/// "Uhr: Weiß 1:10:05, Schwarz 58:30".
fn times_words(times: Times, lang: &Language) -> String {
    let face = |c: Color| {
        format!(
            "{} {}",
            lang.color(c),
            clock_face(std::time::Duration::from_millis(times.of(c)))
        )
    };
    fill(
        &lang.record.log_times,
        &[
            ("white", &face(Color::White)),
            ("black", &face(Color::Black)),
        ],
    )
}
