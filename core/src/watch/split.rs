//! A broadcast round's PGN stream cut into games. lichess sends each game whole (its tags, a
//! blank line, its moves ending with the result), games apart by blank lines, and a lone space
//! every minute to keep the connection: a game ends at its result, at a blank line after its
//! moves, or where the next game's tags begin.

/// The longest game kept; a longer one is dropped and said (as the PGN reader's limit).
pub(crate) const MAX_GAME: usize = crate::pgn::MAX_GAME_BYTES;

/// What the stream gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// One game's whole PGN.
    Game(String),
    /// A game longer than [`MAX_GAME`], dropped.
    TooLong,
}

/// The game being received.
#[derive(Default, Debug)]
pub(crate) struct Splitter {
    text: String,
    in_moves: bool,
    too_long: bool,
    /// Comments opened and not yet closed: a result inside one ends nothing.
    open_comments: usize,
}

fn ends_with_result(line: &str) -> bool {
    line.split_ascii_whitespace()
        .last()
        .is_some_and(|t| matches!(t, "*" | "1-0" | "0-1" | "1/2-1/2" | "½-½"))
}

impl Splitter {
    /// Takes one line of the stream; returns the games it completed.
    pub(crate) fn line(&mut self, line: &str) -> Vec<Piece> {
        let mut done = Vec::new();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            // A keep-alive space, or the blank line between tags and moves or after a game.
            if self.in_moves && self.open_comments == 0 {
                done.extend(self.finish());
            }
            return done;
        }
        if trimmed.starts_with('[') && self.in_moves {
            done.extend(self.finish());
        }
        if !trimmed.starts_with('[') || self.open_comments > 0 {
            self.in_moves = true;
            for c in trimmed.chars() {
                match c {
                    '{' => self.open_comments += 1,
                    '}' => self.open_comments = self.open_comments.saturating_sub(1),
                    _ => {}
                }
            }
        }
        if self.text.len() + line.len() + 1 > MAX_GAME {
            self.too_long = true;
            self.text.clear();
        } else if !self.too_long {
            self.text.push_str(line.trim_end_matches('\r'));
            self.text.push('\n');
        }
        // A line ending with a result outside any comment ends the game.
        if self.in_moves && self.open_comments == 0 && ends_with_result(trimmed) {
            done.extend(self.finish());
        }
        done
    }

    fn finish(&mut self) -> Option<Piece> {
        let text = std::mem::take(&mut self.text);
        self.in_moves = false;
        self.open_comments = 0;
        if std::mem::take(&mut self.too_long) {
            return Some(Piece::TooLong);
        }
        (!text.trim().is_empty()).then_some(Piece::Game(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(lines: &[&str]) -> Vec<Piece> {
        let mut s = Splitter::default();
        lines.iter().flat_map(|l| s.line(l)).collect()
    }

    #[test]
    fn games_end_at_their_result_and_keep_alive_spaces_are_nothing() {
        let got = feed(&[
            "[White \"A\"]",
            "[Black \"B\"]",
            "",
            "1. e4 { [%clk 1:00:00] } e5 *",
            "",
            " ",
            "[White \"C\"]",
            "",
            "1. d4 d5",
            "2. c4 1-0",
        ]);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(
            got[0],
            Piece::Game("[White \"A\"]\n[Black \"B\"]\n1. e4 { [%clk 1:00:00] } e5 *\n".into())
        );
        assert!(matches!(&got[1], Piece::Game(t) if t.contains("2. c4 1-0")));
    }

    #[test]
    fn a_result_inside_a_comment_ends_nothing() {
        let got = feed(&[
            "[White \"A\"]",
            "",
            "1. e4 { they say 1-0",
            "",
            "is near } e5 *",
        ]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            matches!(&got[0], Piece::Game(t) if t.ends_with("e5 *\n")),
            "{got:?}"
        );
    }

    #[test]
    fn a_game_without_its_result_ends_at_a_blank_line_or_the_next_tags() {
        let got = feed(&[
            "[White \"A\"]",
            "",
            "1. e4",
            "[White \"B\"]",
            "",
            "1. d4",
            "",
        ]);
        assert_eq!(got.len(), 2, "{got:?}");
    }
}
