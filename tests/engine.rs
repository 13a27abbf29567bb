//! The engine adapter against the real Stockfish and against fake engines (small shell scripts
//! written at test time) that crash, hang, answer nonsense or never finish their start.
//! Every wait has a time limit; every test checks that no engine process is left behind.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use hector::core::game::Game;
use hector::core::variant::{Variant, chess960_position, position_from_fen};
use hector::io::engine::{
    ClockTimes, Ending, Engine, EngineError, EngineEvent, EngineOptions, Rejection, SearchLimits,
    Timeouts, level_limits,
};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position, Square};

fn stockfish() -> PathBuf {
    common::find_program("stockfish")
        .unwrap_or_else(|| panic!("these tests need Stockfish: install stockfish (scripts/setup)"))
}

/// Runs `body` on a thread of its own and fails the test if it takes longer than `limit`.
fn within(limit: Duration, body: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        body();
        let _ = tx.send(());
    });
    match rx.recv_timeout(limit) {
        Ok(()) => {
            let _ = handle.join();
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("the test did not finish within {limit:?}"),
    }
}

/// The next event, or a failed test after `limit`.
fn next_event(engine: &Engine, limit: Duration) -> EngineEvent {
    engine
        .events()
        .recv_timeout(limit)
        .unwrap_or_else(|e| panic!("no engine event within {limit:?}: {e}"))
}

fn no_event_for(engine: &Engine, wait: Duration) {
    if let Ok(e) = engine.events().recv_timeout(wait) {
        panic!("unexpected event {e:?}");
    }
}

fn sf(level: u8, chess960: bool) -> Engine {
    Engine::start(&EngineOptions {
        path: Some(stockfish()),
        level,
        chess960,
    })
    .unwrap_or_else(|e| panic!("Stockfish starts: {e}"))
}

fn movetime(ms: u64) -> SearchLimits {
    SearchLimits {
        movetime: Duration::from_millis(ms),
        clock: None,
    }
}

/// Asks for a move and returns it, checking that the answer belongs to this request.
fn ask(engine: &mut Engine, start: &Chess, moves: &[Move], limits: SearchLimits) -> Move {
    let id = engine
        .request_move(start, moves, limits)
        .unwrap_or_else(|e| panic!("request: {e}"));
    match next_event(engine, limits.movetime + Duration::from_secs(10)) {
        EngineEvent::BestMove { request, mv, .. } => {
            assert_eq!(request, id, "the answer to the request just made");
            mv
        }
        other => panic!("expected a move, got {other:?}"),
    }
}

/// Waits until process `pid` is gone (or a zombie of another parent: then it runs no more).
fn assert_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"));
        let running = stat.as_ref().is_ok_and(|s| {
            let state = s
                .rsplit(')')
                .next()
                .and_then(|r| r.split_whitespace().next());
            state != Some("Z") && state != Some("X")
        });
        if !running {
            return;
        }
        assert!(Instant::now() < deadline, "process {pid} is still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn pid_in(file: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            Instant::now() < deadline,
            "{} was not written",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A fake UCI engine: a shell script that finishes the handshake, runs `on_go` for each `go`,
/// and writes its process number next to itself (`<path>.pid`). `before` runs at its start.
/// Its folder is removed when the returned value is dropped.
fn fake(name: &str, before: &str, on_go: &str) -> Fake {
    let dir = common::temp_dir("engine");
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         echo $$ > \"$0.pid\"\n\
         {before}\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name Fake {name}'; echo 'option name Hash type spin default 1 min 1 max 4'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go*) {on_go} ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n"
    );
    write_script(&path, &script);
    Fake { path, _dir: dir }
}

struct Fake {
    path: PathBuf,
    _dir: common::TempDir,
}

impl std::ops::Deref for Fake {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

fn write_script(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, script).expect("write the fake engine");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn pid_file(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.pid", path.display()))
}

fn quick() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(5),
        grace: Duration::from_millis(300),
        stop_grace: Duration::from_millis(300),
    }
}

fn start_fake(path: &Path) -> Engine {
    Engine::start_with(
        &EngineOptions {
            path: Some(path.into()),
            level: 3,
            chess960: false,
        },
        quick(),
    )
    .unwrap_or_else(|e| panic!("the fake engine starts: {e}"))
}

#[test]
fn stockfish_introduces_itself_and_drop_ends_it() {
    within(Duration::from_secs(30), || {
        let engine = sf(4, false);
        assert!(engine.name().starts_with("Stockfish"), "{}", engine.name());
        assert!(engine.info().spin("Skill Level").is_some());
        assert!(engine.is_running());
        let pid = engine.process_id().expect("a process");
        drop(engine);
        assert_gone(pid);
    });
}

/// Two level-1 engines play a whole game through the API; every move is replayed by the game
/// model, which refuses illegal moves and ends the game by the Laws.
#[test]
fn level_1_plays_a_whole_game_against_itself() {
    within(Duration::from_secs(240), || {
        let mut white = sf(1, false);
        let mut black = sf(1, false);
        let mut game = Game::new(Variant::Standard);
        let start = game.start().clone();
        while !game.is_over() {
            let moves: Vec<Move> = game.moves().iter().map(|p| p.mv).collect();
            let engine = if game.turn().is_white() {
                &mut white
            } else {
                &mut black
            };
            let mv = ask(engine, &start, &moves, level_limits(1));
            game.play(mv)
                .unwrap_or_else(|e| panic!("move {} {mv:?}: {e}", moves.len() + 1));
        }
        assert!(game.ply() > 4, "a real game: {} half-moves", game.ply());
        let pids = [white.process_id(), black.process_id()];
        drop((white, black));
        pids.into_iter().flatten().for_each(assert_gone);
    });
}

/// Level 1 chooses at random among good-enough moves, so the same position gets different
/// answers; a queen left hanging is still taken, at level 1 as at level 8.
#[test]
fn level_1_varies_its_moves_but_takes_a_hanging_queen() {
    within(Duration::from_secs(120), || {
        let mut weak = sf(1, false);
        let start = Chess::default();
        let answers: std::collections::HashSet<String> = (0..12)
            .map(|_| ask(&mut weak, &start, &[], level_limits(1)))
            .map(|m| UciMove::from_standard(m).to_string())
            .collect();
        assert!(answers.len() > 2, "level 1 played only {answers:?}");
        let hanging = position_from_fen(
            "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3",
            Variant::Standard,
        )
        .expect("fen");
        for _ in 0..5 {
            let mv = ask(&mut weak, &hanging, &[], level_limits(1));
            assert_eq!(UciMove::from_standard(mv).to_string(), "c1g5");
        }
        let mut strong = sf(8, false);
        let mv = ask(&mut strong, &hanging, &[], movetime(300));
        assert_eq!(UciMove::from_standard(mv).to_string(), "c1g5");
    });
}

#[test]
fn chess960_castling_is_king_takes_rook_both_ways() {
    within(Duration::from_secs(60), || {
        let mut engine = sf(8, true);
        // Start position 746 (RKNNBBQR); White castles queenside in the history sent.
        let start = chess960_position(746).expect("746");
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for u in ["c1b3", "c8b6", "d1e3", "d8e6", "b1a1"] {
            let m: UciMove = u.parse().expect("uci");
            let m = m.to_move(&pos).expect("legal");
            pos.play_unchecked(m);
            moves.push(m);
        }
        // Had the engine misread b1a1, it would answer for the wrong side or a wrong board.
        let reply = ask(&mut engine, &start, &moves, movetime(200));
        assert!(pos.is_legal(reply));
        // Castling (king g1 takes rook h1, the rook lands on f1) is the only mate in one.
        let mate = position_from_fen("4rkr1/4p1p1/8/8/8/8/PP6/6KR w K - 0 1", Variant::Chess960)
            .expect("fen");
        let id = engine
            .request_move(&mate, &[], movetime(500))
            .expect("request");
        match next_event(&engine, Duration::from_secs(10)) {
            EngineEvent::BestMove { request, mv, uci } => {
                assert_eq!(request, id);
                assert_eq!(
                    mv,
                    Move::Castle {
                        king: Square::G1,
                        rook: Square::H1
                    }
                );
                assert_eq!(uci.to_string(), "g1h1");
            }
            other => panic!("expected castling, got {other:?}"),
        }
        // And a stretch of a Chess960 game, every move replayed by the game model.
        let mut game = Game::chess960(746).expect("746");
        for _ in 0..40 {
            if game.is_over() {
                break;
            }
            let moves: Vec<Move> = game.moves().iter().map(|p| p.mv).collect();
            let start = game.start().clone();
            let mv = ask(&mut engine, &start, &moves, movetime(30));
            game.play(mv).expect("legal Chess960 move");
        }
    });
}

#[test]
fn a_standard_engine_refuses_a_chess960_game_and_bad_histories() {
    within(Duration::from_secs(30), || {
        let mut engine = sf(3, false);
        let start = chess960_position(746).expect("746");
        assert_eq!(
            engine.request_move(&start, &[], movetime(50)),
            Err(EngineError::NotChess960)
        );
        let std_start = Chess::default();
        let e4 = "e2e4"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&std_start)
            .expect("e4");
        assert_eq!(
            engine.request_move(&std_start, &[e4, e4], movetime(50)),
            Err(EngineError::IllegalHistory { number: 2 })
        );
        let mated = position_from_fen(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            Variant::Standard,
        )
        .expect("fen");
        assert_eq!(
            engine.request_move(&mated, &[], movetime(50)),
            Err(EngineError::NoLegalMove)
        );
        // The engine still plays.
        let mv = ask(&mut engine, &std_start, &[e4], movetime(50));
        assert!(std_start.clone().tap_play(e4).is_legal(mv));
    });
}

trait TapPlay {
    fn tap_play(self, m: Move) -> Chess;
}

impl TapPlay for Chess {
    fn tap_play(mut self, m: Move) -> Chess {
        self.play_unchecked(m);
        self
    }
}

#[test]
fn stop_drops_the_answer_and_a_new_request_replaces_the_old() {
    within(Duration::from_secs(60), || {
        let mut engine = sf(8, false);
        let start = Chess::default();
        // A long search stopped: its answer never arrives.
        engine
            .request_move(&start, &[], movetime(10_000))
            .expect("request");
        engine.stop();
        // A long search replaced by a short one: only the second is answered, promptly (the
        // stopped search's answer would come first, and the first's ten seconds would pass
        // the wait).
        let first = engine
            .request_move(&start, &[], movetime(10_000))
            .expect("first");
        let second = engine
            .request_move(&start, &[], movetime(100))
            .expect("second");
        assert!(second > first);
        match next_event(&engine, Duration::from_secs(5)) {
            EngineEvent::BestMove { request, .. } => assert_eq!(request, second),
            other => panic!("expected the second answer, got {other:?}"),
        }
        // Nor does the replaced one answer later: the next answer is a third request's.
        let third = engine
            .request_move(&start, &[], movetime(100))
            .expect("third");
        match next_event(&engine, Duration::from_secs(5)) {
            EngineEvent::BestMove { request, .. } => assert_eq!(request, third),
            other => panic!("expected the third answer, got {other:?}"),
        }
    });
}

#[test]
fn clock_times_are_accepted() {
    within(Duration::from_secs(30), || {
        let mut engine = sf(5, false);
        let limits = SearchLimits {
            movetime: Duration::from_secs(2),
            clock: Some(ClockTimes {
                wtime: Duration::from_millis(900),
                btime: Duration::from_secs(60),
                winc: Duration::ZERO,
                binc: Duration::ZERO,
            }),
        };
        let mv = ask(&mut engine, &Chess::default(), &[], limits);
        assert!(Chess::default().is_legal(mv));
        // What the engine is told: both clocks, in UCI's words (a fake engine writes down its
        // `go`); how soon Stockfish answers with them is a figure, not a test's business.
        let fake = fake(
            "clocked",
            "",
            "echo \"$line\" >> \"$0.go\"; echo 'bestmove e2e4'",
        );
        let mut fake_engine = start_fake(&fake);
        let _ = ask(&mut fake_engine, &Chess::default(), &[], limits);
        let go = std::fs::read_to_string(format!("{}.go", fake.display())).expect("go");
        // No increment is sent when there is none (UCI: "winc <x>… if x > 0").
        assert!(go.starts_with("go wtime 900 btime 60000 "), "{go}");
        assert!(!go.contains("inc"), "{go}");
    });
}

#[test]
fn a_missing_engine_says_what_to_install() {
    within(Duration::from_secs(10), || {
        let err = Engine::start(&EngineOptions {
            path: Some("/nonexistent/hector-test/stockfish".into()),
            level: 1,
            chess960: false,
        })
        .err()
        .expect("no engine there");
        assert!(matches!(err, EngineError::Missing { .. }), "{err}");
        assert!(
            err.to_string()
                .contains("install the Debian package stockfish"),
            "{err}"
        );

        let dir = common::temp_dir("engine");
        let plain = dir.join("not-executable");
        std::fs::write(&plain, "#!/bin/sh\n").expect("write");
        let err = Engine::start(&EngineOptions {
            path: Some(plain),
            level: 1,
            chess960: false,
        })
        .err()
        .expect("not executable");
        assert!(matches!(err, EngineError::NotExecutable { .. }), "{err}");
    });
}

#[test]
fn an_engine_that_never_finishes_its_start_is_given_up_after_5_seconds() {
    within(Duration::from_secs(20), || {
        let dir = common::temp_dir("engine");
        let path = dir.join("mute");
        write_script(
            &path,
            "#!/bin/sh\necho $$ > \"$0.pid\"\necho 'Mute engine 0.1'\necho 'loading' >&2\n\
             while read -r line; do :; done\n",
        );
        let started = Instant::now();
        let err = Engine::start(&EngineOptions {
            path: Some(path.clone()),
            level: 1,
            chess960: false,
        })
        .err()
        .expect("no handshake");
        let took = started.elapsed();
        assert!(matches!(err, EngineError::Handshake { .. }), "{err}");
        assert!(err.to_string().contains("it said: loading"), "{err}");
        // Not given up early; how soon after the five seconds is load's business (the whole
        // test is bounded by `within`).
        assert!(took >= Duration::from_secs(5), "{took:?}");
        assert_gone(pid_in(&pid_file(&path)));
    });
}

#[test]
fn an_engine_that_ends_during_its_start_says_why() {
    within(Duration::from_secs(10), || {
        let dir = common::temp_dir("engine");
        let path = dir.join("broken");
        write_script(
            &path,
            "#!/bin/sh\necho 'cannot load the network file' >&2\nexit 1\n",
        );
        let err = Engine::start(&EngineOptions {
            path: Some(path),
            level: 1,
            chess960: false,
        })
        .err()
        .expect("it ends");
        let text = err.to_string();
        assert!(matches!(err, EngineError::EndedEarly { .. }), "{text}");
        assert!(text.contains("exit status 1"), "{text}");
        assert!(text.contains("cannot load the network file"), "{text}");
    });
}

#[test]
fn a_crash_on_go_is_reported_once_and_restart_brings_it_back() {
    within(Duration::from_secs(20), || {
        let path = fake(
            "crash",
            "",
            "echo 'fake engine: segmentation fault' >&2; exit 3",
        );
        let mut engine = start_fake(&path);
        assert_eq!(engine.name(), "Fake crash");
        let first_pid = pid_in(&pid_file(&path));
        engine
            .request_move(&Chess::default(), &[], movetime(100))
            .expect("request");
        match next_event(&engine, Duration::from_secs(5)) {
            EngineEvent::Died { reason, .. } => {
                assert!(reason.contains("exit status 3"), "{reason}");
                assert!(reason.contains("segmentation fault"), "{reason}");
            }
            other => panic!("expected Died, got {other:?}"),
        }
        no_event_for(&engine, Duration::from_millis(500));
        assert!(!engine.is_running());
        assert!(matches!(
            engine.request_move(&Chess::default(), &[], movetime(100)),
            Err(EngineError::Dead { .. })
        ));
        assert_gone(first_pid);
        std::fs::remove_file(pid_file(&path)).expect("pid file");
        engine.restart().expect("restart");
        assert!(engine.is_running());
        let second_pid = pid_in(&pid_file(&path));
        assert_ne!(first_pid, second_pid);
        drop(engine);
        assert_gone(second_pid);
    });
}

#[test]
fn an_exit_is_noticed_while_a_child_keeps_the_output_open() {
    within(Duration::from_secs(20), || {
        let path = fake("orphan", "sleep 300 & echo $! > \"$0.child\"", "exit 4");
        let mut engine = start_fake(&path);
        let child = pid_in(&PathBuf::from(format!("{}.child", path.display())));
        engine
            .request_move(&Chess::default(), &[], movetime(100))
            .expect("request");
        match next_event(&engine, Duration::from_secs(5)) {
            EngineEvent::Died { reason, .. } => {
                assert!(reason.contains("exit status 4"), "{reason}")
            }
            other => panic!("expected Died, got {other:?}"),
        }
        assert_gone(child);
        no_event_for(&engine, Duration::from_millis(300));
    });
}

#[test]
fn an_engine_that_never_answers_go_times_out_and_is_killed() {
    within(Duration::from_secs(20), || {
        let path = fake("silent", "sleep 300 & echo $! > \"$0.child\"", ":");
        let mut engine = start_fake(&path);
        let pid = pid_in(&pid_file(&path));
        let child = pid_in(&PathBuf::from(format!("{}.child", path.display())));
        let id = engine
            .request_move(&Chess::default(), &[], movetime(100))
            .expect("request");
        // movetime 100 ms + grace 300 ms, then `stop` + 300 ms.
        match next_event(&engine, Duration::from_secs(5)) {
            EngineEvent::Timeout { request, waited } => {
                assert_eq!(request, id);
                assert!(waited >= Duration::from_millis(700), "{waited:?}");
            }
            other => panic!("expected Timeout, got {other:?}"),
        }
        assert_gone(pid);
        assert_gone(child);
        no_event_for(&engine, Duration::from_millis(300));
        assert!(matches!(
            engine.request_move(&Chess::default(), &[], movetime(100)),
            Err(EngineError::Dead { .. })
        ));
    });
}

#[test]
fn wrong_answers_are_rejected_and_never_played() {
    within(Duration::from_secs(20), || {
        let path = fake(
            "liar",
            "n=0",
            "n=$((n+1)); case $n in \
               1) echo 'bestmove e2e5' ;; \
               2) echo 'bestmove (none)' ;; \
               3) echo 'bestmove xyzzy' ;; \
               4) echo 'bestmove e7e5' ;; \
               *) echo 'info depth 1 score cp 20 pv e2e4'; echo 'bestmove e2e4 ponder e7e5' ;; \
             esac",
        );
        let mut engine = start_fake(&path);
        let start = Chess::default();
        let expected = [
            ("e2e5", Rejection::Illegal),
            ("(none)", Rejection::NoMove),
            ("xyzzy", Rejection::Unreadable),
            ("e7e5", Rejection::Illegal),
        ];
        for (text, why) in expected {
            let id = engine
                .request_move(&start, &[], movetime(100))
                .expect("request");
            assert_eq!(
                next_event(&engine, Duration::from_secs(5)),
                EngineEvent::Rejected {
                    request: id,
                    answer: text.into(),
                    reason: why
                }
            );
        }
        // Still running, and a good answer is played.
        let mv = ask(&mut engine, &start, &[], movetime(100));
        assert_eq!(UciMove::from_standard(mv).to_string(), "e2e4");
    });
}

#[test]
fn stray_lines_do_not_confuse_the_engine_adapter() {
    within(Duration::from_secs(20), || {
        let dir = common::temp_dir("engine");
        let path = dir.join("stray");
        // A `bestmove` nobody asked for before `readyok`, a `readyok` nobody asked for during
        // the search, garbage and an empty line.
        write_script(
            &path,
            "#!/bin/sh\nwhile read -r line; do case \"$line\" in \
             uci) echo 'id name Stray'; echo uciok ;; \
             isready) echo 'bestmove a2a3'; echo readyok ;; \
             go*) echo readyok; echo; printf '\\377\\376 garbage\\n'; echo 'bestmove e2e4' ;; \
             esac; done\n",
        );
        let mut engine = start_fake(&path);
        for _ in 0..3 {
            let mv = ask(&mut engine, &Chess::default(), &[], movetime(100));
            assert_eq!(UciMove::from_standard(mv).to_string(), "e2e4");
        }
        no_event_for(&engine, Duration::from_millis(300));
    });
}

#[test]
fn a_chatty_stderr_cannot_block_the_engine() {
    within(Duration::from_secs(20), || {
        // About 1.4 MB on stderr before the handshake: far more than a pipe holds.
        let path = fake(
            "chatty",
            "yes 'debug: evaluating the position' | head -n 40000 >&2",
            "yes 'debug: thinking' | head -n 20000 >&2; echo 'bestmove g1f3'",
        );
        let mut engine = start_fake(&path);
        let mv = ask(&mut engine, &Chess::default(), &[], movetime(100));
        assert_eq!(UciMove::from_standard(mv).to_string(), "g1f3");
    });
}

/// Resident memory of this test process, in KiB.
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

#[test]
fn an_engine_that_floods_without_line_ends_is_stopped_and_memory_stays_small() {
    within(Duration::from_secs(20), || {
        let path = fake("flood", "", "cat /dev/zero");
        let mut engine = start_fake(&path);
        let pid = pid_in(&pid_file(&path));
        let before = resident_kib();
        engine
            .request_move(&Chess::default(), &[], movetime(2000))
            .expect("request");
        match next_event(&engine, Duration::from_secs(5)) {
            EngineEvent::Died { how, reason, .. } => {
                assert_eq!(how, Ending::Overflow, "{reason}");
                assert!(reason.contains("longer than 64 KiB"), "{reason}");
            }
            other => panic!("expected Died, got {other:?}"),
        }
        let grown = resident_kib().saturating_sub(before);
        assert!(grown < 32 * 1024, "grew by {grown} KiB");
        assert_gone(pid);
    });
}

#[test]
fn an_engine_that_floods_during_its_start_is_refused() {
    within(Duration::from_secs(20), || {
        let dir = common::temp_dir("engine");
        let path = dir.join("noise");
        write_script(
            &path,
            "#!/bin/sh\necho $$ > \"$0.pid\"\nexec cat /dev/zero\n",
        );
        let err = Engine::start_with(
            &EngineOptions {
                path: Some(path.clone()),
                level: 1,
                chess960: false,
            },
            quick(),
        )
        .err()
        .expect("no handshake");
        assert!(matches!(err, EngineError::EndedEarly { .. }), "{err}");
        assert!(err.to_string().contains("longer than 64 KiB"), "{err}");
        assert_gone(pid_in(&pid_file(&path)));
    });
}

/// An analysis answers with the best line's move and its score, also at the weakest level
/// (where the engine's own answer may be a weaker move): here the mate in one.
#[test]
fn an_analysis_gives_the_best_move_and_the_score() {
    within(Duration::from_secs(60), || {
        for level in [1, 8] {
            let mut engine = sf(level, false);
            let start = position_from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Variant::Standard)
                .expect("fen");
            let id = engine
                .request_analysis(&start, &[], Some(10), Duration::from_secs(5))
                .unwrap_or_else(|e| panic!("request: {e}"));
            match next_event(&engine, Duration::from_secs(20)) {
                EngineEvent::Analysis {
                    request,
                    best,
                    score,
                    line,
                } => {
                    assert_eq!(request, id);
                    assert_eq!((best.from(), best.to()), (Some(Square::A1), Square::A8));
                    assert_eq!(score, Some(hector::io::engine::Score::Mate(1)));
                    // The line of a mate in one is the mating move alone.
                    assert_eq!(line, vec![best]);
                }
                other => panic!("expected an analysis, got {other:?}"),
            }
            let pid = engine.process_id().expect("a process");
            drop(engine);
            assert_gone(pid);
        }
    });
}
