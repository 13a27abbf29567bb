//! The envelope of an adjourned game (Appendix E2): the players, the position before the
//! sealed move, the time each has used (and has left), who sealed which move number, a draw
//! offer still standing, and when and where the game resumes; and the sealed move itself.
//! Written as a small TOML file; the arbiter keeps it (E3) and hector opens it (E9).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, san::SanPlus};

use crate::clock::Clock;
use crate::game::Game;
use crate::time::Timestamp;

/// What the envelope says (E2), and the sealed move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope {
    /// E2a.
    pub white: String,
    pub black: String,
    #[serde(default)]
    pub event: String,
    /// E2b: the position immediately before the sealed move (FEN).
    pub(crate) position: String,
    /// E2c: the time each player has used (h:mm:ss), and what each has left (E5, E13).
    #[serde(default)]
    pub(crate) white_used: String,
    #[serde(default)]
    pub(crate) black_used: String,
    #[serde(default)]
    pub(crate) white_left: String,
    #[serde(default)]
    pub(crate) black_left: String,
    /// E2d: "white" or "black".
    pub(crate) sealed_by: String,
    /// E2e.
    pub(crate) move_number: u32,
    /// E2f: the colour whose draw offer still stands, if any.
    #[serde(default)]
    pub(crate) draw_offer: Option<String>,
    /// E2g: date, time and place of resumption, as the arbiter gave them.
    #[serde(default)]
    pub(crate) resumption: String,
    /// The sealed move (UCI), and as written (SAN).
    pub(crate) sealed_move: String,
    pub(crate) sealed_san: String,
    /// The journal of the game, to continue it.
    #[serde(default)]
    pub journal: String,
    /// When it was sealed (UTC).
    #[serde(default)]
    pub sealed_at: String,
}

/// Why an envelope cannot be opened for a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnvelopeError {
    #[error("the envelope cannot be read: {0}")]
    Unreadable(String),
    #[error("the envelope's position is not the game's position before the sealed move")]
    OtherPosition,
    #[error("the envelope names {0:?} as the one who sealed; it must be \"white\" or \"black\"")]
    BadColor(String),
    #[error("the sealed move {0} is not a legal move in the envelope's position (E8)")]
    BadMove(String),
}

fn color_name(c: Color) -> &'static str {
    c.fold_wb("white", "black")
}

fn color_of(name: &str) -> Result<Color, EnvelopeError> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(EnvelopeError::BadColor(other.to_string())),
    }
}

fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn face(d: Duration) -> String {
    // The envelope always has hours, as the scoresheet's clock entries do.
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl Envelope {
    /// The envelope for `sealed`, the move the player to move in `game` seals now. Names,
    /// event, resumption, journal and instant are the caller's to fill in.
    pub(crate) fn seal(
        game: &Game,
        clock: Option<&Clock>,
        sealed: Move,
        now: Timestamp,
    ) -> Envelope {
        let pos = game.position();
        let by = pos.turn();
        let times = |f: fn(&Clock, Color, Timestamp) -> Duration, c: Color| {
            clock.map(|k| face(f(k, c, now))).unwrap_or_default()
        };
        Envelope {
            white: String::new(),
            black: String::new(),
            event: String::new(),
            position: fen(pos),
            white_used: times(Clock::used, Color::White),
            black_used: times(Clock::used, Color::Black),
            white_left: times(Clock::remaining, Color::White),
            black_left: times(Clock::remaining, Color::Black),
            sealed_by: color_name(by).to_string(),
            move_number: game.fullmove_number(),
            draw_offer: game.pending_draw_offer().map(|c| color_name(c).to_string()),
            resumption: String::new(),
            sealed_move: UciMove::from_move(sealed, game.variant().castling_mode()).to_string(),
            sealed_san: SanPlus::from_move(pos.clone(), sealed).to_string(),
            journal: String::new(),
            sealed_at: String::new(),
        }
    }

    pub fn to_toml(&self) -> String {
        // Plain strings and numbers only: serialising cannot fail.
        toml::to_string(self).unwrap_or_default()
    }

    pub fn from_toml(text: &str) -> Result<Envelope, EnvelopeError> {
        toml::from_str(text).map_err(|e| EnvelopeError::Unreadable(e.message().to_string()))
    }

    /// E9: the sealed move, checked against the game it resumes (E5: the position before
    /// the sealed move, the sealer to move).
    pub fn open(&self, game: &Game) -> Result<Move, EnvelopeError> {
        let by = color_of(&self.sealed_by)?;
        let pos = game.position();
        if fen(pos) != self.position || pos.turn() != by {
            return Err(EnvelopeError::OtherPosition);
        }
        let mode: CastlingMode = game.variant().castling_mode();
        self.sealed_move
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .ok_or_else(|| EnvelopeError::BadMove(self.sealed_move.clone()))
            .and_then(|m| {
                // The UCI form decides; it must read back as the same move.
                if UciMove::from_move(m, mode).to_string() == self.sealed_move {
                    Ok(m)
                } else {
                    Err(EnvelopeError::BadMove(self.sealed_move.clone()))
                }
            })
    }

    /// The times of E5 to set the clocks to: what each player had left.
    #[cfg(test)]
    pub(crate) fn times_left(&self) -> Option<shakmaty::ByColor<Duration>> {
        Some(shakmaty::ByColor {
            white: parse_face(&self.white_left)?,
            black: parse_face(&self.black_left)?,
        })
    }
}

/// "1:05:09" or "5:09" to a duration.
#[cfg(test)]
fn parse_face(text: &str) -> Option<Duration> {
    let mut secs: u64 = 0;
    let parts: Vec<&str> = text.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for p in parts {
        let n: u64 = p.trim().parse().ok()?;
        secs = secs.checked_mul(60)?.checked_add(n)?;
    }
    Some(Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;

    #[test]
    fn sealed_opened_and_refused() {
        let mut game = Game::default();
        for san in ["e4", "e5", "Nf3"] {
            game.play_san(san).expect(san);
        }
        let tc: TimeControl = "40/5400+30".parse().expect("tc");
        let mut clock = Clock::new(tc);
        let t = Timestamp::from_millis;
        clock.start_with(Color::Black, t(0)).expect("start");
        let nc6 = shakmaty::san::San::from_ascii(b"Nc6")
            .expect("san")
            .to_move(game.position())
            .expect("legal");
        let mut env = Envelope::seal(&game, Some(&clock), nc6, t(65_000));
        env.white = "Anna".into();
        env.resumption = "Sonntag 10 Uhr, Saal 2".into();
        assert_eq!(env.sealed_by, "black");
        assert_eq!(env.move_number, 2);
        assert_eq!(env.black_used, "0:01:05");
        assert_eq!(env.black_left, "1:28:55");
        assert_eq!(env.sealed_san, "Nc6");
        let text = env.to_toml();
        let back = Envelope::from_toml(&text).expect("reads");
        assert_eq!(back, env);
        assert_eq!(back.open(&game), Ok(nc6));
        assert_eq!(
            back.times_left(),
            Some(shakmaty::ByColor {
                white: Duration::from_secs(5400),
                black: Duration::from_secs(5335)
            })
        );
        // Another position: refused.
        let mut other = game.clone();
        other.play(nc6).expect("play");
        assert_eq!(back.open(&other), Err(EnvelopeError::OtherPosition));
        // A move that is not legal there: refused (E8).
        let mut bad = back.clone();
        bad.sealed_move = "e2e4".into();
        assert!(matches!(bad.open(&game), Err(EnvelopeError::BadMove(_))));
        assert!(Envelope::from_toml("white = 3").is_err());
        assert_eq!(parse_face("x"), None);
    }
}
