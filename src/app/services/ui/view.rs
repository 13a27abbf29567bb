//! The full-screen view of `hector play`: the board, the moves, the clocks, what was said
//! last and the input line. A pure function of the state: drawn again only when it changed.
//!
//! Built for screen readers and braille displays too: no box-drawing characters, headings as
//! plain words, the terminal cursor on the focused square (or in the input line while
//! typing), white pieces in upper case and black in lower case so that nothing depends on
//! colour.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Position as CursorPosition, Rect};
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use shakmaty::{Chess, Color, File, Piece, Position, Rank, Role, Square};

use crate::core::game::Game;
use crate::core::notation::clock_words::ClockFaces;
use crate::core::notation::scoresheet_lines;
use crate::core::notation::{Language, fill, role_index};

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Pieces {
    /// The language's letters: K D T L S B in German, K Q R B N P in English.
    #[default]
    Letters,
    /// Chess figurines (♔ ♕ ♖ ♗ ♘ ♙).
    Figurines,
}

/// The smallest terminal the layout works in.
pub(crate) const MIN_COLS: u16 = 80;
pub(crate) const MIN_ROWS: u16 = 24;

/// Everything the view shows.
pub(crate) struct View<'a> {
    pub(crate) game: &'a Game,
    pub(crate) lang: &'a Language,
    /// The board is drawn from this side.
    pub(crate) local: Color,
    pub(crate) cursor: Square,
    pub(crate) input: &'a str,
    /// Where the caret stands in the input, in characters.
    pub(crate) caret: usize,
    /// The last things said, oldest first.
    pub(crate) said: &'a [String],
    /// Where the latest answer begins in `said`.
    pub(crate) newest: usize,
    /// A question waiting for its answer: it stays at the bottom of the panel until answered.
    pub(crate) question: Option<&'a str>,
    /// White's and Black's remaining time as shown, and whose clock runs.
    pub(crate) clock: Option<ClockFaces>,
    pub(crate) pieces: Pieces,
    /// Square and piece colours besides the letters (never the only sign of anything).
    pub(crate) colors: bool,
    /// A line about the speech output or the engine.
    pub(crate) status: &'a str,
    /// The boards of a two-board game: a heading and one line per board (empty: none).
    pub(crate) boards: &'a [String],
    /// Looking back, and the keys on the board.
    pub(crate) looking: Looking<'a>,
    /// How far the player paged into the newest answer (in wrapped lines), and whether the
    /// cursor rests on it (for a braille display) rather than on the board.
    pub(crate) page: usize,
    pub(crate) reading: bool,
}

/// What the board shows besides the game's position: an earlier position looked back at,
/// a piece picked up, the keys on the board.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Looking<'a> {
    /// The position looked back at, with its heading ("Rückblick: 12. Schwarz").
    pub(crate) review: Option<(&'a Chess, &'a str)>,
    /// The square of the piece picked up: drawn in brackets.
    pub(crate) picked: Option<Square>,
    /// The keys go to the board: the input line's label says so, the cursor stays on the
    /// board.
    pub(crate) on_board: bool,
}

/// A terminal smaller than [`MIN_COLS`] x [`MIN_ROWS`] gets a sentence saying so instead of
/// a view cut to pieces; whether it was.
pub(crate) fn too_small(frame: &mut Frame, lang: &Language) -> bool {
    let area = frame.area();
    if area.width >= MIN_COLS && area.height >= MIN_ROWS {
        return false;
    }
    let text = fill(
        &lang.play.terminal_too_small,
        &[
            ("cols", &area.width.to_string()),
            ("rows", &area.height.to_string()),
        ],
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
    true
}

fn figurine(p: Piece) -> &'static str {
    match (p.color, p.role) {
        (Color::White, Role::King) => "♔",
        (Color::White, Role::Queen) => "♕",
        (Color::White, Role::Rook) => "♖",
        (Color::White, Role::Bishop) => "♗",
        (Color::White, Role::Knight) => "♘",
        (Color::White, Role::Pawn) => "♙",
        (Color::Black, Role::King) => "♚",
        (Color::Black, Role::Queen) => "♛",
        (Color::Black, Role::Rook) => "♜",
        (Color::Black, Role::Bishop) => "♝",
        (Color::Black, Role::Knight) => "♞",
        (Color::Black, Role::Pawn) => "♟",
    }
}

impl View<'_> {
    fn piece_text(&self, p: Piece) -> String {
        match self.pieces {
            Pieces::Figurines => figurine(p).to_string(),
            Pieces::Letters => {
                let letter = &self.lang.pieces.board_letters[role_index(p.role)];
                match p.color {
                    Color::White => letter.to_uppercase(),
                    Color::Black => letter.to_lowercase(),
                }
            }
        }
    }

    fn files(&self) -> Vec<File> {
        match self.local {
            Color::White => File::ALL.to_vec(),
            Color::Black => File::ALL.into_iter().rev().collect(),
        }
    }

    fn ranks(&self) -> Vec<Rank> {
        match self.local {
            Color::White => Rank::ALL.into_iter().rev().collect(),
            Color::Black => Rank::ALL.to_vec(),
        }
    }

    /// Where a square is drawn in the board area (one text row per rank, four columns per file).
    fn square_cell(&self, area: Rect, sq: Square) -> Option<(u16, u16)> {
        let col = self.files().iter().position(|f| *f == sq.file())? as u16;
        let row = self.ranks().iter().position(|r| *r == sq.rank())? as u16;
        Some((area.x + 2 + col * 4 + 1, area.y + 1 + row))
    }

    fn board_lines(&self) -> Vec<Line<'static>> {
        let (position, heading) = match self.looking.review {
            Some((position, heading)) => (position, heading.to_string()),
            None => (
                self.game.position(),
                self.lang.color(self.game.turn()).to_string(),
            ),
        };
        let board = position.board();
        let mut out = vec![Line::from(Span::styled(
            heading,
            Style::default().add_modifier(Modifier::BOLD),
        ))];
        for rank in self.ranks() {
            let mut spans = vec![Span::raw(format!("{} ", rank.char()))];
            for file in self.files() {
                let sq = Square::from_coords(file, rank);
                let text = match board.piece_at(sq) {
                    Some(p) if self.looking.picked == Some(sq) => {
                        format!("[{}] ", self.piece_text(p))
                    }
                    Some(p) => format!(" {}  ", self.piece_text(p)),
                    // Dark squares carry a colon, light ones a dot: the peg board's raised
                    // dark squares, without colour.
                    None if sq.is_dark() => " :  ".to_string(),
                    None => " .  ".to_string(),
                };
                let mut style = Style::default();
                if self.colors {
                    style = style.bg(if sq.is_dark() {
                        Tint::DarkGray
                    } else {
                        Tint::Gray
                    });
                    if let Some(p) = board.piece_at(sq) {
                        style = style.fg(if p.color == Color::White {
                            Tint::White
                        } else {
                            Tint::Black
                        });
                    }
                }
                if sq == self.cursor {
                    style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
                }
                spans.push(Span::styled(text, style));
            }
            out.push(Line::from(spans));
        }
        let files: String = self
            .files()
            .iter()
            .map(|f| format!(" {}  ", f.char()))
            .collect();
        out.push(Line::from(format!("  {files}")));
        out
    }

    fn moves_lines(&self, height: usize) -> Vec<Line<'static>> {
        let sans: Vec<_> = self.game.moves().iter().map(|m| m.san).collect();
        let start = self.game.start();
        let all = scoresheet_lines(
            &sans,
            start.fullmoves().get(),
            start.turn() == Color::White,
            self.lang,
        );
        let mut out = vec![Line::from(Span::styled(
            self.lang.play.moves_heading.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        ))];
        let room = height.saturating_sub(1);
        out.extend(
            all.iter()
                .skip(all.len().saturating_sub(room))
                .map(|l| Line::from(l.clone())),
        );
        out
    }

    fn clock_lines(&self) -> Vec<Line<'static>> {
        let Some(ClockFaces { faces, running }) = &self.clock else {
            return Vec::new();
        };
        let mut out = vec![Line::from(Span::styled(
            self.lang.play.clock_heading.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        ))];
        for color in Color::ALL {
            let time = faces.get(color);
            let mut text = format!("{} {time}", self.lang.color(color));
            let mut style = Style::default();
            if *running == Some(color) {
                text.push(' ');
                text.push_str(&self.lang.clock.running);
                style = style.add_modifier(Modifier::BOLD);
            }
            out.push(Line::from(Span::styled(text, style)));
        }
        out
    }

    pub(crate) fn draw(&self, frame: &mut Frame) {
        if too_small(frame, self.lang) {
            return;
        }
        let area = frame.area();
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(12),
                Constraint::Min(4),
                Constraint::Length(1),
                Constraint::Length(1),
            ])
            .split(area);
        let top = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([
                Constraint::Length(36),
                Constraint::Length(2),
                Constraint::Min(30),
            ])
            .split(rows[0]);
        frame.render_widget(Paragraph::new(self.board_lines()), top[0]);
        self.draw_side(frame, top[2]);
        let newest_row = self.draw_said(frame, rows[1]);
        frame.render_widget(Paragraph::new(self.status.to_string()), rows[2]);
        let prompt = if self.looking.on_board {
            format!(
                "{}{}",
                self.lang.board_focus.board, self.lang.messages.colon
            )
        } else {
            format!("{}{}", self.lang.play.prompt, self.lang.messages.colon)
        };
        let input = format!("{prompt}{}", self.input);
        frame.render_widget(Paragraph::new(input.clone()), rows[3]);
        // The cursor: on the newest answer while the player pages through it; in the input
        // line while typing; else on the focused square. A braille display follows it.
        if self.reading {
            let row = rows[1].y + 1 + newest_row as u16;
            frame.set_cursor_position(CursorPosition::new(
                rows[1].x,
                row.min(rows[1].bottom().saturating_sub(1)),
            ));
        } else if self.input.is_empty() || self.looking.on_board {
            if let Some((x, y)) = self.square_cell(top[0], self.cursor) {
                frame.set_cursor_position(CursorPosition::new(x, y));
            }
        } else {
            let caret = self.caret.min(self.input.chars().count());
            let x = rows[3].x + (prompt.chars().count() + caret) as u16;
            frame.set_cursor_position(CursorPosition::new(
                x.min(rows[3].right().saturating_sub(1)),
                rows[3].y,
            ));
        }
    }

    /// Beside the board: the moves, the boards' states and the clock.
    fn draw_side(&self, frame: &mut Frame, area: Rect) {
        let boards = self.boards.len() as u16;
        let right = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Min(3),
                Constraint::Length(boards),
                Constraint::Length(4),
            ])
            .split(area);
        frame.render_widget(
            Paragraph::new(self.moves_lines(right[0].height as usize)),
            right[0],
        );
        if !self.boards.is_empty() {
            let mut lines = vec![Line::from(Span::styled(
                self.boards[0].clone(),
                Style::default().add_modifier(Modifier::BOLD),
            ))];
            lines.extend(self.boards[1..].iter().map(|l| Line::from(l.clone())));
            frame.render_widget(Paragraph::new(lines), right[1]);
        }
        frame.render_widget(Paragraph::new(self.clock_lines()), right[2]);
    }

    /// The panel of what was said, under its heading: the row of the newest answer in it.
    fn draw_said(&self, frame: &mut Frame, area: Rect) -> usize {
        let mut said = vec![Line::from(Span::styled(
            self.lang.play.said_heading.clone(),
            Style::default().add_modifier(Modifier::BOLD),
        ))];
        let room = area.height.saturating_sub(1) as usize;
        let panel = said_panel(
            &Said {
                said: self.said,
                newest: self.newest,
                question: self.question,
                width: area.width as usize,
                height: room,
            },
            self.page,
            &self.lang.reading.more,
        );
        said.extend(panel.lines.into_iter().map(Line::from));
        frame.render_widget(Paragraph::new(said), area);
        panel.newest_row
    }
}

/// A sentence broken into lines of at most `width` characters, at spaces where it can be.
pub(crate) use crate::core::notation::wrap_words;

/// The "last said" panel: what was said, oldest first (`said`), where the latest answer
/// begins in it (`newest`: one utterance of one or more lines, such as the board), a
/// question that waits for its answer, and the panel's size in characters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Said<'a> {
    pub(crate) said: &'a [String],
    pub(crate) newest: usize,
    pub(crate) question: Option<&'a str>,
    pub(crate) width: usize,
    pub(crate) height: usize,
}

/// The panel's lines and where the shown part of the newest answer begins (the cursor rests
/// there while the player reads it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SaidPanel {
    pub(crate) lines: Vec<String>,
    pub(crate) newest_row: usize,
}

impl Said<'_> {
    /// The question's lines, at the bottom.
    fn question_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .question
            .map(|q| wrap_words(q, self.width))
            .unwrap_or_default();
        lines.truncate(self.height);
        lines
    }

    /// What was said without the question, when it was the last thing said (once or asked
    /// again): it is shown once, below.
    fn without_question(&self) -> &[String] {
        let mut said = self.said;
        while let (Some(last), Some(q)) = (said.last(), self.question)
            && last == q
        {
            said = &said[..said.len() - 1];
        }
        said
    }

    fn wrap(&self, lines: &[String]) -> Vec<String> {
        lines
            .iter()
            .flat_map(|l| wrap_words(l, self.width))
            .collect()
    }

    /// The newest answer, wrapped.
    fn latest(&self) -> Vec<String> {
        let said = self.without_question();
        self.wrap(&said[self.newest.min(said.len())..])
    }

    /// The lines the answer has room for.
    fn room(&self) -> usize {
        self.height - self.question_lines().len()
    }
}

/// The panel from `page` (wrapped lines into the newest answer). The latest answer is shown
/// from there; when more of it follows than the room holds, the last line says how to go on
/// (`more`: "weiter mit Bild ab"). On its first page older lines fill the room above it, the
/// oldest scrolling off first; a question that waits for its answer stays below everything.
pub(crate) fn said_panel(s: &Said<'_>, page: usize, more: &str) -> SaidPanel {
    let question = s.question_lines();
    let room = s.room();
    let latest = s.latest();
    let page = page.min(latest.len());
    let rest = &latest[page..];
    let mut shown: Vec<String> = rest.iter().take(room).cloned().collect();
    if rest.len() > room && room >= 2 {
        shown.truncate(room - 1);
        shown.push(more.to_string());
    }
    let mut lines = Vec::new();
    if page == 0 {
        let said = s.without_question();
        let older = s.wrap(&said[..s.newest.min(said.len())]);
        let above = room - shown.len();
        lines.extend_from_slice(&older[older.len().saturating_sub(above)..]);
    }
    let newest_row = lines.len();
    lines.extend(shown);
    lines.extend(question);
    SaidPanel { lines, newest_row }
}

/// Page Down (`down`) or Page Up from `page`: the new page and what it shows of the newest
/// answer, as it is said (the pieces of one said line joined by a space, lines by a full
/// stop), or `None` at its end (or start).
pub(crate) fn turn_page(s: &Said<'_>, page: usize, down: bool) -> Option<(usize, String)> {
    let room = s.room();
    let said = s.without_question();
    // Each wrapped piece with the said line it belongs to.
    let latest: Vec<(usize, String)> = said[s.newest.min(said.len())..]
        .iter()
        .enumerate()
        .flat_map(|(i, l)| wrap_words(l, s.width).into_iter().map(move |w| (i, w)))
        .collect();
    // Each page shows this many lines of the answer; the last line says there is more.
    let step = room.saturating_sub(1).max(1);
    let next = if down {
        (latest.len().saturating_sub(page) > room).then_some(page + step)?
    } else {
        (page > 0).then(|| page.saturating_sub(step))?
    };
    let rest = &latest[next.min(latest.len())..];
    let count = if rest.len() > room { step } else { rest.len() };
    let mut text = String::new();
    let mut line = None;
    for (i, piece) in &rest[..count] {
        match line {
            None => {}
            Some(l) if l == *i => text.push(' '),
            Some(_) => text.push_str(". "),
        }
        line = Some(*i);
        text.push_str(piece);
    }
    Some((next, text))
}

/// The size of the "last said" panel's text (below its heading) on a terminal of `cols` x
/// `rows`, as [`View::draw`] lays it out.
pub(crate) fn said_area(cols: u16, rows: u16) -> (usize, usize) {
    let height = rows.saturating_sub(12 + 1 + 1).max(4);
    (usize::from(cols), usize::from(height.saturating_sub(1)))
}

/// [`said_panel`]'s lines on the first page.
#[cfg(test)]
fn said_lines(
    said: &[String],
    newest: usize,
    question: Option<&str>,
    width: usize,
    height: usize,
) -> Vec<String> {
    let s = Said {
        said,
        newest,
        question,
        width,
        height,
    };
    said_panel(&s, 0, "").lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::language;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(view: &View, cols: u16, rows: u16) -> (String, (u16, u16)) {
        let mut terminal = Terminal::new(TestBackend::new(cols, rows)).expect("terminal");
        terminal.draw(|f| view.draw(f)).expect("draw");
        let buffer = terminal.backend().buffer().clone();
        let mut text = String::new();
        for y in 0..rows {
            for x in 0..cols {
                text.push_str(buffer[(x, y)].symbol());
            }
            text.push('\n');
        }
        let cursor = terminal
            .get_cursor_position()
            .map(|p| (p.x, p.y))
            .unwrap_or_default();
        (text, cursor)
    }

    /// A view of `g` in `lang` with nothing said, typed or running, White below, on e2.
    fn view<'a>(g: &'a Game, lang: &'static Language) -> View<'a> {
        View {
            game: g,
            lang,
            local: Color::White,
            cursor: Square::E2,
            input: "",
            caret: 0,
            said: &[],
            newest: 0,
            question: None,
            clock: None,
            pieces: Pieces::Letters,
            colors: false,
            status: "",
            boards: &[],
            looking: Looking::default(),
            page: 0,
            reading: false,
        }
    }

    fn game(sans: &str) -> Game {
        let mut g = Game::default();
        for s in sans.split_whitespace().filter(|s| !s.ends_with('.')) {
            g.play_san(s).expect("legal");
        }
        g
    }

    #[test]
    fn looking_back_draws_the_old_position_with_its_heading() {
        let g = game("1. e4 e5 2. Nf3 Nc6");
        let old = g.position_at(1).expect("after e4").clone();
        let view = View {
            cursor: Square::G1,
            looking: Looking {
                review: Some((&old, "Rückblick: 1. Weiß")),
                picked: Some(Square::G1),
                on_board: true,
            },
            ..view(&g, language("de").expect("de"))
        };
        let (text, cursor) = screen(&view, 80, 24);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("Rückblick: 1. Weiß"), "{text}");
        // After 1. e4: no black pawn on e5 yet, the knight on g1 picked up (in brackets).
        assert!(
            lines[4].starts_with("5  :   .   :   .   :   .   :   .  "),
            "{text}"
        );
        assert!(lines[5].starts_with("4  .   :   .   :   B   :"), "{text}");
        assert!(lines[8].contains("[S]"), "{text}");
        // The keys are the board's: the input's label says so and the cursor stays there.
        assert!(text.contains("Brett: "), "{text}");
        assert_eq!(cursor.1, 8, "{text}");
    }

    #[test]
    fn snapshot_of_a_game_in_progress() {
        let g = game("1. e4 e5 2. Nf3 Nc6");
        let said = vec![
            "Springer Felix drei".to_string(),
            "Springer Cäsar sechs".to_string(),
        ];
        let view = View {
            cursor: Square::E4,
            said: &said,
            newest: 1,
            clock: Some(ClockFaces {
                faces: shakmaty::ByColor {
                    white: "1:29:58".into(),
                    black: "1:29:40".into(),
                },
                running: Some(Color::White),
            }),
            status: "Sprachausgabe: print",
            ..view(&g, language("de").expect("de"))
        };
        let (text, cursor) = screen(&view, 80, 24);
        let expected = [
            "Weiß                                  Züge",
            "8  t   :   l   d   k   l   s   t      1. e4 e5",
            "7  b   b   b   b   :   b   b   b      2. Sf3 Sc6",
            "6  .   :   s   :   .   :   .   :",
            "5  :   .   :   .   b   .   :   .",
            "4  .   :   .   :   B   :   .   :",
            "3  :   .   :   .   :   S   :   .",
            "2  B   B   B   B   .   B   B   B",
            "1  T   S   L   D   K   L   :   T      Uhr",
            "   a   b   c   d   e   f   g   h      Weiß 1:29:58 läuft",
            "                                      Schwarz 1:29:40",
            "",
            "Zuletzt gesagt",
            "Springer Felix drei",
            "Springer Cäsar sechs",
        ];
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(&lines[..expected.len()], expected, "\n{text}");
        assert_eq!(lines[22], "Sprachausgabe: print");
        assert_eq!(lines[23], "Zug oder Befehl:");
        // The cursor sits on e4, where a braille display follows it.
        assert_eq!(cursor, (19, 5));
        // No box-drawing characters for a screen reader to read.
        assert!(!text.contains(['─', '│', '┌', '┐', '└', '┘']));
    }

    #[test]
    fn black_sees_the_board_turned_and_typing_moves_the_cursor() {
        let g = Game::default();
        let view = View {
            local: Color::Black,
            cursor: Square::E7,
            input: "knight",
            caret: 6,
            pieces: Pieces::Figurines,
            colors: true,
            ..view(&g, language("en").expect("en"))
        };
        let (text, cursor) = screen(&view, 80, 24);
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(lines[1], "1  ♖   ♘   ♗   ♔   ♕   ♗   ♘   ♖");
        assert_eq!(lines[9], "   h   g   f   e   d   c   b   a");
        assert_eq!(lines[23], "Move or command: knight");
        assert_eq!(cursor, (23, 23));
    }

    #[test]
    fn a_small_terminal_is_told_so() {
        let g = Game::default();
        let view = view(&g, language("en").expect("en"));
        let (text, _) = screen(&view, 60, 20);
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(
            words.join(" "),
            "The window is too small: at least 80 by 24 characters, now 60 by 20"
        );
    }

    /// `brett` then `hilfe`, and then the quit question: the help's first line and the whole
    /// question are on the screen, at 80x24 and at 100x30.
    #[test]
    fn the_newest_answer_and_a_waiting_question_are_always_visible() {
        let lang = language("de").expect("de");
        let g = game("1. e4 e5");
        let board = crate::core::matchplay::queries::board(
            g.position(),
            Color::White,
            lang,
            &Default::default(),
        );
        let mut said: Vec<String> = board.clone();
        let newest = said.len();
        said.push(lang.play.help.clone());
        let help_start: String = lang.play.help.chars().take(30).collect();
        for (cols, rows) in [(80u16, 24u16), (100, 30)] {
            for question in [None, Some(lang.play.quit_confirm.as_str())] {
                let view = View {
                    said: &said,
                    newest,
                    question,
                    status: "Sprachausgabe: print",
                    ..view(&g, lang)
                };
                let (text, _) = screen(&view, cols, rows);
                let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
                let heading = lines
                    .iter()
                    .position(|l| *l == "Zuletzt gesagt")
                    .expect("the panel");
                let panel = &lines[heading + 1..lines.len() - 2];
                assert!(
                    panel.iter().any(|l| l.starts_with(&help_start)),
                    "{cols}x{rows}: the help's first line\n{text}"
                );
                if let Some(q) = question {
                    let shown = panel.join(" ");
                    assert!(
                        shown.trim_end().ends_with(q),
                        "{cols}x{rows}: the question at the bottom\n{text}"
                    );
                }
                // At the larger size the end of the board is still there above the help.
                if rows == 30 && question.is_none() {
                    let last: String = board[board.len() - 1].chars().take(30).collect();
                    assert!(panel.iter().any(|l| l.starts_with(&last)), "{text}");
                }
            }
        }
    }

    #[test]
    fn lines_wrap_at_spaces_and_long_words_are_cut() {
        assert_eq!(wrap_words("eins zwei drei", 9), ["eins zwei", "drei"]);
        assert_eq!(wrap_words("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap_words("", 10), [""]);
        assert_eq!(wrap_words("Läufer", 3), ["Läu", "fer"]);
    }

    #[test]
    fn the_panel_scrolls_older_lines_off_never_the_newest() {
        let said: Vec<String> = ["a1", "a2", "b1 b1 b1", "c1"]
            .iter()
            .map(ToString::to_string)
            .collect();
        // The newest answer is "c1"; three lines of room.
        assert_eq!(said_lines(&said, 3, None, 5, 3), ["b1 b1", "b1", "c1"]);
        // A newest answer taller than the room shows its beginning, and that more follows.
        let s = Said {
            said: &said,
            newest: 2,
            question: None,
            width: 2,
            height: 3,
        };
        assert_eq!(said_panel(&s, 0, "+").lines, ["b1", "b1", "+"]);
        // A question takes the bottom; said last, it is shown once.
        let mut asked = said.clone();
        asked.push("Ja?".into());
        assert_eq!(
            said_lines(&asked, 4, Some("Ja?"), 10, 3),
            ["b1 b1 b1", "c1", "Ja?"]
        );
    }

    /// `brett` at 80x24: the panel shows the answer's beginning with "weiter mit Bild ab";
    /// Page Down shows the rest, and the cursor rests on the page shown, for a braille
    /// display.
    #[test]
    fn a_long_answer_is_read_page_by_page_with_the_cursor_on_it() {
        let lang = language("de").expect("de");
        let g = game("1. e4 e5");
        let board = crate::core::matchplay::queries::board(
            g.position(),
            Color::White,
            lang,
            &Default::default(),
        );
        let said: Vec<String> = board.clone();
        let (width, height) = said_area(80, 24);
        let s = Said {
            said: &said,
            newest: 0,
            question: None,
            width,
            height,
        };
        let first = said_panel(&s, 0, &lang.reading.more);
        assert_eq!(
            first.lines.last().map(String::as_str),
            Some("weiter mit Bild ab")
        );
        assert!(
            first.lines[0].starts_with("Reihe acht"),
            "{:?}",
            first.lines
        );
        // Every line of the answer is reached, in order, and the last page says no more.
        let mut read: Vec<String> = first.lines[..first.lines.len() - 1].to_vec();
        let mut page = 0;
        while let Some((next, spoken)) = turn_page(&s, page, true) {
            assert!(next > page);
            let shown = said_panel(&s, next, &lang.reading.more).lines;
            let shown: Vec<String> = shown
                .into_iter()
                .filter(|l| *l != lang.reading.more)
                .collect();
            // What is said is what the page shows, with each rank a sentence of its own.
            assert_eq!(spoken.replace(". Reihe", " Reihe"), shown.join(" "));
            page = next;
            read.extend(shown);
        }
        let all: Vec<String> = said.iter().flat_map(|l| wrap_words(l, width)).collect();
        assert_eq!(read, all);
        let last = said_panel(&s, page, &lang.reading.more);
        assert!(!last.lines.contains(&lang.reading.more), "{:?}", last.lines);
        assert!(last.lines.iter().any(|l| l.starts_with("Reihe eins")));
        // Back to the beginning, and no further.
        let mut back = page;
        while let Some((previous, _)) = turn_page(&s, back, false) {
            back = previous;
        }
        assert_eq!(back, 0);
        // On the screen: the cursor on the page's first line.
        let view = View {
            said: &said,
            newest: 0,
            page,
            reading: true,
            ..view(&g, lang)
        };
        let (text, cursor) = screen(&view, 80, 24);
        let row: Vec<&str> = text.lines().collect();
        assert_eq!(cursor.0, 0, "{text}");
        assert_eq!(
            row[usize::from(cursor.1)].trim_end(),
            last.lines[0],
            "{text}"
        );
    }
}
