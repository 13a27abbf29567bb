//! The opening explorer: the games of masters and of lichess players from a position, as
//! lichess's explorer answers (`/masters`, `/lichess`). Here are the answer decoded and
//! bounded, the most played moves in words, and what a session keeps ([`memory`]: the
//! answers per position, the wait after a 429), with time passed in; the request itself is
//! the adapter's (`io::lichess::explorer`), which answers with a [`Reply`].

pub(crate) mod memory;
#[cfg(test)]
mod tests;

use serde::Deserialize;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::notation::language::{Language, fill};
use crate::notation::speak::{Form, announce};
use crate::openings::{self, Opening};

/// The moves said per database: the few most played.
pub const SAID_MOVES: usize = 3;
/// The most of an answer's body read; lichess's answer without games is a few KiB.
pub const MAX_BODY: u64 = 256 * 1024;
/// The moves of an answer kept at most (the request asks for [`SAID_MOVES`]).
const KEPT_MOVES: usize = 12;

/// One of the explorer's databases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Database {
    /// Over-the-board games of masters.
    Masters,
    /// Games played on lichess.
    Lichess,
}

impl Database {
    pub const ALL: [Database; 2] = [Database::Masters, Database::Lichess];

    /// The request's path and query for the position `fen` (without the base address):
    /// no games listed, only the few moves said; lichess's games of the rated speeds from
    /// blitz up and of players from 1600.
    pub fn query(self, fen: &str) -> String {
        let fen = fen.replace(' ', "%20");
        match self {
            Database::Masters => format!("/masters?fen={fen}&moves={SAID_MOVES}&topGames=0"),
            Database::Lichess => format!(
                "/lichess?variant=standard&fen={fen}&moves={SAID_MOVES}&topGames=0\
                 &recentGames=0&speeds=blitz,rapid,classical&ratings=1600,1800,2000,2200,2500"
            ),
        }
    }
}

/// Games won by White, drawn, won by Black.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub white: u64,
    pub draws: u64,
    pub black: u64,
}

impl Counts {
    pub fn total(self) -> u64 {
        self.white
            .saturating_add(self.draws)
            .saturating_add(self.black)
    }
}

/// A move played from the position and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub m: Move,
    pub counts: Counts,
}

/// One database's answer: the position's games and its most played moves, most played
/// first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub counts: Counts,
    pub moves: Vec<Played>,
}

/// Both databases' answers for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    pub masters: Table,
    pub lichess: Table,
}

/// Why the explorer gave no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No lichess token is stored (the explorer asks for one).
    NoToken,
    /// The explorer refused the token (HTTP 401).
    TokenRefused,
    /// Too many requests (HTTP 429): a minute without any.
    RateLimited,
    /// No connection, no answer in time, or a refusal.
    Unreachable,
    /// An answer that is not the explorer's JSON.
    Unreadable,
}

/// What the adapter brings back for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Found(Tables),
    Failed(Failure),
}

/// Why a body is not an explorer answer.
#[derive(Debug, thiserror::Error)]
#[error("not an explorer answer: {0}")]
pub struct DecodeError(String);

#[derive(Deserialize)]
struct WireTable {
    white: u64,
    draws: u64,
    black: u64,
    #[serde(default)]
    moves: Vec<WireMove>,
}

#[derive(Deserialize)]
struct WireMove {
    uci: String,
    white: u64,
    draws: u64,
    black: u64,
}

/// One database's JSON answer for `pos`: its counts and moves; a move that is not legal in
/// `pos` is left out, and at most a dozen are kept.
pub fn decode(body: &str, pos: &Chess) -> Result<Table, DecodeError> {
    let wire: WireTable = serde_json::from_str(body).map_err(|e| DecodeError(e.to_string()))?;
    let moves = wire
        .moves
        .iter()
        .filter_map(|w| {
            let uci = UciMove::from_ascii(w.uci.as_bytes()).ok()?;
            let m = uci.to_move(pos).ok()?;
            Some(Played {
                m,
                counts: Counts {
                    white: w.white,
                    draws: w.draws,
                    black: w.black,
                },
            })
        })
        .take(KEPT_MOVES)
        .collect();
    Ok(Table {
        counts: Counts {
            white: wire.white,
            draws: wire.draws,
            black: wire.black,
        },
        moves,
    })
}

/// The position as the explorer is asked for it, and the key of what is kept for it: its
/// FEN (the move counters play no part in the games found).
pub fn fen(pos: &Chess) -> String {
    shakmaty::fen::Epd::from_position(pos, EnPassantMode::Legal).to_string()
}

/// `part` of `total` in whole per cent, rounded; 0 of nothing.
pub fn percent(part: u64, total: u64) -> u64 {
    if total == 0 {
        return 0;
    }
    let (part, total) = (u128::from(part.min(total)), u128::from(total));
    u64::try_from((part * 200 + total) / (total * 2)).unwrap_or(100)
}

/// "Eva vier 41 Prozent, Weiß 38, remis 30, Schwarz 32": a move's share of the position's
/// games and its results.
fn move_words(pos: &Chess, played: &Played, of: u64, lang: &Language, form: Form) -> String {
    let c = played.counts;
    let total = c.total();
    fill(
        &lang.explorer.one_move,
        &[
            ("move", &announce(pos, played.m, lang, form)),
            ("share", &percent(total, of).to_string()),
            ("white", &percent(c.white, total).to_string()),
            ("draws", &percent(c.draws, total).to_string()),
            ("black", &percent(c.black, total).to_string()),
        ],
    )
}

/// One database's line: its games and its few most played moves.
fn table_words(pos: &Chess, db: Database, t: &Table, lang: &Language, form: Form) -> String {
    let w = &lang.explorer;
    let source = match db {
        Database::Masters => &w.masters,
        Database::Lichess => &w.lichess,
    };
    let total = t.counts.total();
    if total == 0 || t.moves.is_empty() {
        return fill(&w.no_games, &[("source", source)]);
    }
    let moves: Vec<String> = t
        .moves
        .iter()
        .filter(|p| pos.is_legal(p.m))
        .take(SAID_MOVES)
        .map(|p| move_words(pos, p, total, lang, form))
        .collect();
    fill(
        &w.games,
        &[
            ("source", source),
            ("games", &total.to_string()),
            ("moves", &moves.join(&w.joiner)),
        ],
    )
}

/// The explorer's answer in words: the masters' line, then lichess's.
pub fn found_words(pos: &Chess, tables: &Tables, lang: &Language, form: Form) -> Vec<String> {
    vec![
        table_words(pos, Database::Masters, &tables.masters, lang, form),
        table_words(pos, Database::Lichess, &tables.lichess, lang, form),
    ]
}

/// When the explorer gives no answer: the shipped opening name of the position, then why
/// (`why` false when the reason was said already, as a minute's wait is said once). Without
/// a token the one sentence that says how to get one, alone: nothing was asked.
pub fn failed_words(
    failure: Failure,
    opening: Option<&Opening>,
    lang: &Language,
    why: bool,
) -> Vec<String> {
    let w = &lang.explorer;
    if failure == Failure::NoToken {
        return vec![w.no_token.clone()];
    }
    let mut out = vec![openings::answer(opening, lang)];
    if why {
        out.push(
            match failure {
                Failure::NoToken => &w.no_token,
                Failure::TokenRefused => &w.token_refused,
                Failure::RateLimited => &w.wait,
                Failure::Unreachable => &w.unreachable,
                Failure::Unreadable => &w.unreadable,
            }
            .clone(),
        );
    }
    out
}

/// What a machine does when the explorer is asked about `pos`: the words to say now, and
/// whether the adapter must ask the explorer.
pub struct Asked {
    pub said: Vec<String>,
    pub fetch: bool,
}

/// The player asked about `pos` at `now`: a kept answer said, the explorer asked, without a
/// token how to get one (nothing asked), or (during a 429's minute) the shipped `opening`
/// and, once, why nothing more.
pub fn asked(
    memory: &mut memory::Memory,
    pos: &Chess,
    opening: Option<&Opening>,
    lang: &Language,
    form: Form,
    now: crate::time::Timestamp,
) -> Asked {
    let w = &lang.explorer;
    let fen = fen(pos);
    if !memory.has_token() && !memory.knows(&fen) {
        return Asked {
            said: failed_words(Failure::NoToken, opening, lang, true),
            fetch: false,
        };
    }
    match memory.ask(&fen, now) {
        memory::Ask::Known(tables) => Asked {
            said: found_words(pos, &tables, lang, form),
            fetch: false,
        },
        memory::Ask::Fetch => Asked {
            said: vec![w.asking.clone()],
            fetch: true,
        },
        memory::Ask::Waiting => Asked {
            said: vec![w.asking.clone()],
            fetch: false,
        },
        memory::Ask::Quiet { tell } => Asked {
            said: failed_words(Failure::RateLimited, opening, lang, tell),
            fetch: false,
        },
    }
}

/// The words of the explorer's reply about `pos` (`why`: a failure's reason is still to be
/// said, [`memory::Memory::answered`]).
pub fn reply_words(
    pos: &Chess,
    reply: &Reply,
    opening: Option<&Opening>,
    lang: &Language,
    form: Form,
    why: bool,
) -> Vec<String> {
    match reply {
        Reply::Found(tables) => found_words(pos, tables, lang, form),
        Reply::Failed(failure) => failed_words(*failure, opening, lang, why),
    }
}
