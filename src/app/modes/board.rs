//! `hector board list` and `hector board monitor`: finding a board's port, and watching what
//! hector makes of the board, one line per event.
//!
//! Every event becomes one sentence ([`sentence`]); the monitor prints it, and a mode that
//! speaks passes the same sentence to speech for the events that are not raw ([`is_raw`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess};

use crate::app::services::output::Out;
use crate::core::board::{BoardMessage, Codec, Picture, Recognition, SensorEvent};
use crate::core::notation::Language;
use crate::core::notation::{Form, announce};
use crate::core::notation::{board_words, printable};
use crate::core::variant::{Variant, position_from_fen};
use crate::io::board_link::{BoardEvent, BoardLink, Protocol};
use crate::io::serial::list_ports;
use crate::io::speech::{Kind, Speaker};

use crate::app::services::interrupt::{catch_interrupt, interrupted};

/// `hector board list`.
pub(crate) fn list() -> ExitCode {
    let ports = match list_ports() {
        Ok(p) => p,
        Err(e) => {
            errln!("hector board list: {}", crate::io::error_chain(&e));
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    if ports.is_empty() {
        out.line(
            "No serial ports found. Plug the board in (and switch it on), wait a few seconds \
             and try again; a board that still does not appear may need another cable, one \
             that carries data and not only power.",
        );
    } else {
        let count = ports.len();
        out.line(&if count == 1 {
            "1 serial port:".to_owned()
        } else {
            format!("{count} serial ports:")
        });
        for port in &ports {
            out.line(&port.describe());
        }
    }
    out.finish(
        "hector board list",
        "cannot write the list: {reason}",
        ExitCode::SUCCESS,
    )
}

/// What `hector board monitor` was asked for.
#[derive(Clone, Debug)]
pub(crate) struct MonitorOptions {
    pub(crate) port: PathBuf,
    pub(crate) protocol: Protocol,
    pub(crate) baud: Option<u32>,
    pub(crate) fen: Option<String>,
    pub(crate) chess960: bool,
    /// Print the raw events too.
    pub(crate) raw: bool,
    /// Say every sentence for the player as well (the raw lines are only printed).
    pub(crate) speaker: Option<Speaker>,
}

/// How often the monitor looks at Ctrl-C while nothing happens.
const TICK: Duration = Duration::from_millis(100);

/// `hector board monitor`.
pub(crate) fn monitor(opts: &MonitorOptions, lang: &Language) -> ExitCode {
    let variant = if opts.chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let position = match &opts.fen {
        Some(fen) => match position_from_fen(fen, variant) {
            Ok(p) => p,
            Err(e) => {
                errln!("hector board monitor: {e}");
                return ExitCode::from(2);
            }
        },
        None => Chess::default(),
    };
    let mode = variant.castling_mode();
    catch_interrupt();
    let mut board = match BoardLink::open(
        &opts.port,
        opts.protocol,
        opts.baud,
        position,
        mode,
        Instant::now(),
    ) {
        Ok(b) => b,
        Err(e) => {
            errln!("hector board monitor: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    out.line(&format!(
        "{}: {}, {}",
        board_words::connected(lang),
        opts.port.display(),
        opts.protocol.name()
    ));
    out.flush();
    let input = spawn_input();
    loop {
        if interrupted() {
            break;
        }
        let wait = board.next_deadline().map_or(TICK, |d| {
            d.saturating_duration_since(Instant::now()).min(TICK)
        });
        let mut events = Vec::new();
        crossbeam_channel::select! {
            recv(board.events()) -> event => match event {
                Ok(event) => events.extend(board.handle(event)),
                Err(_) => break,
            },
            recv(input) -> line => match line {
                Ok(text) => match answer(&mut board, &text) {
                    Some(more) => events.extend(more),
                    None => break,
                },
                // End of input (Ctrl-D, or the pipe closed).
                Err(_) => break,
            },
            default(wait) => {}
        }
        events.extend(board.tick());
        if !events.is_empty() && !print(&mut out, &events, board.codec(), opts, lang, mode) {
            break;
        }
    }
    if let Some(speaker) = &opts.speaker {
        speaker.wait_idle(Duration::from_secs(5));
    }
    out.finish(
        "hector board monitor",
        &lang.messages.output_failed,
        ExitCode::SUCCESS,
    )
}

/// Prints events; false once nobody reads the output.
fn print(
    out: &mut Out,
    events: &[BoardEvent],
    codec: &dyn Codec,
    opts: &MonitorOptions,
    lang: &Language,
    mode: CastlingMode,
) -> bool {
    let mut open = true;
    for event in events {
        let raw = is_raw(event);
        if opts.raw || !raw {
            let text = sentence(event, codec, lang, mode);
            if let (Some(speaker), false) = (&opts.speaker, raw) {
                speaker.say(speech_kind(event), spoken(event, &text, lang));
            }
            open = out.line(&text);
        }
    }
    out.flush();
    open
}

/// The sentence as it is said: a move without its UCI, a disconnection without the
/// technical reason (both stay in the printed line).
fn spoken(event: &BoardEvent, printed: &str, lang: &Language) -> String {
    match event {
        BoardEvent::Recognized {
            recognition: Recognition::Moved(m),
            position,
        } => announce(position, *m, lang, Form::Short),
        BoardEvent::Disconnected { .. } => board_words::disconnected(lang).to_owned(),
        _ => printed.to_owned(),
    }
}

/// How urgently a board event is said: a move is announced in turn, a fault interrupts.
fn speech_kind(event: &BoardEvent) -> Kind {
    match event {
        BoardEvent::Recognized {
            recognition: Recognition::Moved(_),
            ..
        } => Kind::Move,
        BoardEvent::Disconnected { .. }
        | BoardEvent::Recognized {
            recognition: Recognition::Mismatch(_),
            ..
        } => Kind::Urgent,
        _ => Kind::Answer,
    }
}

/// A line typed by the player: a promotion piece, or `quit`. `None` ends the monitor.
fn answer(board: &mut BoardLink, text: &str) -> Option<Vec<BoardEvent>> {
    let text = text.trim();
    // Not "q": that is the queen's letter.
    let quit = crate::core::notation::fold(text);
    let quit_words = crate::core::notation::languages().flat_map(|l| &l.commands.quit);
    if quit_words
        .map(|w| crate::core::notation::fold(w))
        .any(|w| w == quit)
    {
        return None;
    }
    if text.is_empty() {
        return Some(Vec::new());
    }
    match board_words::promotion_role(text) {
        Some(role) => match board.choose_promotion(role) {
            Ok(events) => Some(events),
            Err(e) => {
                errln!("hector board monitor: {e}");
                Some(Vec::new())
            }
        },
        None => {
            errln!(
                "hector board monitor: {text:?} is not a promotion piece (Dame, Turm, Läufer, \
                 Springer; queen, rook, bishop, knight; or their letters); quit ends"
            );
            Some(Vec::new())
        }
    }
}

/// Standard input, line by line; the channel closes at its end.
fn spawn_input() -> Receiver<String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    // Detached: a read of a terminal cannot be interrupted, and the process ends anyway.
    let _ = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            for line in crate::io::files::bounded_lines(std::io::stdin().lock()) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    rx
}

/// Whether an event is a raw reading (sensor, protocol message, dropped bytes) rather than
/// something to tell the player.
fn is_raw(event: &BoardEvent) -> bool {
    match event {
        BoardEvent::Sensor(_) | BoardEvent::Dropped(_) => true,
        BoardEvent::Message(BoardMessage::Fault(_)) => false,
        BoardEvent::Message(_) => true,
        _ => false,
    }
}

/// The one sentence for an event. Raw events are written in the protocol's terms (its
/// codec's words) with the protocol's name first ("peg: e2 lifted"); everything else in the
/// words of `lang`, moves as Appendix D phrases followed by their UCI ("Springer Felix drei
/// (g1f3)"). What the board sent is made printable here, whichever codec read it.
fn sentence(event: &BoardEvent, codec: &dyn Codec, lang: &Language, mode: CastlingMode) -> String {
    let p = codec.name();
    match event {
        BoardEvent::Sensor(SensorEvent::Lifted(sq)) => format!("{p}: {sq} lifted"),
        BoardEvent::Sensor(SensorEvent::Placed(sq, None)) => format!("{p}: {sq} placed"),
        BoardEvent::Sensor(SensorEvent::Placed(sq, Some(piece))) => {
            format!("{p}: {sq} placed {}", piece.char())
        }
        BoardEvent::Sensor(SensorEvent::Snapshot(picture)) => {
            format!("{p}: board {}", rows(picture))
        }
        BoardEvent::Message(BoardMessage::Fault(text)) => {
            board_words::fault(&printable(text), lang)
        }
        BoardEvent::Message(BoardMessage::Button(name)) => {
            format!("{p}: button {}", printable(name))
        }
        BoardEvent::Message(BoardMessage::Note(note)) => format!("{p}: {}", printable(note)),
        BoardEvent::Dropped(n) => format!("{p}: {}", codec.dropped_words(*n)),
        BoardEvent::Recognized {
            recognition: Recognition::Moved(m),
            position,
        } => format!(
            "{} ({})",
            announce(position, *m, lang, Form::Short),
            UciMove::from_move(*m, mode)
        ),
        BoardEvent::Recognized {
            recognition,
            position,
        } => board_words::recognition(recognition, position, lang),
        BoardEvent::Disconnected { reason } => {
            format!("{} ({reason})", board_words::disconnected(lang))
        }
        BoardEvent::Reconnected => board_words::reconnected(lang).to_owned(),
        BoardEvent::InOrder => board_words::in_order(lang).to_owned(),
    }
}

/// The 64 squares in eight groups, rank 8 first: readable in a line.
fn rows(picture: &Picture) -> String {
    let rows = picture.to_rows();
    rows.as_bytes()
        .chunks(8)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::{Heard, SquareDiff, SquareState};
    use crate::core::notation::language;
    use shakmaty::{Position, Square};

    /// The sentence as the monitor of a board of `protocol` writes it.
    fn sentence(
        event: &BoardEvent,
        protocol: Protocol,
        lang: &Language,
        mode: CastlingMode,
    ) -> String {
        super::sentence(event, &*protocol.codec(), lang, mode)
    }

    #[test]
    fn one_sentence_per_event() {
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        let start = Chess::default();
        let nf3 = UciMove::from_ascii(b"g1f3")
            .expect("uci")
            .to_move(&start)
            .expect("legal");
        let moved = BoardEvent::Recognized {
            recognition: Recognition::Moved(nf3),
            position: start.clone(),
        };
        let std = CastlingMode::Standard;
        assert_eq!(
            sentence(&moved, Protocol::Dgt, de, std),
            "Springer Felix drei (g1f3)"
        );
        assert_eq!(
            sentence(&moved, Protocol::Peg, en, std),
            "Knight Felix three (g1f3)"
        );
        let mismatch = BoardEvent::Recognized {
            recognition: Recognition::Mismatch(vec![SquareDiff {
                square: Square::E4,
                expected: start.board().piece_at(Square::E2),
                found: SquareState::Empty,
            }]),
            position: start.clone(),
        };
        assert_eq!(
            sentence(&mismatch, Protocol::Peg, de, std),
            "Eva vier: weißer Bauer fehlt"
        );
        let lifted = BoardEvent::Sensor(SensorEvent::Lifted(Square::E2));
        assert_eq!(sentence(&lifted, Protocol::Peg, de, std), "peg: e2 lifted");
        assert!(is_raw(&lifted));
        assert!(!is_raw(&mismatch));
        let gone = BoardEvent::Disconnected {
            reason: "hang-up".into(),
        };
        assert_eq!(
            sentence(&gone, Protocol::Dgt, de, std),
            "Brett getrennt (hang-up)"
        );
        assert_eq!(
            sentence(&BoardEvent::Reconnected, Protocol::Dgt, en, std),
            "Board connected again"
        );
        let fault = BoardEvent::Message(BoardMessage::Fault("supply low".into()));
        assert!(!is_raw(&fault));
        assert_eq!(
            sentence(&fault, Protocol::Peg, en, std),
            "The board reports a fault: supply low"
        );
        let snapshot =
            BoardEvent::Sensor(SensorEvent::Snapshot(Picture::occupancy_of(start.board())));
        assert_eq!(
            sentence(&snapshot, Protocol::Peg, en, std),
            "peg: board xxxxxxxx xxxxxxxx ........ ........ ........ ........ xxxxxxxx xxxxxxxx"
        );
        let noise = BoardEvent::Message(BoardMessage::Note(
            "line not understood: a\x1b[31mb\u{7}".into(),
        ));
        assert_eq!(
            sentence(&noise, Protocol::Peg, en, std),
            "peg: line not understood: a\\x1B[31mb\\x07"
        );
        let mut dgt = Protocol::Dgt.codec();
        let unknown = match dgt.decode(&[0xb6, 0x00, 0x03]).heard.as_slice() {
            [Heard::Message(m)] => BoardEvent::Message(m.clone()),
            other => panic!("one message: {other:?}"),
        };
        assert_eq!(
            sentence(&unknown, Protocol::Dgt, en, std),
            "dgt: unknown message 0xb6, no content"
        );
        let button = BoardEvent::Message(BoardMessage::Button("done\u{7}".into()));
        assert_eq!(
            sentence(&button, Protocol::Peg, en, std),
            "peg: button done\\x07"
        );
        assert_eq!(
            sentence(&BoardEvent::Dropped(1), Protocol::Dgt, en, std),
            "dgt: 1 byte dropped (noise or damaged messages)"
        );
        assert_eq!(
            sentence(&BoardEvent::Dropped(2), Protocol::Peg, en, std),
            "peg: 2 lines dropped (wrong checksum or too long)"
        );
        for event in [moved, mismatch, lifted, gone, fault, snapshot, noise] {
            let text = sentence(&event, Protocol::Dgt, de, std);
            assert!(!text.contains('\n') && !text.contains('\x1b'), "{text:?}");
        }
    }
}
