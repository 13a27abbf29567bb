//! Sound cues: which short sound an event of the game gets. A cue is heard before the words
//! it goes with, so that a player knows a capture or a check before the sentence says it.
//! Which cue is pure logic (from the move and the position it was played in); playing it is
//! the speech adapter's.

use std::time::Duration;

use shakmaty::san::{San, SanPlus};
use shakmaty::{ByColor, Color};

/// The events that have a sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// A quiet move.
    Move,
    Capture,
    Castle,
    Promotion,
    /// Said after the move's own cue: the move gives check.
    Check,
    /// A typed or dictated move that was refused.
    Illegal,
    /// The game has ended (mate, a draw, a resignation, a flag).
    End,
    /// A side's clock fell under the player's threshold.
    LowClock,
    /// The cursor on the full screen tried to leave the board.
    Edge,
}

impl Cue {
    /// Every cue, in a fixed order (the sound files' list).
    pub const ALL: [Cue; 9] = [
        Cue::Move,
        Cue::Capture,
        Cue::Castle,
        Cue::Promotion,
        Cue::Check,
        Cue::Illegal,
        Cue::End,
        Cue::LowClock,
        Cue::Edge,
    ];

    /// The name of its sound file, without the extension (`capture` for `capture.wav`).
    pub fn name(self) -> &'static str {
        match self {
            Cue::Move => "move",
            Cue::Capture => "capture",
            Cue::Castle => "castle",
            Cue::Promotion => "promotion",
            Cue::Check => "check",
            Cue::Illegal => "illegal",
            Cue::End => "end",
            Cue::LowClock => "low-clock",
            Cue::Edge => "edge",
        }
    }

    /// The cue named `name` (as in `--cues-only-for`), in its singular or plural.
    pub fn named(name: &str) -> Option<Cue> {
        let name = name.trim().to_ascii_lowercase();
        let singular = name.strip_suffix('s').unwrap_or(&name);
        Cue::ALL
            .into_iter()
            .find(|c| c.name() == name || c.name() == singular)
    }
}

/// The cues of a move, from its SAN with its suffix: its kind (a promotion before a castle
/// before a capture before a quiet move; a promotion that captures is a promotion), then a
/// check when it gives one (mate too: the game's end follows with its own cue).
pub fn for_move(played: &SanPlus) -> Vec<Cue> {
    let kind = match played.san {
        San::Normal {
            promotion: Some(_), ..
        } => Cue::Promotion,
        San::Castle(_) => Cue::Castle,
        San::Normal { capture: true, .. } => Cue::Capture,
        _ => Cue::Move,
    };
    let mut cues = vec![kind];
    if played.suffix.is_some() {
        cues.push(Cue::Check);
    }
    cues
}

/// Which of the words a cue can stand for are left out, because the cue says them
/// (`--cues-only-for captures,check`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CuesOnly {
    /// "schlägt" and its like: the capture cue says it.
    pub captures: bool,
    /// "Schach" after a move: the check cue says it (mate is always said).
    pub check: bool,
}

impl CuesOnly {
    /// Reads a comma-separated list ("captures,check"); the name that is neither is returned.
    pub fn parse(list: &str) -> Result<CuesOnly, String> {
        let mut only = CuesOnly::default();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match Cue::named(item) {
                Some(Cue::Capture) => only.captures = true,
                Some(Cue::Check) => only.check = true,
                _ => return Err(item.to_string()),
            }
        }
        Ok(only)
    }
}

/// Watches the clocks for the low-clock cue: each side's once, when its time first falls
/// under the threshold (a time that starts under it is no news).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowClock {
    threshold: Duration,
    /// Whether the side's time was seen at or above the threshold, and whether it was cued.
    above: ByColor<bool>,
    cued: ByColor<bool>,
}

impl LowClock {
    pub fn new(threshold: Duration) -> LowClock {
        LowClock {
            threshold,
            above: ByColor::new_with(|_| false),
            cued: ByColor::new_with(|_| false),
        }
    }

    pub fn threshold(&self) -> Duration {
        self.threshold
    }

    /// Whether `side`'s cue may still come: its time was seen above the threshold and it
    /// has not been cued.
    pub fn pending(&self, side: Color) -> bool {
        *self.above.get(side) && !*self.cued.get(side)
    }

    /// Looks at `side`'s remaining time: true exactly once, when it falls under the
    /// threshold after having been at or above it.
    pub fn fell_under(&mut self, side: Color, remaining: Duration) -> bool {
        if self.threshold.is_zero() || *self.cued.get(side) {
            return false;
        }
        if remaining >= self.threshold {
            *self.above.get_mut(side) = true;
            return false;
        }
        if *self.above.get(side) {
            *self.cued.get_mut(side) = true;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    fn cues(fen: &str, san: &str) -> Vec<Cue> {
        let p = position(fen);
        let m = san.parse::<San>().expect("san").to_move(&p).expect("legal");
        for_move(&SanPlus::from_move(p, m))
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn each_kind_of_move_has_its_cue() {
        assert_eq!(cues(START, "e4"), [Cue::Move]);
        assert_eq!(
            cues("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5"),
            [Cue::Capture]
        );
        assert_eq!(cues("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "O-O"), [Cue::Castle]);
        assert_eq!(
            cues("7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=N"),
            [Cue::Promotion]
        );
    }

    #[test]
    fn a_check_follows_the_moves_own_cue() {
        // Bxf7+: a capture that checks.
        assert_eq!(
            cues(
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 4",
                "Bxf7+"
            ),
            [Cue::Capture, Cue::Check]
        );
        // A promotion that captures and checks is a promotion, then a check.
        assert_eq!(
            cues("1n5k/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=Q+"),
            [Cue::Promotion, Cue::Check]
        );
        // Castling that checks (the rook gives it).
        assert_eq!(
            cues("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "O-O+"),
            [Cue::Castle, Cue::Check]
        );
        // En passant is a capture.
        let p = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let ep = "exd6"
            .parse::<San>()
            .expect("san")
            .to_move(&p)
            .expect("legal");
        assert!(p.ep_square(EnPassantMode::Legal).is_some());
        assert_eq!(for_move(&SanPlus::from_move(p, ep)), [Cue::Capture]);
    }

    #[test]
    fn the_low_clock_cue_comes_once_per_side_when_the_time_falls_under() {
        let mut w = LowClock::new(Duration::from_secs(30));
        assert!(!w.fell_under(Color::White, Duration::from_secs(31)));
        assert!(!w.fell_under(Color::White, Duration::from_secs(30)));
        assert!(w.fell_under(Color::White, Duration::from_secs(29)));
        // Once only, even when it goes up again (an increment) and falls again.
        assert!(!w.fell_under(Color::White, Duration::from_secs(28)));
        assert!(!w.fell_under(Color::White, Duration::from_secs(40)));
        assert!(!w.fell_under(Color::White, Duration::from_secs(10)));
        // Black's is its own.
        assert!(!w.fell_under(Color::Black, Duration::from_secs(60)));
        assert!(w.fell_under(Color::Black, Duration::from_secs(5)));
        // A game that starts under the threshold (a blitz of 20 seconds) is no news.
        let mut short = LowClock::new(Duration::from_secs(30));
        assert!(!short.fell_under(Color::White, Duration::from_secs(20)));
        assert!(!short.fell_under(Color::White, Duration::from_secs(10)));
        // A threshold of zero never cues.
        let mut off = LowClock::new(Duration::ZERO);
        assert!(!off.fell_under(Color::White, Duration::from_secs(100)));
        assert!(!off.fell_under(Color::White, Duration::ZERO));
    }

    #[test]
    fn cues_are_named_by_their_files_and_in_the_plural() {
        for c in Cue::ALL {
            assert_eq!(Cue::named(c.name()), Some(c));
        }
        assert_eq!(Cue::named("Captures"), Some(Cue::Capture));
        assert_eq!(
            CuesOnly::parse("captures, check"),
            Ok(CuesOnly {
                captures: true,
                check: true
            })
        );
        assert_eq!(CuesOnly::parse(""), Ok(CuesOnly::default()));
        assert_eq!(CuesOnly::parse("captures,moves"), Err("moves".into()));
    }
}
