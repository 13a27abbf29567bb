//! The players' own agreements in `hector play`, outside the Laws: taking moves back (against
//! the computer at once, against a person when the opponent agrees), aborting a game before
//! both sides have moved, and a rematch with the colours swapped. The assistant, the arbiter
//! and the online game do not offer them (their take-back is the arbiter's, D2.8, or the
//! server's).
//!
//! A take-back is recorded as the arbiter's is (one `TakenBack` per half-move, so it replays
//! the same way), followed by `TakebackAgreed` and a clock checkpoint. The times stay as they
//! are: the time each player used on the moves taken back is gone; the player who asked has
//! the move and the clock. A standing draw offer stays standing (a move declines it, 9.1b1,
//! and no move was made).

use shakmaty::Color;

use super::{BoardOf, Effect, Match, Pending, Recorded, Side, answer};
use crate::matchplay::queries;
use crate::notation::language::fill;
use crate::notation::speak::announce_san;
use crate::time::Timestamp;

/// What `hector play` offers besides the Laws (all off in the other modes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayExtras {
    /// `zurücknehmen` is allowed (off with --no-takeback).
    pub takeback: bool,
    /// The players' agreements (take-back, `abbrechen`, `revanche`) are offered.
    pub agreements: bool,
    /// Every capture names the piece taken (--say-captured).
    pub say_captured: bool,
}

impl Match {
    /// Sets what this mode offers besides the Laws ([`PlayExtras`]).
    pub fn set_extras(&mut self, extras: PlayExtras) {
        self.extras = extras;
    }

    pub fn extras(&self) -> PlayExtras {
        self.extras
    }

    /// `zurücknehmen`: against the computer at once, else the opponent is asked.
    pub(super) fn takeback_request(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let w = &lang.takeback;
        if !self.extras.agreements {
            out.push(answer(w.not_here.clone()));
            return;
        }
        if !self.extras.takeback {
            out.push(answer(w.off.clone()));
            return;
        }
        if self.game.is_over() {
            out.push(answer(lang.messages.game_over.clone()));
            return;
        }
        if self.adjourned.is_some() {
            out.push(answer(lang.arbiter.adjourned_wait.clone()));
            return;
        }
        let by = self.actor(false);
        if self.game.plies_to_take_back(by).is_none() {
            out.push(answer(fill(&w.nothing, &[("color", lang.color(by))])));
            return;
        }
        match self.setup.side(!by) {
            Side::Engine => self.take_back_agreed(by, now, out),
            Side::Keyboard | Side::Board => {
                self.pending = Pending::Takeback(by);
                out.push(answer(self.takeback_question(by)));
            }
        }
    }

    pub(super) fn takeback_question(&self, by: Color) -> String {
        fill(
            &self.lang.takeback.ask,
            &[
                ("color", self.lang.color(by)),
                ("opponent", self.lang.color(!by)),
            ],
        )
    }

    /// The opponent refused.
    pub(super) fn takeback_declined(&mut self, by: Color, out: &mut Vec<Effect>) {
        let decliner = !by;
        out.push(Effect::Record(Recorded::TakebackDeclined { by: decliner }));
        out.push(answer(fill(
            &self.lang.takeback.declined,
            &[("color", self.lang.color(decliner))],
        )));
    }

    /// Takes back `by`'s last move and any reply to it; `by` is to move again.
    pub(super) fn take_back_agreed(&mut self, by: Color, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let Some(plies) = self.game.plies_to_take_back(by) else {
            out.push(answer(fill(
                &lang.takeback.nothing,
                &[("color", lang.color(by))],
            )));
            return;
        };
        let mut said = Vec::new();
        if self.setup.side(self.game.turn()) == Side::Engine {
            out.push(Effect::EngineStop);
            said.push(lang.takeback.engine_stopped.clone());
        }
        let mut taken = Vec::new();
        for _ in 0..plies {
            let ply = self.game.ply();
            let Some(mover) = self
                .game
                .position_at(ply.saturating_sub(1))
                .map(shakmaty::Position::turn)
            else {
                break;
            };
            let Some(t) = self.game.take_back() else {
                break;
            };
            // The clock counts the moves the game holds (the periods follow from them).
            if let Some(c) = self.clock.as_mut() {
                let n = c.moves_completed(mover).saturating_sub(1);
                c.set_moves(mover, n, now);
            }
            out.push(Effect::Record(Recorded::TakenBack(t.mv)));
            taken.push(announce_san(t.san, t.mv, lang, self.setup.form));
        }
        self.watched.clear();
        self.board_behind = None;
        let turn = self.game.turn();
        if let Some(c) = self.clock.as_mut() {
            let on_move = match c.state() {
                crate::clock::ClockState::Running(color)
                | crate::clock::ClockState::Paused(color) => Some(color),
                _ => None,
            };
            if on_move.is_some_and(|color| color != turn) {
                let _ = c.give_move(turn, now);
            }
        }
        out.push(Effect::Record(Recorded::TakebackAgreed { by }));
        taken.reverse();
        said.push(fill(
            &lang.takeback.done,
            &[
                ("moves", &taken.join(", ")),
                ("turn", &queries::turn(self.game.position(), lang)),
            ],
        ));
        out.push(answer(said.join(". ")));
        // The boards go back too.
        let position = Box::new(self.game.position().clone());
        if self.setup.local_board {
            out.push(Effect::BoardExpect {
                board: BoardOf::Player,
                position: position.clone(),
                previous: None,
            });
        }
        if self.setup.side(!self.setup.local) == Side::Board {
            out.push(Effect::BoardExpect {
                board: BoardOf::Opponent,
                position,
                previous: None,
            });
        }
        if self.setup.side(turn) == Side::Engine {
            out.push(Effect::EngineThink);
        }
    }

    /// `abbrechen`: only before both sides have moved; the game ends without a result.
    pub(super) fn abort(&mut self, now: Timestamp, out: &mut Vec<Effect>) {
        let lang = self.lang;
        if !self.extras.agreements {
            out.push(answer(lang.takeback.not_here.clone()));
            return;
        }
        if self.game.is_over() {
            out.push(answer(lang.messages.game_over.clone()));
            return;
        }
        let by = self.actor(true);
        match self.game.abort() {
            Ok(()) => {
                self.adjourned = None;
                if let Some(c) = self.clock.as_mut() {
                    c.stop(now);
                }
                out.push(Effect::Record(Recorded::Aborted { by }));
                out.push(Effect::EngineStop);
                out.push(answer(lang.takeback.aborted.clone()));
            }
            Err(_) => out.push(answer(lang.takeback.abort_too_late.clone())),
        }
    }

    /// `revanche`: after the game, a new one with the colours swapped.
    pub(super) fn rematch(&mut self, out: &mut Vec<Effect>) {
        let lang = self.lang;
        if !self.extras.agreements {
            out.push(answer(lang.takeback.not_here.clone()));
        } else if !self.game.is_over() {
            out.push(answer(lang.takeback.rematch_not_over.clone()));
        } else {
            out.push(Effect::EngineStop);
            out.push(Effect::Rematch);
        }
    }
}

impl super::Setup {
    /// The same game with the colours swapped: who played White plays Black.
    pub fn swapped(&self) -> super::Setup {
        super::Setup {
            white: self.black,
            black: self.white,
            local: !self.local,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use shakmaty::{Color, Position};

    use super::super::*;
    use crate::notation::language::language;

    fn setup(white: Side, black: Side, clock: bool) -> Setup {
        Setup {
            control: clock.then(|| "300".parse().expect("control")),
            ..super::super::tests::setup(white, black)
        }
    }

    const PLAY: PlayExtras = PlayExtras {
        takeback: true,
        agreements: true,
        say_captured: false,
    };

    fn start(s: Setup, extras: PlayExtras) -> Match {
        let (mut m, _) = Match::new(s, Game::default(), language("de").expect("de"), t(0));
        m.set_extras(extras);
        m
    }

    use crate::testkit::t;

    use super::super::tests::said;

    fn line(m: &mut Match, text: &str, ms: u64) -> Vec<Effect> {
        m.handle(Event::Line(text.to_string()), t(ms))
    }

    fn taken_back(e: &[Effect]) -> usize {
        e.iter()
            .filter(|x| matches!(x, Effect::Record(Recorded::TakenBack(_))))
            .count()
    }

    #[test]
    fn at_one_keyboard_the_opponent_is_asked() {
        let mut m = start(setup(Side::Keyboard, Side::Keyboard, false), PLAY);
        line(&mut m, "e4", 10);
        line(&mut m, "e5", 20);
        // Black just moved: Black asks, White answers.
        let e = line(&mut m, "zurücknehmen", 30);
        assert_eq!(
            said(&e),
            ["Schwarz möchte den letzten Zug zurücknehmen. Weiß, einverstanden? Ja oder nein"]
        );
        assert!(m.asks_confirmation());
        // Enter asks again.
        assert_eq!(said(&line(&mut m, "", 35)).len(), 1);
        let e = line(&mut m, "nein", 40);
        assert_eq!(
            said(&e),
            ["Weiß lehnt die Rücknahme ab. Die Partie geht weiter"]
        );
        assert!(e.contains(&Effect::Record(Recorded::TakebackDeclined {
            by: Color::White
        })));
        assert_eq!(m.game().ply(), 2);
        line(&mut m, "takeback", 50);
        let e = line(&mut m, "ja", 60);
        assert_eq!(taken_back(&e), 1);
        assert!(e.contains(&Effect::Record(Recorded::TakebackAgreed {
            by: Color::Black
        })));
        assert_eq!(said(&e), ["Zurückgenommen: Eva fünf. Schwarz ist am Zug"]);
        assert_eq!(m.game().ply(), 1);
        // A move lets the question lapse.
        line(&mut m, "d5", 70);
        line(&mut m, "zurücknehmen", 80);
        line(&mut m, "d4", 90);
        assert!(!m.asks_confirmation());
        assert_eq!(m.game().ply(), 3);
    }

    #[test]
    fn against_the_computer_at_once_and_its_thinking_is_stopped() {
        let mut m = start(setup(Side::Keyboard, Side::Engine, true), PLAY);
        line(&mut m, "e4", 1_000);
        let reply = m.game().legal_moves()[0];
        m.handle(Event::EngineMove(reply), t(3_000));
        // The player's move and the computer's reply.
        let e = line(&mut m, "zurücknehmen", 4_000);
        assert_eq!(taken_back(&e), 2);
        assert_eq!(m.game().ply(), 0);
        assert!(
            said(&e)[0].starts_with("Zurückgenommen: Eva vier, "),
            "{e:?}"
        );
        // The times stay as they are; White has the move and the clock.
        let clock = m.clock().expect("clock");
        assert_eq!(clock.running(), Some(Color::White));
        assert_eq!(clock.moves_completed(Color::White), 0);
        assert_eq!(clock.moves_completed(Color::Black), 0);
        assert_eq!(
            clock.remaining(Color::White, t(4_000)),
            // One second before e4 and one since the reply.
            Duration::from_secs(298)
        );
        // While it thinks: stopped, and only the player's move goes.
        line(&mut m, "d4", 5_000);
        let e = line(&mut m, "zurücknehmen", 6_000);
        assert!(e.contains(&Effect::EngineStop));
        assert_eq!(taken_back(&e), 1);
        assert_eq!(
            said(&e),
            ["Der Computer hört auf zu rechnen. Zurückgenommen: David vier. Weiß ist am Zug"]
        );
        assert_eq!(m.clock().expect("clock").running(), Some(Color::White));
        // A late answer of the stopped search is not played.
        m.handle(Event::EngineMove(reply), t(6_500));
        assert_eq!(m.game().ply(), 0);
        // Nothing to take back.
        assert_eq!(
            said(&line(&mut m, "zurücknehmen", 7_000)),
            ["Weiß hat noch keinen Zug, der zurückgenommen werden kann"]
        );
    }

    #[test]
    fn switched_off_or_not_offered() {
        let off = PlayExtras {
            takeback: false,
            ..PLAY
        };
        let mut m = start(setup(Side::Keyboard, Side::Engine, false), off);
        line(&mut m, "e4", 10);
        assert_eq!(
            said(&line(&mut m, "zurücknehmen", 20)),
            ["Zurücknehmen ist in dieser Partie ausgeschaltet"]
        );
        let mut m = start(
            setup(Side::Keyboard, Side::Keyboard, false),
            PlayExtras::default(),
        );
        line(&mut m, "e4", 10);
        for word in ["zurücknehmen", "abbrechen", "revanche"] {
            assert_eq!(said(&line(&mut m, word, 20)), ["Das gibt es hier nicht"]);
        }
        assert_eq!(m.game().ply(), 1);
    }

    #[test]
    fn abort_only_before_both_sides_moved() {
        let mut m = start(setup(Side::Keyboard, Side::Keyboard, true), PLAY);
        line(&mut m, "e4", 10);
        let e = line(&mut m, "abbrechen", 20);
        assert!(e.contains(&Effect::Record(Recorded::Aborted { by: Color::Black })));
        assert_eq!(
            said(&e),
            ["Die Partie ist abgebrochen, ohne Ergebnis. Eine neue mit: neu oder revanche"]
        );
        assert!(m.game().is_over());
        assert_eq!(m.game().outcome(), None);
        assert_eq!(said(&line(&mut m, "e5", 30)), ["Die Partie ist beendet"]);
        // A rematch after it: the colours swapped.
        let e = line(&mut m, "revanche", 40);
        assert!(e.contains(&Effect::Rematch));
        let swapped = m.setup().swapped();
        assert_eq!(swapped.local, Color::Black);

        let mut m = start(setup(Side::Keyboard, Side::Engine, false), PLAY);
        line(&mut m, "e4", 10);
        let reply = m.game().legal_moves()[0];
        m.handle(Event::EngineMove(reply), t(20));
        assert_eq!(
            said(&line(&mut m, "abort", 30)),
            [
                "Abbrechen geht nur, bevor beide Seiten gezogen haben. Beenden mit: aufgeben oder remis"
            ]
        );
        assert_eq!(
            said(&line(&mut m, "rematch", 40)),
            ["Eine Revanche gibt es, wenn die Partie beendet ist"]
        );
    }

    #[test]
    fn captured_pieces_threats_and_the_taken_piece_said() {
        let extras = PlayExtras {
            say_captured: true,
            ..PLAY
        };
        let mut m = start(setup(Side::Keyboard, Side::Keyboard, false), extras);
        line(&mut m, "e4", 10);
        line(&mut m, "d5", 20);
        let e = line(&mut m, "exd5", 30);
        assert_eq!(said(&e), ["Eva schlägt Bauer auf David fünf"]);
        assert_eq!(
            said(&line(&mut m, "geschlagen", 40)),
            ["Geschlagene weiße Figuren: keine. Geschlagene schwarze Figuren: Bauer"]
        );
        assert_eq!(
            said(&line(&mut m, "letzter", 50)),
            ["Zuletzt: Zug 2, Weiß: Eva schlägt Bauer auf David fünf"]
        );
        // Black to move: White's checks (Bb5) and Black's pieces in danger (none yet).
        let e = said(&line(&mut m, "drohungen", 60));
        assert!(
            e[0].starts_with("Weiß kann Schach geben: Läufer Bella fünf, Schach"),
            "{e:?}"
        );
        // An opponent's piece: what it could do.
        assert_eq!(
            said(&line(&mut m, "züge d5", 70)),
            ["Weiß könnte Bauer David fünf ziehen: David sechs"]
        );
        assert!(m.game().position().turn() == Color::Black);
    }

    /// The journal a session writes, as the recorder keeps it (with the checkpoints).
    fn journal(m: &mut Match, lines: &[&str]) -> Vec<crate::record::Entry> {
        let mut entries = Vec::new();
        for (i, text) in lines.iter().enumerate() {
            let now = t(1_000 * (i as u64 + 1));
            for e in m.handle(Event::Line((*text).to_string()), now) {
                if let Effect::Record(r) = e {
                    entries.extend(r.entries(m.game()));
                    if r.needs_checkpoint()
                        && let Some(c) = m.clock()
                    {
                        entries.push(crate::record::Entry::clock_checkpoint(c, now));
                    }
                }
            }
        }
        entries
    }

    #[test]
    fn the_pgn_shows_the_take_back_and_an_aborted_game_has_no_result() {
        use crate::record::Header;
        use crate::record::export::to_pgn;
        let de = language("de").expect("de");
        let mut m = start(setup(Side::Keyboard, Side::Keyboard, true), PLAY);
        let entries = journal(&mut m, &["e4", "e5", "Sf3", "zurücknehmen", "ja", "d4"]);
        let mut header = Header::new("2026-11-23T12:00:00Z", "Weiß", "Schwarz");
        header.time_control = Some("300".into());
        let pgn = to_pgn(&header, &entries, de).expect("replays");
        let pgn = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(pgn.contains("2. d4"), "{pgn}");
        assert!(!pgn.contains("2. Nf3"), "{pgn}");
        assert!(
            pgn.contains(
                "{ Der Zug Nf3 wurde zurückgenommen } { Auf Wunsch von Weiß zurückgenommen }"
            ),
            "{pgn}"
        );
        let mut m = start(setup(Side::Keyboard, Side::Keyboard, false), PLAY);
        let entries = journal(&mut m, &["e4", "abbrechen"]);
        let pgn = to_pgn(&header, &entries, de).expect("replays");
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(
            pgn.contains("Partie von Schwarz abgebrochen, ohne Ergebnis"),
            "{pgn}"
        );
        let replayed = crate::record::replay(&header, &entries).expect("replays");
        assert!(replayed.game.is_aborted());
        // The scoresheet's last line says it was aborted, not that it goes on.
        let sheet = crate::record::export::scoresheet_text(&header, &entries, de).expect("replays");
        assert!(
            sheet.ends_with("Die Partie wurde abgebrochen, ohne Ergebnis\n"),
            "{sheet}"
        );
        assert!(!sheet.contains("nicht beendet"), "{sheet}");
    }

    #[test]
    fn the_e_boards_player_is_asked_and_both_boards_go_back() {
        let mut s = setup(Side::Keyboard, Side::Board, false);
        s.local_board = true;
        let mut m = start(s, PLAY);
        line(&mut m, "e4", 10);
        let reply = m.game().legal_moves()[0];
        m.handle(
            Event::OpponentBoard(crate::board::Recognition::Moved(reply)),
            t(20),
        );
        assert_eq!(m.game().ply(), 2);
        let e = line(&mut m, "zurücknehmen", 30);
        assert_eq!(
            said(&e),
            ["Weiß möchte den letzten Zug zurücknehmen. Schwarz, einverstanden? Ja oder nein"]
        );
        let e = line(&mut m, "ja", 40);
        assert_eq!(taken_back(&e), 2);
        for board in [BoardOf::Player, BoardOf::Opponent] {
            assert!(
                e.iter().any(|x| matches!(
                    x,
                    Effect::BoardExpect { board: b, position, previous: None }
                        if *b == board && **position == shakmaty::Chess::default()
                )),
                "{board:?}: {e:?}"
            );
        }
    }
}
