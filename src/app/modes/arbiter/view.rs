//! The arbiter's console on the full screen: one row per game (players, the move, both
//! clocks, whose clock runs, the alerts), the chosen game's boards and event log, what was
//! said last and the command line. A pure function of the state, tested with snapshots.
//!
//! For screen readers and braille displays: no box-drawing characters, headings as words,
//! every state in words (the running clock is named, never only highlighted), the cursor in
//! the command line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Position as CursorPosition};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::services::ui::view::too_small;
use crate::core::notation::{Language, fill};

/// One game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) number: usize,
    /// "Schmidt - Weber".
    pub(crate) players: String,
    /// "12. Sf6", or the result.
    pub(crate) position: String,
    pub(crate) white_clock: String,
    pub(crate) black_clock: String,
    /// Whose clock runs, "Pause", or "beendet".
    pub(crate) running: String,
    /// The alerts in short words, or "keine".
    pub(crate) alerts: String,
}

/// Everything the console shows.
pub(crate) struct ConsoleView<'a> {
    pub(crate) lang: &'a Language,
    pub(crate) rows: &'a [Row],
    /// The chosen game's number.
    pub(crate) selected: Option<usize>,
    /// The chosen game's boards, a line each.
    pub(crate) boards: &'a [String],
    /// The chosen game's event log, oldest first.
    pub(crate) log: &'a [String],
    /// The last things said, oldest first.
    pub(crate) said: &'a [String],
    pub(crate) input: &'a str,
    pub(crate) status: &'a str,
}

const WIDTHS: [usize; 6] = [3, 20, 10, 8, 8, 10];

fn cell(text: &str, width: usize) -> String {
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    let len = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - len));
    out
}

impl ConsoleView<'_> {
    fn row_text(cells: [&str; 7]) -> String {
        let mut line = String::new();
        for (text, width) in cells.iter().zip(WIDTHS) {
            line.push_str(&cell(text, width));
        }
        line.push_str(cells[6]);
        line
    }

    fn table_lines(&self) -> Vec<Line<'static>> {
        let w = &self.lang.arbiter;
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let mut heading = fill(
            &w.console_heading[usize::from(self.rows.len() != 1)],
            &[("count", &self.rows.len().to_string())],
        );
        if let Some(n) = self.selected {
            heading = format!(
                "{heading}, {}",
                fill(&w.console_selected, &[("number", &n.to_string())])
            );
        }
        let mut out = vec![Line::from(Span::styled(heading, bold))];
        out.push(Line::from(Span::styled(
            ConsoleView::row_text([
                &w.column_number,
                &w.column_game,
                &w.column_move,
                self.lang.color(shakmaty::Color::White),
                self.lang.color(shakmaty::Color::Black),
                &w.column_running,
                &w.column_alert,
            ]),
            bold,
        )));
        for r in self.rows {
            let text = ConsoleView::row_text([
                &r.number.to_string(),
                &r.players,
                &r.position,
                &r.white_clock,
                &r.black_clock,
                &r.running,
                &r.alerts,
            ]);
            // The chosen game is marked by a sign too, not by reversed video alone.
            let marked = Some(r.number) == self.selected;
            let style = if marked {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            let sign = if marked { ">" } else { " " };
            out.push(Line::from(Span::styled(format!("{sign}{text}"), style)));
        }
        out
    }

    pub(crate) fn draw(&self, frame: &mut Frame) {
        if too_small(frame, self.lang) {
            return;
        }
        let area = frame.area();
        let w = &self.lang.arbiter;
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let table_height = (self.rows.len() as u16 + 2).min(area.height / 2);
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(table_height),
                Constraint::Length(self.boards.len() as u16 + 1),
                Constraint::Min(3),
                Constraint::Length(3),
                Constraint::Length(1),
                Constraint::Length(1),
            ])
            .split(area);
        frame.render_widget(Paragraph::new(self.table_lines()), rows[0]);
        let boards: Vec<Line> = std::iter::once(Line::from(""))
            .chain(self.boards.iter().map(|b| Line::from(b.clone())))
            .collect();
        frame.render_widget(Paragraph::new(boards).wrap(Wrap { trim: true }), rows[1]);
        let mut log = Vec::new();
        if let Some(n) = self.selected {
            log.push(Line::from(Span::styled(
                fill(&w.log_heading, &[("number", &n.to_string())]),
                bold,
            )));
            let room = rows[2].height.saturating_sub(1) as usize;
            if self.log.is_empty() {
                log.push(Line::from(w.log_empty.clone()));
            }
            log.extend(
                self.log
                    .iter()
                    .skip(self.log.len().saturating_sub(room))
                    .map(|l| Line::from(l.clone())),
            );
        }
        frame.render_widget(Paragraph::new(log), rows[2]);
        let mut said = vec![Line::from(Span::styled(
            self.lang.play.said_heading.clone(),
            bold,
        ))];
        said.extend(
            self.said
                .iter()
                .skip(self.said.len().saturating_sub(2))
                .map(|s| Line::from(s.clone())),
        );
        frame.render_widget(Paragraph::new(said).wrap(Wrap { trim: true }), rows[3]);
        frame.render_widget(Paragraph::new(self.status.to_string()), rows[4]);
        let input = format!("{}{}{}", w.prompt, self.lang.messages.colon, self.input);
        frame.render_widget(Paragraph::new(input.clone()), rows[5]);
        let x = rows[5].x + input.chars().count() as u16;
        frame.set_cursor_position(CursorPosition::new(
            x.min(rows[5].right().saturating_sub(1)),
            rows[5].y,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::language;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(view: &ConsoleView, cols: u16, rows: u16) -> (Vec<String>, (u16, u16)) {
        let mut terminal = Terminal::new(TestBackend::new(cols, rows)).expect("terminal");
        terminal.draw(|f| view.draw(f)).expect("draw");
        let buffer = terminal.backend().buffer().clone();
        let mut lines = Vec::new();
        for y in 0..rows {
            let mut text = String::new();
            for x in 0..cols {
                text.push_str(buffer[(x, y)].symbol());
            }
            lines.push(text.trim_end().to_string());
        }
        let cursor = terminal
            .get_cursor_position()
            .map(|p| (p.x, p.y))
            .unwrap_or_default();
        (lines, cursor)
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                number: 1,
                players: "Schmidt - Weber".into(),
                position: "12. Sf6".into(),
                white_clock: "1:10:05".into(),
                black_clock: "58:30".into(),
                running: "Weiß".into(),
                alerts: "Aufzeichnungen Weiß".into(),
            },
            Row {
                number: 2,
                players: "Braun - Klein".into(),
                position: "1-0".into(),
                white_clock: "12:00".into(),
                black_clock: "0:00".into(),
                running: "beendet".into(),
                alerts: "keine".into(),
            },
        ]
    }

    #[test]
    fn snapshot_of_two_games() {
        let rows = rows();
        let boards = vec![
            "Brett von Schwarz: stimmt".to_string(),
            "Brett von Weiß: Eva sechs statt Eva fünf".to_string(),
        ];
        let log = vec![
            "Zug 12, Schwarz: Springer Felix sechs. Uhr: Weiß 1:10:05, Schwarz 58:30".to_string(),
        ];
        let said = vec!["Partie 1: Achtung, Brett von Weiß".to_string()];
        let view = ConsoleView {
            lang: language("de").expect("de"),
            rows: &rows,
            selected: Some(1),
            boards: &boards,
            log: &log,
            said: &said,
            input: "1 zur",
            status: "Sprachausgabe: print",
        };
        let (lines, cursor) = screen(&view, 80, 24);
        let expected = [
            "Schiedsrichter: 2 Partien, gewählt: Partie 1",
            "Nr Partie              Zug       Weiß    Schwarz Uhr läuft Achtung",
            ">1  Schmidt - Weber     12. Sf6   1:10:05 58:30   Weiß      Aufzeichnungen Weiß",
            " 2  Braun - Klein       1-0       12:00   0:00    beendet   keine",
            "",
            "Brett von Schwarz: stimmt",
            "Brett von Weiß: Eva sechs statt Eva fünf",
            "Protokoll Partie 1",
            "Zug 12, Schwarz: Springer Felix sechs. Uhr: Weiß 1:10:05, Schwarz 58:30",
        ];
        assert_eq!(&lines[..expected.len()], expected, "\n{}", lines.join("\n"));
        assert_eq!(lines[19], "Zuletzt gesagt");
        assert_eq!(lines[20], "Partie 1: Achtung, Brett von Weiß");
        assert_eq!(lines[22], "Sprachausgabe: print");
        assert_eq!(lines[23], "Befehl: 1 zur");
        assert_eq!(cursor, (13, 23));
        let all = lines.join("\n");
        assert!(!all.contains(['─', '│', '┌', '┐', '└', '┘']));
    }

    #[test]
    fn snapshot_in_english_without_a_chosen_game() {
        let rows = rows();
        let view = ConsoleView {
            lang: language("en").expect("en"),
            rows: &rows,
            selected: None,
            boards: &[],
            log: &[],
            said: &[],
            input: "",
            status: "",
        };
        let (lines, _) = screen(&view, 80, 24);
        assert_eq!(lines[0], "Arbiter: 2 games");
        assert_eq!(
            lines[1],
            "No Game                Move      White   Black   Running   Attention"
        );
        assert_eq!(lines[23], "Command:");
    }
}
