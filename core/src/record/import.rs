//! Continuing a game from a PGN file (`hector play --from FILE.pgn`): the game at the last
//! position of its main line, and the tags the caller needs to go on (names, time control).

use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, fen::Fen};

use super::entry::Entry;
#[cfg(any(test, feature = "testkit"))]
use super::entry::Header;
use crate::check::game_start;
use crate::game::Game;
use crate::legality::{Illegal, resolve_record_san};
use crate::notation::language::{Language, fill};
use crate::outcome::GameResult;
use crate::pgn::{RawGame, Reader, SyntaxError};
#[cfg(any(test, feature = "testkit"))]
use crate::variant::Variant;

/// The tags of an imported game that matter for going on with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportedTags {
    pub event: Option<String>,
    pub site: Option<String>,
    pub date: Option<String>,
    pub round: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The Result tag (or the movetext's end marker); `None` for `*` or none.
    pub result: Option<GameResult>,
    pub(crate) time_control: Option<String>,
}

/// A game read from PGN.
#[derive(Clone, Debug)]
pub struct Imported {
    /// At the last position of the main line. Its outcome is set only where the moves decide
    /// one (mate, stalemate, dead position, fivefold, 75 moves); a resignation or agreement
    /// is in `tags.result`.
    pub game: Game,
    pub tags: ImportedTags,
    /// The line the game starts on.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "where the game starts; only the tests look at it yet"
        )
    )]
    pub(crate) line: usize,
    /// Syntax problems the reader got over (an unclosed comment, a stray bracket …).
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "what the reader got over; only the tests look at it yet"
        )
    )]
    pub(crate) warnings: Vec<SyntaxError>,
}

/// Why a game cannot be imported; each problem in the file names its line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("the file holds no PGN games")]
    NoGames,
    #[error("there is no game {requested}: the file holds {found}")]
    NoSuchGame { requested: usize, found: usize },
    /// Longer than the PGN reader keeps as one game: nothing of it was read.
    #[error("game {game}, line {line}: the game is longer than {} MiB, the most hector reads as one game", crate::pgn::MAX_GAME_BYTES >> 20)]
    TooLarge { game: usize, line: usize },
    #[error("game {game}, line {line}: {message}")]
    BadStart {
        game: usize,
        line: usize,
        message: String,
    },
    #[error("game {game}, line {line}: the move {move_number}{dots} {san} is not legal: {reason}", dots = if *white { "." } else { "..." })]
    IllegalMove {
        game: usize,
        line: usize,
        move_number: u32,
        white: bool,
        san: String,
        reason: String,
        /// The reason and the position before the move, for words in the player's language.
        illegal: Illegal,
        before: Box<Fen>,
    },
}

/// Whether a stretch of the file is a game at all (trailing text is not).
fn is_game(raw: &RawGame<'_>) -> bool {
    !(raw.tags.is_empty()
        && raw.movetext.is_empty()
        && raw.termination.is_none()
        && raw.errors.is_empty())
}

/// Reads game `number` (1 for the first) of a PGN text and plays its main line.
pub fn import_pgn(bytes: &[u8], number: usize) -> Result<Imported, ImportError> {
    let mut found = 0usize;
    for raw in Reader::new(bytes).filter(is_game) {
        found += 1;
        if found == number {
            return import_game(&raw, found);
        }
    }
    if found == 0 {
        Err(ImportError::NoGames)
    } else {
        Err(ImportError::NoSuchGame {
            requested: number,
            found,
        })
    }
}

/// Plays the main line of one game the reader has split off; `number` names it in errors.
pub fn import_game(raw: &RawGame<'_>, number: usize) -> Result<Imported, ImportError> {
    // Its moves were not kept: read as it stands it would be a game of no moves.
    if raw.is_too_large() {
        return Err(ImportError::TooLarge {
            game: number,
            line: raw.line,
        });
    }
    let (start, variant) = game_start(raw).map_err(|e| ImportError::BadStart {
        game: number,
        line: e.line,
        message: e.message,
    })?;
    let mut game = Game::from_position(start, variant);
    for token in raw.mainline() {
        let pos = game.position();
        let illegal = |reason: Illegal, pos: &Chess| ImportError::IllegalMove {
            game: number,
            line: token.line,
            move_number: pos.fullmoves().get(),
            white: pos.turn() == Color::White,
            san: String::from_utf8_lossy(token.item).into_owned(),
            reason: reason.describe(),
            illegal: reason,
            before: Box::new(Fen::from_position(pos, EnPassantMode::Legal)),
        };
        if game.is_over() {
            return Err(illegal(Illegal::GameOver, pos));
        }
        let m = resolve_record_san(pos, token.item).map_err(|r| illegal(r, pos))?;
        let pos = pos.clone();
        game.play(m).map_err(|_| illegal(Illegal::NotAMove, &pos))?;
    }
    let text = |name: &str| {
        raw.tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
            .map(str::to_owned)
    };
    let tags = ImportedTags {
        event: text("Event"),
        site: text("Site"),
        date: text("Date"),
        round: text("Round"),
        white: text("White"),
        black: text("Black"),
        result: raw
            .tag("Result")
            .or(raw.termination)
            .and_then(GameResult::from_pgn),
        time_control: text("TimeControl"),
    };
    Ok(Imported {
        game,
        tags,
        line: raw.line,
        warnings: raw.errors.clone(),
    })
}

impl Imported {
    /// A journal header for going on with this game; fill in what the tags do not say.
    #[cfg(any(test, feature = "testkit"))]
    pub fn header(&self, created: &str) -> Header {
        let mut h = Header::new(
            created,
            self.tags.white.as_deref().unwrap_or(""),
            self.tags.black.as_deref().unwrap_or(""),
        );
        h.event = self.tags.event.clone().unwrap_or_default();
        h.site = self.tags.site.clone().unwrap_or_default();
        h.round = self.tags.round.clone().unwrap_or_default();
        h.variant = self.game.variant();
        h.time_control = self.tags.time_control.clone();
        let start = self.game.start();
        if self.game.variant() == Variant::Chess960 || *start != Chess::default() {
            h.start_fen = Some(Fen::from_position(start, EnPassantMode::Legal).to_string());
        }
        h
    }

    /// The imported moves as journal entries (without clock times), to write after the header.
    pub fn entries(&self) -> Vec<Entry> {
        game_entries(&self.game)
    }
}

/// The record's entries of a game's moves (no clock).
pub fn game_entries(game: &Game) -> Vec<Entry> {
    let mut turn = game.start().turn();
    game.moves()
        .iter()
        .map(|played| {
            let entry = Entry::from_played(played, turn, game.variant(), None);
            turn = !turn;
            entry
        })
        .collect()
}

/// A game that cannot be continued from a PGN file.
pub fn import_error_words(e: &ImportError, lang: &Language) -> String {
    let u = &lang.usage;
    match e {
        ImportError::NoGames => u.import_no_games.clone(),
        ImportError::NoSuchGame { requested, found } => fill(
            &u.import_no_such_game,
            &[
                ("requested", &requested.to_string()),
                ("found", &found.to_string()),
            ],
        ),
        ImportError::TooLarge { game, line } => fill(
            &u.import_too_large,
            &[
                ("game", &game.to_string()),
                ("line", &line.to_string()),
                ("mib", &(crate::pgn::MAX_GAME_BYTES >> 20).to_string()),
            ],
        ),
        ImportError::BadStart {
            game,
            line,
            message,
        } => fill(
            &u.import_bad_start,
            &[
                ("game", &game.to_string()),
                ("line", &line.to_string()),
                ("message", &crate::notation::printable(message)),
            ],
        ),
        ImportError::IllegalMove {
            game,
            line,
            move_number,
            white,
            san,
            reason,
            illegal,
            before,
        } => {
            let dots = if *white { "." } else { "..." };
            // The position is one the game reached, so it sets up again; the English reason
            // is what is left if it somehow does not.
            let reason = match before
                .as_ref()
                .clone()
                .into_position(CastlingMode::Chess960)
            {
                Ok(pos) => crate::notation::parse::illegal_message(illegal, &pos, lang),
                Err(_) => reason.clone(),
            };
            fill(
                &u.import_illegal,
                &[
                    ("game", &game.to_string()),
                    ("line", &line.to_string()),
                    (
                        "move",
                        &format!("{move_number}{dots} {}", crate::notation::printable(san)),
                    ),
                    ("reason", &reason),
                ],
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;

    #[test]
    fn an_illegal_move_in_an_imported_game_is_named_in_words() {
        let pgn = b"[Event \"x\"]\n\n1. e4 e5 2. Bb4 *\n";
        let e = import_pgn(pgn, 1).expect_err("Bb4 is illegal");
        let words = import_error_words(&e, language("de").expect("de"));
        assert!(
            words.starts_with("Partie 1, Zeile 3: der Zug 2. Bb4"),
            "{words}"
        );
        assert!(words.contains("Kein Läufer"), "{words}");
        assert_eq!(
            import_error_words(&ImportError::NoGames, language("en").expect("en")),
            "the file holds no PGN game"
        );
    }
}
