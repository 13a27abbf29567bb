//! The record for others to read: PGN (export format, PGN standard section 8) and the
//! scoresheet as text for printing or a braille display (Appendix C).

use std::fmt::Write as _;
use std::time::Duration;

use shakmaty::{Chess, Color, EnPassantMode, Position, fen::Fen, san::SanPlus};

use super::entry::{Entry, Header, Reconciled, Times};
use super::replay::{ReplayError, Replayed, Replayer, Step};
use super::salvage::{Salvaged, stop_words};
use crate::laws::ClaimKind;
use crate::notation::clock_words::duration_words;
use crate::notation::language::{Language, capitalized, fill};
use crate::notation::scoresheet::scoresheet_move;
use crate::outcome::{Outcome, Termination};
use crate::variant::Variant;

/// Longest PGN line: the export format keeps lines under 80 columns.
const MAX_LINE: usize = 79;

/// One half-move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RecordedPly {
    pub(crate) san: SanPlus,
    pub(crate) by: Color,
    /// Both times after the clock was pressed, when a clock ran.
    pub(crate) clock: Option<Times>,
}

/// Something written beside the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Remark {
    /// (=), Appendix C12.
    DrawOffer(Color),
    Claim {
        by: Color,
        kind: ClaimKind,
        intended: Option<SanPlus>,
        correct: bool,
    },
    Penalty {
        beneficiary: Color,
        ms: u64,
        article: String,
    },
    IllegalMove(Color),
    UnpromotedPawn(Color),
    TakenBack(SanPlus),
    /// The players agreed to take back moves; the colour asked.
    TakebackAgreed(Color),
    /// The colour refused the opponent's take-back request.
    TakebackDeclined(Color),
    /// The colour aborted the game before both sides had moved.
    Aborted(Color),
    Note(String),
    ClockPaused,
    ClockResumed,
    ClockAdjusted {
        color: Color,
        ms: u64,
    },
    MovesAdjusted {
        color: Color,
        moves: u32,
    },
    /// D2.8; `agreed`: the move both records share last (number, colour), `Some(None)` when
    /// they share none, `None` when they agree.
    Mismatch {
        board: Color,
        agreed: Option<Option<(u32, Color)>>,
        detail: String,
    },
    Reconciled {
        board: Color,
        how: Reconciled,
    },
    Adjourned {
        by: Color,
        move_number: u32,
    },
    AdjournmentResumed,
}

/// The game as the record shows it: the moves (after any take-back) and the remarks.
#[derive(Clone, Debug)]
pub struct Record {
    pub(crate) replayed: Replayed,
    pub(crate) plies: Vec<RecordedPly>,
    /// `remarks[p]`: written after the `p`-th half-move (`remarks[0]` before the first).
    pub(crate) remarks: Vec<Vec<Remark>>,
}

impl Record {
    /// Replays a journal and collects what its record shows.
    pub fn build(header: &Header, entries: &[Entry]) -> Result<Record, ReplayError> {
        let mut replayer = Replayer::new(header)?;
        let mut plies: Vec<RecordedPly> = Vec::new();
        let mut remarks: Vec<Vec<Remark>> = vec![Vec::new()];
        // Offers made by the player to move belong beside that player's next move (C12).
        let mut deferred: Vec<Remark> = Vec::new();
        for entry in entries {
            let before: Chess = replayer.game().position().clone();
            let offer_before = replayer.game().pending_draw_offer();
            let step = replayer.apply(entry)?;
            let game = replayer.game();
            let here = plies.len();
            match (&step, entry) {
                (Step::Played, _) => {
                    let mover_remarks = played_remarks(entry, &before);
                    remarks[here].extend(mover_remarks);
                    let clock = match entry {
                        Entry::Move { clock, .. } | Entry::UnpromotedPawn { clock, .. } => *clock,
                        _ => None,
                    };
                    if let Some(last) = game.last_move() {
                        let by = before.turn();
                        let ply = RecordedPly {
                            san: last.san,
                            by,
                            clock,
                        };
                        let own = own_offers(&mut deferred, by, &mut remarks[here]);
                        plies.push(ply);
                        remarks.push(own);
                    }
                }
                (Step::ClockOfPlayed, Entry::Move { clock, .. }) => {
                    if let Some(last) = plies.last_mut() {
                        last.clock = *clock;
                    }
                }
                (Step::TookBack(_), _) => {
                    if let Some(taken) = plies.pop() {
                        let mut moved = remarks.pop().unwrap_or_default();
                        let slot = remarks.len() - 1;
                        remarks[slot].append(&mut moved);
                        remarks[slot].push(Remark::TakenBack(taken.san));
                    }
                }
                (_, Entry::DrawOffered { by }) if offer_before != Some(*by) => {
                    if game.turn() == *by && !game.is_over() {
                        deferred.push(Remark::DrawOffer(*by));
                    } else {
                        remarks[here].push(Remark::DrawOffer(*by));
                    }
                }
                (
                    _,
                    Entry::Claim {
                        by,
                        kind,
                        intended,
                        correct,
                    },
                ) => remarks[here].push(claim_remark(&before, *by, *kind, *intended, *correct)),
                (
                    _,
                    Entry::Penalty {
                        beneficiary,
                        ms,
                        article,
                    },
                ) => remarks[here].push(Remark::Penalty {
                    beneficiary: *beneficiary,
                    ms: *ms,
                    article: article.clone(),
                }),
                (_, Entry::IllegalMove { by }) => remarks[here].push(Remark::IllegalMove(*by)),
                (_, Entry::UnpromotedPawn { by, .. }) => {
                    remarks[here].push(Remark::UnpromotedPawn(*by))
                }
                (_, Entry::Note { text }) => remarks[here].push(Remark::Note(text.clone())),
                (_, other) => {
                    if let Some(r) = arbiter_remark(other, game) {
                        remarks[here].push(r);
                    }
                }
            }
        }
        // An offer whose move never came stays where it was made.
        let last = remarks.len() - 1;
        remarks[last].append(&mut deferred);
        Ok(Record {
            replayed: replayer.finish(),
            plies,
            remarks,
        })
    }

    fn start(&self) -> &Chess {
        self.replayed.game.start()
    }

    /// Whether a draw offer by `by` in `remarks[slot]` stands right after a move of its own,
    /// where (=) alone says who offered (C12). Elsewhere (before the first move, or an offer
    /// made before a move that never came) the remark names the player.
    fn offer_beside_own_move(&self, slot: usize, by: Color) -> bool {
        slot.checked_sub(1)
            .and_then(|i| self.plies.get(i))
            .is_some_and(|ply| ply.by == by)
    }

    /// A remark in `remarks[slot]` in words.
    fn remark_text(&self, slot: usize, remark: &Remark, lang: &Language) -> String {
        match remark {
            Remark::DrawOffer(by) if !self.offer_beside_own_move(slot, *by) => {
                offer_named(*by, lang)
            }
            other => remark_words(other, lang),
        }
    }

    /// The move number and colour of half-move `i` (from 0).
    pub(crate) fn number(&self, i: usize) -> (u32, Color) {
        let plies = u32::try_from(i).unwrap_or(u32::MAX - 1).saturating_add(1);
        ply_number(self.start(), plies).unwrap_or((1, Color::White))
    }
}

/// The remark for an arbiter's entry (the clock, the boards, an adjournment), with `game` as
/// it stands after the entry.
pub(crate) fn arbiter_remark(entry: &Entry, game: &crate::game::Game) -> Option<Remark> {
    Some(match entry {
        Entry::ClockPaused => Remark::ClockPaused,
        Entry::ClockResumed => Remark::ClockResumed,
        Entry::ClockAdjusted {
            color,
            remaining_ms,
        } => Remark::ClockAdjusted {
            color: *color,
            ms: *remaining_ms,
        },
        Entry::MovesAdjusted { color, moves } => Remark::MovesAdjusted {
            color: *color,
            moves: *moves,
        },
        Entry::BoardMismatch {
            board,
            agreed_plies,
            detail,
        } => Remark::Mismatch {
            board: *board,
            agreed: agreed_plies.map(|plies| ply_number(game.start(), plies)),
            detail: detail.clone(),
        },
        Entry::BoardReconciled { board, how } => Remark::Reconciled {
            board: *board,
            how: *how,
        },
        Entry::Adjourned { by, move_number } => Remark::Adjourned {
            by: *by,
            move_number: *move_number,
        },
        Entry::AdjournmentResumed => Remark::AdjournmentResumed,
        // The players' own agreements, written beside the moves the same way.
        Entry::TakebackAgreed { by } => Remark::TakebackAgreed(*by),
        Entry::TakebackDeclined { by } => Remark::TakebackDeclined(*by),
        Entry::Aborted { by } => Remark::Aborted(*by),
        _ => return None,
    })
}

/// The number and colour of the last of the first `plies` half-moves from `start`; `None`
/// for no half-move at all.
pub(crate) fn ply_number(start: &Chess, plies: u32) -> Option<(u32, Color)> {
    let i = plies.checked_sub(1)?;
    let black_first = u32::from(start.turn() == Color::Black);
    let n = start
        .fullmoves()
        .get()
        .saturating_add((i + black_first) / 2);
    let color = if (i + black_first).is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    Some((n, color))
}

/// The remarks an entry that played a move brings before that move: an incorrect claim
/// (its announced move is the one played), a pawn left unpromoted.
fn played_remarks(entry: &Entry, before: &Chess) -> Vec<Remark> {
    match entry {
        Entry::Claim {
            by,
            kind,
            intended,
            correct,
        } => vec![claim_remark(before, *by, *kind, *intended, *correct)],
        Entry::UnpromotedPawn { by, .. } => vec![Remark::UnpromotedPawn(*by)],
        _ => Vec::new(),
    }
}

/// The offers `by` made before moving, which go beside the move; an offer by the other
/// player (the position was taken back meanwhile) stays before it, in `before_move`.
fn own_offers(deferred: &mut Vec<Remark>, by: Color, before_move: &mut Vec<Remark>) -> Vec<Remark> {
    let (own, other): (Vec<Remark>, Vec<Remark>) = std::mem::take(deferred)
        .into_iter()
        .partition(|r| !matches!(r, Remark::DrawOffer(c) if *c != by));
    before_move.extend(other);
    own
}

fn claim_remark(
    before: &Chess,
    by: Color,
    kind: ClaimKind,
    intended: Option<shakmaty::uci::UciMove>,
    correct: bool,
) -> Remark {
    let intended = intended
        .and_then(|uci| uci.to_move(before).ok())
        .map(|m| SanPlus::from_move(before.clone(), m));
    Remark::Claim {
        by,
        kind,
        intended,
        correct,
    }
}

/// The remark in words, as a PGN comment or a scoresheet line.
pub(crate) fn remark_words(remark: &Remark, lang: &Language) -> String {
    let w = &lang.record;
    match remark {
        Remark::DrawOffer(_) => w.draw_offer.clone(),
        Remark::Claim {
            by,
            kind,
            intended,
            correct,
        } => {
            let kind = match kind {
                ClaimKind::Threefold => &w.threefold,
                ClaimKind::FiftyMoves => &w.fifty_moves,
            };
            let verdict = if *correct { &w.correct } else { &w.incorrect };
            match intended {
                Some(san) => fill(
                    &w.claim_move,
                    &[
                        ("color", lang.color(*by)),
                        ("kind", kind),
                        ("move", &san.to_string()),
                        ("verdict", verdict),
                    ],
                ),
                None => fill(
                    &w.claim,
                    &[
                        ("color", lang.color(*by)),
                        ("kind", kind),
                        ("verdict", verdict),
                    ],
                ),
            }
        }
        Remark::Penalty {
            beneficiary,
            ms,
            article,
        } => fill(
            &w.penalty,
            &[
                ("time", &duration_words(Duration::from_millis(*ms), lang)),
                ("color", lang.color(*beneficiary)),
                ("article", article),
            ],
        ),
        Remark::IllegalMove(by) => fill(&w.illegal_move, &[("color", lang.color(*by))]),
        Remark::UnpromotedPawn(by) => fill(&w.unpromoted_pawn, &[("color", lang.color(*by))]),
        Remark::TakenBack(san) => fill(&w.taken_back, &[("move", &san.to_string())]),
        Remark::TakebackAgreed(by) => {
            fill(&lang.takeback.record_agreed, &[("color", lang.color(*by))])
        }
        Remark::TakebackDeclined(by) => fill(
            &lang.takeback.record_declined,
            &[("color", lang.color(*by))],
        ),
        Remark::Aborted(by) => fill(&lang.takeback.record_aborted, &[("color", lang.color(*by))]),
        Remark::Note(text) => fill(&w.note, &[("text", text)]),
        Remark::ClockPaused => w.clock_paused.clone(),
        Remark::ClockResumed => w.clock_resumed.clone(),
        Remark::ClockAdjusted { color, ms } => fill(
            &w.clock_adjusted,
            &[
                ("color", lang.color(*color)),
                ("time", &duration_words(Duration::from_millis(*ms), lang)),
            ],
        ),
        Remark::MovesAdjusted { color, moves } => fill(
            &w.moves_adjusted,
            &[("color", lang.color(*color)), ("moves", &moves.to_string())],
        ),
        Remark::Mismatch {
            board,
            agreed,
            detail,
        } => {
            let board = fill(&w.board_of, &[("color", lang.color(*board))]);
            match agreed {
                None => fill(&w.mismatch, &[("board", &board), ("detail", detail)]),
                Some(point) => fill(
                    &w.mismatch_records,
                    &[
                        ("board", &board),
                        ("detail", detail),
                        ("agreed", &agreed_words(*point, lang)),
                    ],
                ),
            }
        }
        Remark::Reconciled { board, how } => {
            let board = fill(&w.board_of, &[("color", lang.color(*board))]);
            let template = match how {
                Reconciled::Board => &w.reconciled_board,
                Reconciled::TakenBack => &w.reconciled_taken_back,
                Reconciled::Arbiter => &w.reconciled_arbiter,
            };
            fill(template, &[("board", &board)])
        }
        Remark::Adjourned { by, move_number } => fill(
            &w.adjourned,
            &[
                ("color", lang.color(*by)),
                ("number", &move_number.to_string()),
            ],
        ),
        Remark::AdjournmentResumed => w.adjournment_resumed.clone(),
    }
}

/// A draw offer that names its player, with (=): "Weiß bietet Remis an (=)".
fn offer_named(by: Color, lang: &Language) -> String {
    format!(
        "{} {}",
        fill(&lang.record.log_offer, &[("color", lang.color(by))]),
        lang.record.draw_offer
    )
}

/// "Zug 12 Schwarz", or "zum Anfang" when no move is shared.
pub(crate) fn agreed_words(point: Option<(u32, Color)>, lang: &Language) -> String {
    let w = &lang.record;
    match point {
        None => w.agreed_start.clone(),
        Some((number, color)) => fill(
            &w.agreed_move,
            &[
                ("number", &number.to_string()),
                ("color", lang.color(color)),
            ],
        ),
    }
}

/// A termination in words.
pub(crate) fn termination_words(t: Termination, lang: &Language) -> &str {
    let w = &lang.record.terminations;
    match t {
        Termination::Checkmate => &w.checkmate,
        Termination::Resignation => &w.resignation,
        Termination::Stalemate => &w.stalemate,
        Termination::DeadPosition(_) => &w.dead_position,
        Termination::Agreement => &w.agreement,
        Termination::Threefold(_) => &w.threefold,
        Termination::FiftyMoves(_) => &w.fifty_moves,
        Termination::Fivefold => &w.fivefold,
        Termination::SeventyFiveMoves => &w.seventy_five_moves,
        Termination::FlagFall => &w.flag_fall,
        Termination::BothFlags => &w.both_flags,
        Termination::IllegalMoves => &w.illegal_moves,
        Termination::ArbiterDecision => &w.arbiter_decision,
    }
}

/// "Result: 1-0, White wins: checkmate, Article 5.1a", or that the game is not finished.
pub(crate) fn result_words(outcome: Option<Outcome>, lang: &Language) -> String {
    match outcome {
        Some(o) => fill(
            &lang.record.result,
            &[
                ("score", o.result.pgn()),
                ("words", lang.result(Some(o.result))),
                ("how", termination_words(o.termination, lang)),
                ("article", o.termination.article()),
            ],
        ),
        None => lang.record.unfinished.clone(),
    }
}

/// The PGN date (`2026.11.21`) of a creation time such as `2026-11-21T14:03:05Z`.
pub fn pgn_date(created: &str) -> String {
    let b = created.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    if digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
    {
        format!("{}.{}.{}", &created[0..4], &created[5..7], &created[8..10])
    } else {
        "????.??.??".to_string()
    }
}

/// The most characters a tag value may have: the PGN standard limits a string to "a maximum
/// of 255 characters of data" (section 7).
pub(crate) const MAX_TAG_VALUE: usize = 255;

/// A tag value: quotes and backslashes escaped, line ends and control characters as spaces,
/// and held to [`MAX_TAG_VALUE`] characters as written (a longer one is cut at a character,
/// never inside an escape).
pub(crate) fn tag_value(text: &str, missing: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return missing.to_string();
    }
    let mut out = String::with_capacity(text.len().min(4 * MAX_TAG_VALUE));
    let mut written = 0;
    for c in text.chars() {
        let escaped = matches!(c, '"' | '\\');
        let width = 1 + usize::from(escaped);
        if written + width > MAX_TAG_VALUE {
            break;
        }
        written += width;
        match c {
            _ if escaped => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The tag pair section as the standard's export format has it (8.1.1): the seven tags of
/// the roster in their order (`roster`: Event, Site, Date, Round, White, Black, Result, as
/// given, each made a tag value with the standard's mark for a missing one), then the others
/// in ASCII order of their names, each on a line of its own, and the empty line that ends the
/// section. The others' values are written as given.
pub(crate) fn tag_section(roster: [&str; 7], mut others: Vec<(&str, String)>) -> String {
    const NAMES: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    const MISSING: [&str; 7] = ["?", "?", "????.??.??", "-", "?", "?", "*"];
    let mut out = String::new();
    others.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for ((name, missing), value) in NAMES.iter().zip(MISSING).zip(roster) {
        let _ = writeln!(out, "[{name} \"{}\"]", tag_value(value, missing));
    }
    for (name, value) in &others {
        let _ = writeln!(out, "[{name} \"{value}\"]");
    }
    out.push('\n');
    out
}

/// Comment text: braces would end the comment, so they become parentheses.
fn comment_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_whitespace().map(|w| {
        w.chars()
            .map(|c| match c {
                '{' => '(',
                '}' => ')',
                c if c.is_control() => ' ',
                c => c,
            })
            .collect()
    })
}

/// `h:mm:ss` of a remaining time, for `[%clk …]`.
pub(crate) fn clk(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Lays tokens out in lines under 80 columns. A line never starts with `%` (an escape line in
/// PGN), and a token too long for any line is cut.
pub(crate) fn wrap(tokens: &[String]) -> String {
    let mut lines: Vec<Vec<String>> = vec![Vec::new()];
    let mut width = 0usize;
    for token in tokens {
        let mut pieces: Vec<String> = Vec::new();
        let chars: Vec<char> = token.chars().collect();
        for chunk in chars.chunks(MAX_LINE) {
            pieces.push(chunk.iter().collect());
        }
        for piece in pieces {
            let len = piece.chars().count();
            let current = lines.len() - 1;
            if !lines[current].is_empty() && width + 1 + len > MAX_LINE {
                let mut next = Vec::new();
                let mut next_width = 0;
                if piece.starts_with('%')
                    && lines[current].len() > 1
                    && let Some(carried) = lines[current].pop()
                {
                    next_width = carried.chars().count() + 1;
                    next.push(carried);
                }
                lines.push(next);
                width = next_width;
            } else if !lines[current].is_empty() {
                width += 1;
            }
            width += len;
            let current = lines.len() - 1;
            lines[current].push(piece);
        }
    }
    let mut out = String::new();
    for line in lines.iter().filter(|l| !l.is_empty()) {
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

/// The start position's FEN when a PGN needs one (Chess960 or a set-up position).
fn setup_fen(header: &Header, start: &Chess) -> Option<String> {
    let needed = header.variant == Variant::Chess960
        || header.start_fen.is_some() && *start != Chess::default();
    needed.then(|| Fen::from_position(start, EnPassantMode::Legal).to_string())
}

/// The game as PGN in export format, with comments in `lang`.
pub fn to_pgn(header: &Header, entries: &[Entry], lang: &Language) -> Result<String, ReplayError> {
    let record = Record::build(header, entries)?;
    Ok(record_to_pgn(header, &record, lang))
}

/// Where the good part of a salvaged journal stops, as the last words of its record.
fn stop_sentence(salvaged: &Salvaged, lang: &Language) -> Option<String> {
    salvaged.stop.as_ref().map(|stop| {
        format!(
            "{}. {}.",
            lang.record.damaged.stops_here,
            stop_words(stop, lang)
        )
    })
}

/// The good part of a journal as PGN: every move before the entry where it stops, then a
/// comment saying where and why. The result is `*` unless the good part ended the game.
pub fn salvaged_pgn(salvaged: &Salvaged, lang: &Language) -> Result<String, ReplayError> {
    let record = Record::build(&salvaged.header, &salvaged.entries)?;
    let end = stop_sentence(salvaged, lang);
    Ok(pgn_with_end(
        &salvaged.header,
        &record,
        end.as_deref(),
        lang,
    ))
}

/// The good part of a journal as a scoresheet, with a line saying where and why it stops.
pub fn salvaged_scoresheet(salvaged: &Salvaged, lang: &Language) -> Result<String, ReplayError> {
    let record = Record::build(&salvaged.header, &salvaged.entries)?;
    let end = stop_sentence(salvaged, lang);
    Ok(scoresheet_with_end(
        &salvaged.header,
        &record,
        end.as_deref(),
        lang,
    ))
}

/// PGN of a record already built.
pub(crate) fn record_to_pgn(header: &Header, record: &Record, lang: &Language) -> String {
    pgn_with_end(header, record, None, lang)
}

/// PGN of a record, with `end` as a last comment before the result.
fn pgn_with_end(header: &Header, record: &Record, end: Option<&str>, lang: &Language) -> String {
    let outcome = record.replayed.outcome();
    let result = outcome.map_or("*", |o| o.result.pgn());
    let mut others = vec![
        (
            "TimeControl",
            tag_value(header.time_control.as_deref().unwrap_or(""), "-"),
        ),
        (
            "Termination",
            outcome
                .map_or("unterminated", |o| o.termination.pgn_termination())
                .to_string(),
        ),
    ];
    if header.variant == Variant::Chess960 {
        others.push(("Variant", "Chess960".into()));
    }
    if let Some(fen) = setup_fen(header, record.start()) {
        others.push(("SetUp", "1".into()));
        others.push(("FEN", fen));
    }
    let date = pgn_date(&header.created);
    let mut out = tag_section(
        [
            &header.event,
            &header.site,
            &date,
            &header.round,
            &header.white,
            &header.black,
            result,
        ],
        others,
    );

    let mut tokens: Vec<String> = Vec::new();
    // The braces stay with the first and last word, so a line never ends in an open brace.
    let comment = |tokens: &mut Vec<String>, text: &str| {
        let mut words: Vec<String> = comment_words(text).collect();
        match words.len() {
            0 => tokens.push("{ }".into()),
            n => {
                words[0].insert_str(0, "{ ");
                words[n - 1].push_str(" }");
                tokens.extend(words);
            }
        }
    };
    for remark in &record.remarks[0] {
        comment(&mut tokens, &record.remark_text(0, remark, lang));
    }
    let mut need_number = true;
    for (i, ply) in record.plies.iter().enumerate() {
        let (number, color) = record.number(i);
        // A move number stays on the line of its move.
        tokens.push(if color == Color::White {
            format!("{number}. {}", ply.san)
        } else if need_number {
            format!("{number}... {}", ply.san)
        } else {
            ply.san.to_string()
        });
        need_number = false;
        if let Some(times) = ply.clock {
            // One token: a line break inside [%clk …] would upset some readers.
            tokens.push(format!("{{ [%clk {}] }}", clk(times.of(ply.by))));
            need_number = true;
        }
        for remark in record.remarks.get(i + 1).into_iter().flatten() {
            comment(&mut tokens, &record.remark_text(i + 1, remark, lang));
            need_number = true;
        }
    }
    if let Some(end) = end {
        comment(&mut tokens, end);
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens));
    out.push('\n');
    out
}

/// The scoresheet as text: a heading, one line per move number with the language's piece
/// letters (C3), (=) after offers (C12), and the result in words.
pub fn scoresheet_text(
    header: &Header,
    entries: &[Entry],
    lang: &Language,
) -> Result<String, ReplayError> {
    let record = Record::build(header, entries)?;
    Ok(record_to_scoresheet(header, &record, lang))
}

/// The scoresheet of a record already built.
pub fn record_to_scoresheet(header: &Header, record: &Record, lang: &Language) -> String {
    scoresheet_with_end(header, record, None, lang)
}

/// The scoresheet's heading: the players, then the game's facts that are known.
fn scoresheet_heading(header: &Header, lang: &Language) -> Vec<String> {
    let w = &lang.record;
    // The header's texts come from outside (a journal may be crafted, a name an engine's):
    // printed with their control characters shown, never sent to the terminal.
    let printable = crate::notation::printable;
    let name = |n: &str, c: Color| {
        if n.trim().is_empty() {
            lang.color(c).to_string()
        } else {
            printable(n.trim()).into_owned()
        }
    };
    let mut lines: Vec<String> = vec![fill(
        &w.heading,
        &[
            ("white", &name(&header.white, Color::White)),
            ("black", &name(&header.black, Color::Black)),
        ],
    )];
    let mut fact = |template: &str, text: &str| {
        if !text.trim().is_empty() {
            lines.push(fill(template, &[("text", &printable(text.trim()))]));
        }
    };
    fact(&w.event, &header.event);
    fact(&w.site, &header.site);
    fact(&w.date, header.created.get(..10).unwrap_or(&header.created));
    fact(
        &w.time_control,
        header.time_control.as_deref().unwrap_or(""),
    );
    fact(&w.opponent, &header.opponent);
    if let Some(fen) = &header.start_fen {
        let template = match header.variant {
            crate::variant::Variant::Chess960 => &w.start_chess960,
            _ => &w.start_fen,
        };
        lines.push(capitalized(&fill(template, &[("fen", &printable(fen))])));
    }
    lines
}

/// The scoresheet's moves, a line for each move number, with the offers that cannot stand
/// beside their player's own move on lines of their own.
fn scoresheet_moves(record: &Record, lang: &Language) -> Vec<String> {
    let w = &lang.record;
    let mut body: Vec<String> = Vec::new();
    let mut current = String::new();
    // Offers that cannot stand beside their player's own move are lines of their own, after
    // the line of the move they followed.
    let named = |slot: usize| -> Vec<String> {
        record
            .remarks
            .get(slot)
            .into_iter()
            .flatten()
            .filter_map(|r| match r {
                Remark::DrawOffer(by) if !record.offer_beside_own_move(slot, *by) => {
                    Some(offer_named(*by, lang))
                }
                _ => None,
            })
            .collect()
    };
    body.extend(named(0));
    let mut waiting: Vec<String> = Vec::new();
    for (i, ply) in record.plies.iter().enumerate() {
        let (number, color) = record.number(i);
        let mut text = scoresheet_move(&ply.san, lang);
        let offered = record.remarks.get(i + 1).is_some_and(|r| {
            r.iter().any(
                |m| matches!(m, Remark::DrawOffer(by) if record.offer_beside_own_move(i + 1, *by)),
            )
        });
        if offered {
            text.push(' ');
            text.push_str(&w.draw_offer);
        }
        match color {
            Color::White => {
                if !current.is_empty() {
                    body.push(std::mem::take(&mut current));
                    body.append(&mut waiting);
                }
                current = format!("{number}. {text}");
            }
            Color::Black if current.is_empty() => current = format!("{number}. … {text}"),
            Color::Black => {
                current.push(' ');
                current.push_str(&text);
            }
        }
        waiting.extend(named(i + 1));
        if color == Color::Black {
            body.push(std::mem::take(&mut current));
            body.append(&mut waiting);
        }
    }
    if !current.is_empty() {
        body.push(current);
    }
    body.append(&mut waiting);
    body
}

/// The scoresheet of a record, with `end` as a line before the result.
fn scoresheet_with_end(
    header: &Header,
    record: &Record,
    end: Option<&str>,
    lang: &Language,
) -> String {
    let lines = scoresheet_heading(header, lang);
    let mut body = scoresheet_moves(record, lang);
    if let Some(end) = end {
        body.push(end.to_string());
    }
    let mut out = lines.join("\n");
    out.push_str("\n\n");
    for line in body {
        out.push_str(&line);
        out.push('\n');
    }
    if record.replayed.game.is_aborted() {
        out.push_str(&lang.record.unfinished_aborted);
    } else {
        out.push_str(&result_words(record.replayed.outcome(), lang));
    }
    out.push('\n');
    out
}
