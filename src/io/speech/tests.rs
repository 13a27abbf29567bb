//! The speech thread with capturing backends: queue policy, interruptions and the watchdog.

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use super::*;

/// Generous bound: a test that fails never hangs the suite.
const LIMIT: Duration = Duration::from_secs(20);

fn log() -> SharedLog {
    Arc::new(Mutex::new(CaptureLog::default()))
}

fn config(plan: Vec<Plan>) -> SpeechConfig {
    SpeechConfig {
        plan,
        language: "de".into(),
        voice: Voice::default(),
        sink: stdout_sink(),
        // Short, so that hang tests run quickly.
        hang_limit: Duration::from_millis(300),
        sounds: None,
    }
}

fn said(log: &SharedLog) -> Vec<String> {
    log.lock()
        .map(|l| {
            l.calls
                .iter()
                .filter_map(|c| match c {
                    Captured::Said { text, .. } => Some(text.clone()),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

fn calls(log: &SharedLog) -> Vec<Captured> {
    log.lock().map(|l| l.calls.clone()).unwrap_or_default()
}

/// Waits until the backend has begun saying `text`; fails, naming it, when it has not within
/// [`LIMIT`] (a loop that gave up silently let the test go on with nothing said).
fn wait_until_saying(log: &SharedLog, text: &str) {
    let deadline = std::time::Instant::now() + LIMIT;
    while !said(log).iter().any(|t| t == text) {
        assert!(
            std::time::Instant::now() < deadline,
            "the backend did not begin saying {text:?} within {LIMIT:?}: {:?}",
            calls(log)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn moves_are_said_in_order_in_their_language() {
    let l = log();
    let (speaker, notices) =
        Speaker::start(config(vec![Plan::Capture(l.clone(), Behaviour::Normal)]));
    speaker.announce("Eva vier");
    speaker.say_in(Kind::Move, "Eva five", "en");
    speaker.announce("Springer Felix drei");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier", "Eva five", "Springer Felix drei"]);
    let langs: Vec<String> = calls(&l)
        .into_iter()
        .filter_map(|c| match c {
            Captured::Said { lang, .. } => Some(lang),
            _ => None,
        })
        .collect();
    assert_eq!(langs, ["de", "en", "de"]);
    assert_eq!(
        notices.recv_timeout(LIMIT),
        Ok(Notice::Using(BackendKind::Capture, None))
    );
}

#[test]
fn a_hanging_backend_is_abandoned_and_the_next_one_says_everything() {
    let (first, second) = (log(), log());
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::Capture(first.clone(), Behaviour::HangOnSpeak),
        Plan::Capture(second.clone(), Behaviour::Normal),
    ]));
    speaker.announce("Eva vier");
    speaker.announce("Eva fünf");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&second), ["Eva vier", "Eva fünf"]);
    assert_eq!(
        notices.recv_timeout(LIMIT),
        Ok(Notice::Using(BackendKind::Capture, None))
    );
    match notices.recv_timeout(LIMIT) {
        Ok(Notice::Switched { reason, .. }) => {
            assert!(reason.contains("did not answer"), "{reason}")
        }
        other => panic!("expected a switch, got {other:?}"),
    }
    // Told once.
    assert!(notices.try_recv().is_err());
}

/// The player hears the true reason: a backend without a sound device is not said to hang.
#[test]
fn a_backend_without_audio_is_given_up_for_that_reason() {
    let (first, second) = (log(), log());
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::Capture(first.clone(), Behaviour::NoAudio),
        Plan::Capture(second.clone(), Behaviour::Normal),
    ]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&second), ["Eva vier"]);
    let causes: Vec<(crate::io::speech::Cause, Option<String>)> =
        std::iter::from_fn(|| notices.recv_timeout(LIMIT).ok())
            .take(2)
            .filter_map(|n| match n {
                Notice::Switched { cause, system, .. } => Some((cause, system)),
                _ => None,
            })
            .collect();
    // The system's own words come along, apart from hector's (their reading in the
    // player's words is app::services::speaker's).
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(causes[0].0, crate::io::speech::Cause::NoAudio);
    assert!(causes[0].1.is_some(), "{causes:?}");
}

#[test]
fn an_utterance_that_never_ends_counts_as_a_hang() {
    let (first, second) = (log(), log());
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::Capture(first.clone(), Behaviour::NeverEnds),
        Plan::Capture(second.clone(), Behaviour::Normal),
    ]));
    speaker.announce("Dame David eins");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&first), ["Dame David eins"]);
    assert_eq!(said(&second), ["Dame David eins"]);
    let switched = std::iter::from_fn(|| notices.recv_timeout(LIMIT).ok())
        .take(2)
        .any(|n| matches!(n, Notice::Switched { ref reason, .. } if reason.contains("did not finish")));
    assert!(switched);
}

#[test]
fn urgent_interrupts_and_the_move_is_said_again() {
    let l = log();
    // Each utterance lasts 30 polls (about 300 ms): long enough to be interrupted.
    let (speaker, _notices) =
        Speaker::start(config(vec![Plan::Capture(l.clone(), Behaviour::Slow(30))]));
    speaker.announce("Eva vier");
    wait_until_saying(&l, "Eva vier");
    speaker.urgent("Zeit abgelaufen");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier", "Zeit abgelaufen", "Eva vier"]);
    assert!(calls(&l).contains(&Captured::Stopped));
}

#[test]
fn a_newer_answer_replaces_the_one_being_said() {
    let l = log();
    let (speaker, _notices) =
        Speaker::start(config(vec![Plan::Capture(l.clone(), Behaviour::Slow(30))]));
    speaker.answer("Weiß am Zug");
    wait_until_saying(&l, "Weiß am Zug");
    speaker.answer("Material gleich");
    speaker.answer("Zwölf Züge gespielt");
    assert!(speaker.wait_idle(LIMIT));
    let s = said(&l);
    assert_eq!(s.first().map(String::as_str), Some("Weiß am Zug"));
    assert_eq!(s.last().map(String::as_str), Some("Zwölf Züge gespielt"));
    assert_eq!(s.iter().filter(|t| *t == "Weiß am Zug").count(), 1, "{s:?}");
    // "Material gleich" is either replaced before it begins or cut short when the newer
    // answer arrives; it is never said to its end and never said again.
    let c = calls(&l);
    if let Some(i) = c
        .iter()
        .position(|x| matches!(x, Captured::Said { text, .. } if text == "Material gleich"))
    {
        assert_eq!(c.get(i + 1), Some(&Captured::Stopped), "{c:?}");
    }
    assert!(
        s.iter().filter(|t| *t == "Material gleich").count() <= 1,
        "{s:?}"
    );
}

#[test]
fn stop_mute_repeat_and_rate() {
    let l = log();
    let (speaker, _notices) =
        Speaker::start(config(vec![Plan::Capture(l.clone(), Behaviour::Normal)]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    speaker.repeat();
    assert!(speaker.wait_idle(LIMIT));
    speaker.set_muted(true);
    speaker.announce("Eva fünf");
    assert!(speaker.wait_idle(LIMIT));
    speaker.set_muted(false);
    speaker.change_rate(20);
    speaker.announce("Springer Felix drei");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier", "Eva vier", "Springer Felix drei"]);
    assert!(
        calls(&l)
            .iter()
            .any(|c| matches!(c, Captured::Voice(v) if v.rate == 20))
    );
    // Muted: the unspoken move is still the last thing, for repeat after unmuting.
    speaker.repeat();
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(
        said(&l).last().map(String::as_str),
        Some("Springer Felix drei")
    );
}

#[test]
fn when_nothing_works_hector_goes_silent_and_never_waits() {
    let (a, b) = (log(), log());
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::Capture(a, Behaviour::HangOnSpeak),
        Plan::Capture(b, Behaviour::HangOnSpeak),
    ]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    let silent = std::iter::from_fn(|| notices.recv_timeout(LIMIT).ok())
        .any(|n| matches!(n, Notice::Silent { .. }));
    assert!(silent);
    speaker.announce("Eva fünf");
    assert!(speaker.wait_idle(LIMIT));
}

#[test]
fn expected_length_grows_with_text_and_slowness() {
    assert!(
        expected_length("Springer Felix drei", -100) > expected_length("Springer Felix drei", 0)
    );
    assert!(expected_length("Springer Felix drei", 0) > expected_length("Eva vier", 0));
}

/// The system's words of a failure are told apart from hector's English framing, which the
/// player hears in the player's language instead.
#[test]
fn a_failure_keeps_the_systems_own_words_apart() {
    use crate::io::speech::backend::SpeechError;
    let failed = |reason: &str| SpeechError::Failed {
        backend: "espeak-ng",
        reason: reason.into(),
    };
    assert_eq!(
        failed("cannot connect (No such file or directory (os error 2))").system_words(),
        Some("No such file or directory (os error 2)".into())
    );
    assert_eq!(failed("espeak-ng --version failed").system_words(), None);
    assert_eq!(
        SpeechError::NoAudio {
            backend: "espeak-ng",
            detail: "ALSA lib pcm.c: Unknown PCM default".into()
        }
        .system_words(),
        Some("ALSA lib pcm.c: Unknown PCM default".into())
    );
}

// ---------------------------------------------------------------------------------------
// Which backends a choice tries, on each system.

fn plan_of(choice: BackendChoice, system: System) -> Vec<(BackendKind, bool)> {
    Plan::for_choice_on(choice, system)
        .iter()
        .map(|p| (p.kind(), matches!(p, Plan::IfRunning(_))))
        .collect()
}

/// Backends all tried in earnest.
fn earnest(kinds: &[BackendKind]) -> Vec<(BackendKind, bool)> {
    kinds.iter().map(|k| (*k, false)).collect()
}

#[test]
fn on_windows_auto_tries_nvda_then_jaws_in_passing_then_the_systems_voices() {
    use BackendKind::*;
    assert_eq!(
        plan_of(BackendChoice::Auto, System::Windows),
        [
            (Nvda, true),
            (Jaws, true),
            (Tts, false),
            (Sapi, false),
            (Print, false)
        ]
    );
}

#[test]
fn on_linux_and_elsewhere_the_plans_are_those_of_before() {
    use BackendKind::*;
    let linux = System::Linux;
    assert_eq!(
        plan_of(BackendChoice::Auto, linux),
        earnest(&[SpeechDispatcher, EspeakNg, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::SpeechDispatcher, linux),
        earnest(&[SpeechDispatcher, EspeakNg, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::EspeakNg, linux),
        earnest(&[EspeakNg, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::Tts, linux),
        earnest(&[Tts, EspeakNg, Print])
    );
    assert_eq!(plan_of(BackendChoice::Print, linux), earnest(&[Print]));
    assert_eq!(
        plan_of(BackendChoice::Auto, System::Other),
        earnest(&[Tts, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::SpeechDispatcher, System::Other),
        earnest(&[SpeechDispatcher, Tts, Print])
    );
    assert_eq!(System::THIS == System::Linux, cfg!(target_os = "linux"));
}

#[test]
fn a_backend_named_is_tried_first_in_earnest_then_the_systems_voices() {
    use BackendKind::*;
    let windows = System::Windows;
    assert_eq!(
        plan_of(BackendChoice::Nvda, windows),
        earnest(&[Nvda, Tts, Sapi, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::Jaws, windows),
        earnest(&[Jaws, Tts, Sapi, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::Sapi, windows),
        earnest(&[Sapi, Tts, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::Tts, windows),
        earnest(&[Tts, Sapi, Print])
    );
    assert_eq!(
        plan_of(BackendChoice::SpeechDispatcher, windows),
        earnest(&[SpeechDispatcher, Tts, Sapi, Print])
    );
    assert_eq!(plan_of(BackendChoice::Print, windows), earnest(&[Print]));
    assert_eq!(
        plan_of(BackendChoice::Nvda, System::Linux),
        earnest(&[Nvda, SpeechDispatcher, EspeakNg, Print])
    );
}

#[test]
fn only_a_screen_reader_that_is_simply_not_there_is_an_absence() {
    let not_running = SpeechError::NotRunning {
        backend: "NVDA",
        reason: "its controller client answered 1717".into(),
    };
    assert!(not_running.is_absence());
    let missing = |running| SpeechError::ClientMissing {
        backend: "NVDA",
        reason: "no file".into(),
        running,
    };
    assert!(missing(false).is_absence());
    // NVDA runs but hector cannot reach it: the player must hear why.
    assert!(!missing(true).is_absence());
    assert!(
        !SpeechError::Failed {
            backend: "NVDA",
            reason: "refused".into()
        }
        .is_absence()
    );
    assert!(SpeechError::NotOnThisSystem { backend: "JAWS" }.is_absence());
}

/// On Linux NVDA cannot be opened: tried in passing it is passed over without a word, named
/// it is said to be missing.
#[cfg(not(windows))]
#[test]
fn a_screen_reader_tried_in_passing_is_passed_over_in_silence_named_it_is_said() {
    let l = log();
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::IfRunning(BackendKind::Nvda),
        Plan::IfRunning(BackendKind::Jaws),
        Plan::Capture(l.clone(), Behaviour::Normal),
    ]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier"]);
    assert_eq!(
        notices.recv_timeout(LIMIT),
        Ok(Notice::Using(BackendKind::Capture, None))
    );

    let l = log();
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::Open(BackendKind::Nvda),
        Plan::Capture(l.clone(), Behaviour::Normal),
    ]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier"]);
    match notices.recv_timeout(LIMIT) {
        Ok(Notice::Switched {
            from, to, cause, ..
        }) => {
            assert_eq!(
                (from, to, cause),
                (
                    BackendKind::Nvda,
                    BackendKind::Capture,
                    Cause::NotOnThisSystem
                )
            );
        }
        other => panic!("expected a switch from NVDA, got {other:?}"),
    }
}

/// A screen reader cannot tell when it has finished: an urgent message silences it first,
/// and a stop reaches it even when hector thinks nothing is being said.
#[test]
fn a_backend_that_cannot_tell_the_end_is_silenced_before_urgent_and_on_every_stop() {
    let l = log();
    let (speaker, _notices) =
        Speaker::start(config(vec![Plan::Capture(l.clone(), Behaviour::Untimed)]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    speaker.urgent("Zeitüberschreitung");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(
        calls(&l),
        [
            Captured::Said {
                text: "Eva vier".into(),
                lang: "de".into()
            },
            Captured::Stopped,
            Captured::Said {
                text: "Zeitüberschreitung".into(),
                lang: "de".into()
            },
        ]
    );
    speaker.stop();
    assert!(speaker.wait_idle(LIMIT));
    let deadline = std::time::Instant::now() + LIMIT;
    while calls(&l).len() < 4 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(calls(&l).last(), Some(&Captured::Stopped));
    assert_eq!(calls(&l).len(), 4);
}

/// A screen reader that tells the end (NVDA 2024.1 and later): the next utterance, and so
/// its sounds, waits for the end of the one before; an urgent message still silences it
/// first, and the move it cut is said again; a stop still reaches it when idle.
#[test]
fn a_screen_reader_that_tells_the_end_is_waited_for_and_still_silenced() {
    let l = log();
    let polls = 30;
    let (speaker, _notices) = Speaker::start(config(vec![Plan::Capture(
        l.clone(),
        Behaviour::Reader(polls),
    )]));
    speaker.announce("Eva vier");
    speaker.announce("Schwarz: Eva fünf");
    wait_until_saying(&l, "Schwarz: Eva fünf");
    let times = l.lock().map(|l| l.speak_times.clone()).unwrap_or_default();
    let between = times[1].duration_since(times[0]);
    assert!(
        between >= POLL * polls,
        "the second began {between:?} after the first, before its end"
    );
    speaker.urgent("Zeitüberschreitung");
    assert!(speaker.wait_idle(LIMIT));
    let said_ = |t: &str| Captured::Said {
        text: t.into(),
        lang: "de".into(),
    };
    assert_eq!(
        calls(&l),
        [
            said_("Eva vier"),
            said_("Schwarz: Eva fünf"),
            Captured::Stopped,
            Captured::Stopped,
            said_("Zeitüberschreitung"),
            said_("Schwarz: Eva fünf"),
        ]
    );
    speaker.stop();
    let deadline = std::time::Instant::now() + LIMIT;
    while calls(&l).len() < 7 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(calls(&l).last(), Some(&Captured::Stopped));
}

/// A screen reader speaks at the player's rate, maybe after words of its own: slower than
/// hector's own estimate of the text is not a hang, and it is not given up for another.
#[test]
fn a_screen_reader_slower_than_hectors_estimate_is_not_taken_for_hung() {
    let l = log();
    let other = log();
    // 1.5 s for "Eva vier": longer than its length at hector's rate and the hang limit.
    let polls = 150;
    assert!(POLL * polls > expected_length("Eva vier", 0) + config(Vec::new()).hang_limit);
    let (speaker, notices) = Speaker::start(config(vec![
        Plan::Capture(l.clone(), Behaviour::Reader(polls)),
        Plan::Capture(other.clone(), Behaviour::Normal),
    ]));
    speaker.announce("Eva vier");
    speaker.announce("Eva fünf");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier", "Eva fünf"]);
    assert!(said(&other).is_empty(), "{:?}", said(&other));
    assert_eq!(
        notices.try_iter().collect::<Vec<_>>(),
        [Notice::Using(BackendKind::Capture, None)]
    );
}

/// A backend that tells the end is not stopped when nothing is being said (as before).
#[test]
fn a_backend_that_tells_the_end_is_not_stopped_when_silent() {
    let l = log();
    let (speaker, _notices) =
        Speaker::start(config(vec![Plan::Capture(l.clone(), Behaviour::Normal)]));
    speaker.announce("Eva vier");
    assert!(speaker.wait_idle(LIMIT));
    speaker.urgent("Zeitüberschreitung");
    assert!(speaker.wait_idle(LIMIT));
    speaker.stop();
    speaker.announce("Eva fünf");
    assert!(speaker.wait_idle(LIMIT));
    assert_eq!(said(&l), ["Eva vier", "Zeitüberschreitung", "Eva fünf"]);
    assert!(!calls(&l).contains(&Captured::Stopped), "{:?}", calls(&l));
}

#[test]
fn speech_dispatcher_plays_the_icons_every_other_backend_gets_the_sounds_to_play() {
    use crate::core::cue::Cue;
    let dir = std::env::temp_dir().join(format!("hector-sounds-for-{}", std::process::id()));
    let icons = dir.join("icons");
    std::fs::create_dir_all(&icons).expect("icon folder");
    let file = dir.join("capture.wav");
    // A PCM WAV header with one sample.
    let mut wav = b"RIFF\x26\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x22\x56\0\0\x44\xac\0\0\x02\0\x10\0data\x02\0\0\0".to_vec();
    wav.extend_from_slice(&100i16.to_le_bytes());
    std::fs::write(&file, &wav).expect("sound");
    let sounds = Sounds {
        dir: Some(dir.clone()),
        icon_folder: icons.clone(),
        clips: sounds::Clips::load(&dir, 100),
    };
    // speech-dispatcher, and its icon names (Unix paths), exist only on Unix.
    if cfg!(unix) {
        let (names, clips) = sounds_for(
            Some(&sounds),
            BackendKind::SpeechDispatcher,
            &[Cue::Capture],
        );
        assert_eq!((names.len(), clips.len()), (1, 0));
    }
    for kind in [
        BackendKind::EspeakNg,
        BackendKind::Print,
        BackendKind::Nvda,
        BackendKind::Sapi,
        BackendKind::Tts,
    ] {
        let (names, clips) = sounds_for(Some(&sounds), kind, &[Cue::Capture]);
        assert!(names.is_empty(), "{kind}");
        assert_eq!(
            clips.iter().map(|c| c.to_vec()).collect::<Vec<_>>(),
            [wav.clone()],
            "{kind}"
        );
    }
    // No icon folder: the way to the file does not exist, so hector plays it itself. (Windows
    // resolves ".." before it looks, so there the way would be found without the folder.)
    if cfg!(unix) {
        std::fs::remove_dir_all(&icons).expect("icons gone");
        let (names, clips) = sounds_for(
            Some(&sounds),
            BackendKind::SpeechDispatcher,
            &[Cue::Capture],
        );
        assert_eq!((names.len(), clips.len()), (0, 1));
    }
    // No cue, or sounds off: nothing.
    assert_eq!(
        sounds_for(Some(&sounds), BackendKind::EspeakNg, &[])
            .1
            .len(),
        0
    );
    assert_eq!(
        sounds_for(None, BackendKind::EspeakNg, &[Cue::Capture])
            .1
            .len(),
        0
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// A printed line waits only for sounds that will be heard: none when sounds are off, when
/// nothing is cued or a cue has no file; else as long as they last and a moment more, never
/// longer than [`SOUND_LIMIT`].
#[test]
fn a_line_waits_only_for_sounds_that_will_be_heard_and_never_long() {
    use crate::core::cue::Cue;
    let dir = std::env::temp_dir().join(format!("hector-sounds-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    // Mono 16-bit at 22050 Hz: 44100 bytes a second.
    let wav = |millis: u32| {
        let bytes = 44100 * millis / 1000;
        let mut w =
            b"RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x22\x56\0\0\x44\xac\0\0\x02\0\x10\0data"
                .to_vec();
        w.extend_from_slice(&bytes.to_le_bytes());
        w.resize(w.len() + bytes as usize, 0);
        w
    };
    std::fs::write(dir.join("move.wav"), wav(100)).expect("sound");
    std::fs::write(dir.join("end.wav"), wav(900)).expect("sound");
    let sounds = Sounds {
        dir: None,
        icon_folder: dir.join("icons"),
        clips: sounds::Clips::load(&dir, 100),
    };
    std::fs::remove_dir_all(&dir).expect("clean up");
    let (off, _) = Speaker::start(config(vec![Plan::Capture(log(), Behaviour::Normal)]));
    assert!(
        off.say_cued(Kind::Move, "Eva vier", "de", vec![Cue::Move])
            .is_none()
    );
    let mut with_sounds = config(vec![Plan::Capture(log(), Behaviour::Normal)]);
    with_sounds.sounds = Some(sounds);
    let (on, _) = Speaker::start(with_sounds);
    assert!(
        on.say_cued(Kind::Move, "Eva vier", "de", Vec::new())
            .is_none()
    );
    assert!(
        on.say_cued(Kind::Move, "Aus", "de", vec![Cue::Check])
            .is_none()
    );
    let limit = |cues| {
        on.say_cued(Kind::Move, "Eva vier", "de", cues)
            .map(|e| e.limit)
    };
    assert_eq!(
        limit(vec![Cue::Move]),
        Some(Duration::from_millis(100) + SOUND_MARGIN)
    );
    assert_eq!(limit(vec![Cue::Move, Cue::End]), Some(SOUND_LIMIT));
}
