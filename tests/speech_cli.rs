//! Speech that really happens: hector against a private speech-dispatcher with a capturing
//! output module, a module that hangs, espeak-ng writing WAV files, and the print backend.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::cues::{played_until, sound_config, step};
use common::{SpeechDaemon, run_with, temp_dir};

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn say_reaches_speech_dispatcher_in_german() {
    let daemon = SpeechDaemon::capturing();
    let address = daemon.address();
    let r = run_with(
        &[
            "say",
            "--backend",
            "speech-dispatcher",
            "--lang",
            "de",
            "Springer Felix drei",
        ],
        b"",
        &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(daemon.wait_for(1, LIMIT), ["de|Springer Felix drei"]);
    assert!(
        r.stderr.contains("Sprachausgabe: speech-dispatcher"),
        "{}",
        r.stderr
    );
}

#[test]
fn queued_announcements_arrive_complete_and_in_order() {
    let daemon = SpeechDaemon::capturing();
    let address = daemon.address();
    let phrases = [
        "Eva four",
        "Eva five",
        "Knight Felix three",
        "Knight Cesar six",
        "Bishop Bella five",
        "Pawn takes Cesar six",
        "short castling",
        "Queen takes Felix seven, checkmate",
    ];
    let mut args = vec!["say", "--lang", "en"];
    args.extend(phrases);
    let r = run_with(
        &args,
        b"",
        &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let expected: Vec<String> = phrases.iter().map(|p| format!("en|{p}")).collect();
    // What hector printed says why, if it went on with another backend.
    assert_eq!(
        daemon.wait_for(phrases.len(), LIMIT),
        expected,
        "{}{}",
        r.stdout,
        r.stderr
    );
}

#[test]
fn a_hanging_module_does_not_hold_hector_up() {
    let daemon = SpeechDaemon::hanging();
    let address = daemon.address();
    // The run's limit is the bound: a hector held up by the module fails it.
    let r = run_with(
        &["say", "--lang", "de", "Springer Felix drei"],
        b"",
        &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
        Duration::from_secs(30),
    );
    // The fallback finished the job: espeak-ng where there is a sound card, print where not.
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("speech-dispatcher antwortet nicht, weiter mit espeak-ng"),
        "{}",
        r.stderr
    );
    if r.stderr.contains("weiter mit print") {
        assert_eq!(r.stdout, "Springer Felix drei\n");
        // Without a sound card espeak-ng is said to have none, not to hang.
        assert!(
            r.stderr
                .contains("espeak-ng findet keinen Tonausgang, weiter mit print"),
            "{}",
            r.stderr
        );
    } // Every line in German: hector's English framing of the failure is not printed, and the
    // system's own words are named as such.
    for english in ["did not answer", "has no audio output", "did not finish"] {
        assert!(!r.stderr.contains(english), "{}", r.stderr);
    }
    for line in r.stderr.lines().filter(|l| l.starts_with("hector: ")) {
        assert!(
            line.contains("weiter mit")
                || line.starts_with("hector: Sprachausgabe: ")
                || line.starts_with("hector: Meldung des Systems: "),
            "{line}\n{}",
            r.stderr
        );
    }
    // The same in English.
    let r = run_with(
        &["say", "--lang", "en", "Knight Felix three"],
        b"",
        &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
        Duration::from_secs(30),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("speech-dispatcher does not answer, going on with espeak-ng"),
        "{}",
        r.stderr
    );
    for line in r.stderr.lines().filter(|l| l.starts_with("hector: ")) {
        assert!(
            line.contains("going on with")
                || line.starts_with("hector: Speech: ")
                || line.starts_with("hector: The system says: "),
            "{line}\n{}",
            r.stderr
        );
    }
}

#[test]
fn print_backend_writes_plain_lines() {
    let r = run_with(
        &["say", "--backend", "print", "Eva vier", "Eva fünf"],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, "Eva vier\nEva fünf\n");
    assert!(!r.stdout.contains('\u{1b}'), "no control sequences");
    // One announcement per line from standard input.
    let r = run_with(
        &["say", "--backend", "print", "-"],
        b"Dame David eins\n\nKurze Rochade\n",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.stdout, "Dame David eins\nKurze Rochade\n");
}

/// Reads a PCM WAV file: (sample rate, 16-bit samples).
fn read_wav(bytes: &[u8]) -> (u32, Vec<i16>) {
    assert_eq!(&bytes[0..4], b"RIFF");
    assert_eq!(&bytes[8..12], b"WAVE");
    let mut pos = 12;
    let mut rate = 0;
    let mut samples = Vec::new();
    while pos + 8 <= bytes.len() {
        let id = &bytes[pos..pos + 4];
        let len = u32::from_le_bytes(bytes[pos + 4..pos + 8].try_into().expect("4 bytes")) as usize;
        let body = &bytes[pos + 8..(pos + 8 + len).min(bytes.len())];
        if id == b"fmt " {
            assert_eq!(u16::from_le_bytes([body[0], body[1]]), 1, "PCM");
            assert_eq!(u16::from_le_bytes([body[14], body[15]]), 16, "16 bits");
            rate = u32::from_le_bytes(body[4..8].try_into().expect("4 bytes"));
        } else if id == b"data" {
            samples = body
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
        }
        pos += 8 + len + (len & 1);
    }
    (rate, samples)
}

#[test]
fn espeak_ng_writes_an_audible_wav() {
    let dir = temp_dir("wav");
    let file = dir.join("out.wav");
    let r = run_with(
        &[
            "say",
            "--lang",
            "de",
            "--wav",
            file.to_str().expect("path"),
            "Springer Felix drei",
        ],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let (rate, samples) = read_wav(&std::fs::read(&file).expect("wav written"));
    assert!(rate >= 8000, "sample rate {rate}");
    let seconds = samples.len() as f64 / f64::from(rate);
    // Three words: somewhere between half a second and five seconds.
    assert!((0.5..5.0).contains(&seconds), "{seconds} s");
    let rms =
        (samples.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / samples.len() as f64).sqrt();
    assert!(rms > 300.0, "too quiet to be speech: rms {rms}");
    let loud = samples.iter().filter(|s| s.unsigned_abs() > 2000).count();
    assert!(loud > samples.len() / 20, "mostly silence");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn voices_lists_the_daemons_voices_without_waiting_long() {
    let daemon = SpeechDaemon::capturing();
    let address = daemon.address();
    let r = run_with(
        &["voices", "--lang", "de"],
        b"",
        &[("SPEECHD_ADDRESS", &address)],
        LIMIT,
    );
    assert!(
        r.stdout.contains("speech-dispatcher: de (de)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("espeak-ng: German (de)"), "{}", r.stdout);
}

#[test]
fn a_broken_config_file_is_reported_and_the_defaults_are_used() {
    let dir = temp_dir("config");
    let file = dir.join("config.toml");
    std::fs::write(&file, "[speech]\nrate = 500\n").expect("write");
    let r = run_with(
        &["say", "--backend", "print", "Eva vier"],
        b"",
        &[("HECTOR_CONFIG", file.to_str().expect("path"))],
        LIMIT,
    );
    assert_eq!(r.code, Some(0));
    assert_eq!(r.stdout, "Eva vier\n");
    assert!(
        r.stderr
            .contains("speech.rate 500; erlaubt sind -100 bis 100, es gelten die Voreinstellungen"),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("kept"),
        "[speech]\nrate = 500\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Spanish, French and Dutch: each phrase reaches speech-dispatcher with its language (the
/// capturing module records the language it was asked to speak), espeak-ng has a voice for
/// it, and hector's own line about the speech output is in that language.
#[test]
fn every_new_language_is_spoken_with_its_own_voice() {
    let daemon = SpeechDaemon::capturing();
    let address = daemon.address();
    let cases = [
        ("es", "Caballo Felix tres", "Voz: speech-dispatcher"),
        ("fr", "Cavalier Felix trois", "Parole : speech-dispatcher"),
        ("nl", "Paard Felix drie", "Spraak: speech-dispatcher"),
    ];
    let mut expected = Vec::new();
    for (code, phrase, using) in cases {
        let r = run_with(
            &[
                "say",
                "--backend",
                "speech-dispatcher",
                "--lang",
                code,
                phrase,
            ],
            b"",
            &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{code}: {}", r.stderr);
        assert!(r.stderr.contains(using), "{code}: {}", r.stderr);
        expected.push(format!("{code}|{phrase}"));
        assert_eq!(daemon.wait_for(expected.len(), LIMIT), expected);
        let r = run_with(
            &["voices", "--lang", code],
            b"",
            &[("SPEECHD_ADDRESS", &address)],
            LIMIT,
        );
        let espeak = format!("({code})");
        assert!(
            r.stdout
                .lines()
                .any(|l| l.starts_with("espeak-ng: ") && l.contains(&espeak)),
            "{code}: {}",
            r.stdout
        );
    }
}

/// espeak-ng speaks each new language into a WAV file that holds speech, not silence.
#[test]
fn espeak_ng_speaks_spanish_french_and_dutch() {
    let dir = temp_dir("wav-languages");
    for (code, phrase) in [
        ("es", "Caballo Felix tres"),
        ("fr", "Cavalier Felix trois"),
        ("nl", "Paard Felix drie"),
    ] {
        let file = dir.join(format!("{code}.wav"));
        let r = run_with(
            &[
                "say",
                "--lang",
                code,
                "--wav",
                file.to_str().expect("path"),
                phrase,
            ],
            b"",
            &[("HECTOR_CONFIG", "")],
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{code}: {}", r.stderr);
        let (rate, samples) = read_wav(&std::fs::read(&file).expect("wav written"));
        assert!(rate >= 8000, "{code}: sample rate {rate}");
        let seconds = samples.len() as f64 / f64::from(rate);
        assert!((0.5..5.0).contains(&seconds), "{code}: {seconds} s");
        let loud = samples.iter().filter(|s| s.unsigned_abs() > 2000).count();
        assert!(loud > samples.len() / 20, "{code}: mostly silence");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// White: king e1, rook h1, pawns b7 and e4; Black: king d8, pawns d5 and h7.
const CUE_FEN: &str = "3k4/1P5p/8/3p4/4P3/8/8/4K2R w K - 0 1";

/// The sounds of a game, through speech-dispatcher's sound icons as the player would hear
/// them: after each action the icon comes before its words, in the daemon's one queue; a
/// refused move, castling, a capture, a promotion that checks, the end.
#[test]
fn each_event_of_a_game_is_heard_as_its_sound_before_its_words() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("cues");
    let config = sound_config(data.path(), &daemon, "");
    let mut t = common::Env::player(data.path())
        .speech(&daemon)
        .config_file(&config)
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn_80x24(&[
            "play",
            "--fen",
            CUE_FEN,
            "--opponent",
            "keyboard",
            "--speech",
            "speech-dispatcher",
        ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    // The position is read out first.
    played_until(&daemon, 0, "de| Weiß ist am Zug");
    step(
        &mut t,
        &daemon,
        b"Ke3\r",
        "de|",
        &["icon|illegal", "de|Kein König kann Eva drei erreichen"],
    );
    step(
        &mut t,
        &daemon,
        b"O-O\r",
        "de|",
        &["icon|castle", "de|Kurze Rochade"],
    );
    step(
        &mut t,
        &daemon,
        b"h6\r",
        "de|",
        &["icon|move", "de|Schwarz: Hector sechs"],
    );
    step(
        &mut t,
        &daemon,
        b"exd5\r",
        "de|",
        &["icon|capture", "de|Eva schlägt David fünf"],
    );
    step(
        &mut t,
        &daemon,
        b"h5\r",
        "de|",
        &["icon|move", "de|Schwarz: Hector fünf"],
    );
    step(
        &mut t,
        &daemon,
        b"b8=Q\r",
        "de|",
        &[
            "icon|promotion-check",
            "de|Bella acht, Umwandlung in Dame, Schach",
        ],
    );
    step(
        &mut t,
        &daemon,
        b"Kd7\r",
        "de|",
        &["icon|move", "de|Schwarz: König David sieben"],
    );
    // On the board (Tab) from e2: down to e1, then down again is the edge, heard as its sound
    // before its word; back to the input line.
    let from = daemon.spoken().len();
    t.send(b"\t");
    played_until(&daemon, from, "de|");
    let from = daemon.spoken().len();
    t.send(b"\x1b[B");
    played_until(&daemon, from, "de|Eva eins");
    let from = daemon.spoken().len();
    t.send(b"\x1b[B");
    assert_eq!(played_until(&daemon, from, "de|"), ["icon|edge", "de|Rand"]);
    let from = daemon.spoken().len();
    t.send(b"\t");
    played_until(&daemon, from, "de|");
    step(
        &mut t,
        &daemon,
        b"aufgeben\r",
        "de|",
        &["de|Wirklich aufgeben? Ja oder nein"],
    );
    step(
        &mut t,
        &daemon,
        b"ja\r",
        "de| Schwarz gewinnt",
        &[
            "icon|end",
            "de|Partie beendet: Aufgabe.",
            "de| Schwarz gewinnt",
        ],
    );
    t.send(&[0x11]);
    let _ = t.wait_exit(LIMIT);
}

/// `--sound off` plays no sound where the capture had one; `--cues-only-for captures` keeps
/// the capture's sound and leaves its word out.
#[test]
fn sound_off_plays_none_and_cues_only_for_leaves_the_word_to_the_sound() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("cues-options");
    let config = sound_config(data.path(), &daemon, "");
    let game = |options: &[&str], expected: &[&str]| {
        let mut args = vec![
            "play",
            "--fen",
            CUE_FEN,
            "--opponent",
            "keyboard",
            "--speech",
            "speech-dispatcher",
        ];
        args.extend_from_slice(options);
        let from = daemon.spoken().len();
        let mut t = common::Env::player(data.path())
            .speech(&daemon)
            .config_file(&config)
            // hector's own sounds, found beside the binary.
            .var("HECTOR_SOUNDS", "")
            .spawn_80x24(&args);
        t.expect_screen("Zug oder Befehl:", LIMIT);
        played_until(&daemon, from, "de| Weiß ist am Zug");
        let from = daemon.spoken().len();
        t.send(b"exd5\r");
        let played = played_until(&daemon, from, "de|Eva");
        assert_eq!(played, expected, "with {options:?}");
        t.quit_saying_ja(LIMIT);
    };
    game(&["--sound", "off"], &["de|Eva schlägt David fünf"]);
    game(
        &["--cues-only-for", "captures"],
        &["icon|capture", "de|Eva David fünf"],
    );
    // Nothing played a sound while sounds were off.
    let first_game: Vec<String> = daemon
        .spoken()
        .into_iter()
        .take_while(|l| l != "de|Eva schlägt David fünf")
        .collect();
    assert!(
        first_game.iter().all(|l| !l.starts_with("icon|")),
        "{first_game:?}"
    );
}

/// A bad `[sound]` value is named with its key, what the file wrote and what is allowed, in
/// the player's language, as a bad speech value is; the defaults apply and the file stays.
#[test]
fn a_bad_sound_value_is_named_with_its_key_in_the_players_language() {
    let dir = temp_dir("config-sound");
    let file = dir.join("config.toml");
    for (lang, text, expected) in [
        (
            "de",
            "[sound]\nvolume = \"loud\"\n",
            "sound.volume \"loud\"; erlaubt sind 0 bis 100, es gelten die Voreinstellungen",
        ),
        (
            "en",
            "[sound]\nlow_clock = \"soon\"\n",
            "sound.low_clock is \"soon\"; it must be between 0 and 3600 seconds",
        ),
        (
            "fr",
            "[sound]\nonly_for = [\"captures\", \"moves\"]\n",
            "sound.only_for nomme \"moves\" ; il peut nommer « captures » et « check »",
        ),
        (
            "nl",
            "[sound]\nicon_folder = 3\n",
            "sound.icon_folder 3; die moet een map tussen aanhalingstekens zijn",
        ),
        // A screen reader's rate no voice speaks at.
        (
            "es",
            "[speech]\nscreen_reader_rate = 5000\n",
            "speech.screen_reader_rate es 5000; debe estar entre 60 y 900 palabras por minuto",
        ),
        // A syntax error: its line and the reader's short reason, on one line.
        (
            "de",
            "[speech]\nrate = 1\nrate = 2\n",
            "nicht verwendet, Zeile 3: duplicate key\n",
        ),
    ] {
        std::fs::write(&file, text).expect("write");
        let r = run_with(
            &["say", "--backend", "print", "--lang", lang, "Eva vier"],
            b"",
            &[("HECTOR_CONFIG", file.to_str().expect("path"))],
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{lang}: {}", r.stderr);
        assert_eq!(r.stdout, "Eva vier\n", "{lang}");
        assert!(r.stderr.contains(expected), "{lang}: {}", r.stderr);
        assert!(!r.stderr.contains("TOML"), "{lang}: {}", r.stderr);
        assert_eq!(std::fs::read_to_string(&file).expect("kept"), text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `hector say` speaks a bad configuration value first too, before its phrases, in the
/// player's language; printed once on standard error, never among the phrases.
#[test]
fn hector_say_speaks_a_bad_configuration_value_first() {
    let daemon = SpeechDaemon::capturing();
    let dir = temp_dir("config-say");
    let config = dir.join("config.toml");
    std::fs::write(&config, "[speech]\nrate = 500\n").expect("config");
    let address = daemon.address();
    let r = run_with(
        &[
            "say",
            "--backend",
            "speech-dispatcher",
            "--lang",
            "en",
            "Eva four",
        ],
        b"",
        &[
            ("HECTOR_CONFIG", config.to_str().expect("path")),
            ("SPEECHD_ADDRESS", address.as_str()),
        ],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    let heard = played_until(&daemon, 0, "en|Eva four");
    assert!(
        heard[0].starts_with("en|In ") && heard[0].contains("speech.rate is 500"),
        "{heard:?}"
    );
    assert_eq!(heard.len(), 2, "{heard:?}");
    assert_eq!(r.stderr.matches("speech.rate").count(), 1, "{}", r.stderr);
    // With the print backend the phrases alone are printed.
    let r = run_with(
        &["say", "--backend", "print", "--lang", "en", "Eva four"],
        b"",
        &[("HECTOR_CONFIG", config.to_str().expect("path"))],
        LIMIT,
    );
    assert_eq!(r.stdout, "Eva four\n", "{}", r.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad value in the configuration file is spoken too, not only printed: on the full screen
/// the daemon hears it first, before the game's greeting, in the player's language.
#[test]
fn a_bad_configuration_value_is_spoken_first_by_a_mode() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("config-spoken");
    let config = data.path().join("config.toml");
    std::fs::write(&config, "[speech]\nrate = 500\n").expect("config");
    let mut t = common::Env::player(data.path())
        .speech(&daemon)
        .config_file(&config)
        .spawn_80x24(&[
            "play",
            "--opponent",
            "keyboard",
            "--speech",
            "speech-dispatcher",
        ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    let heard = played_until(&daemon, 0, "de| Weiß ist am Zug");
    assert!(
        heard[0].starts_with("de|In ")
            && heard[0].ends_with(
                "ist speech.rate 500; erlaubt sind -100 bis 100, es gelten die Voreinstellungen"
            ),
        "{heard:?}"
    );
    assert!(heard[1].starts_with("de|Sie spielen"), "{heard:?}");
    // Said once.
    assert_eq!(
        heard.iter().filter(|l| l.contains("speech.rate")).count(),
        1,
        "{heard:?}"
    );
    t.quit_saying_ja(LIMIT);
}

/// `--sound-volume` reaches the sounds speech-dispatcher plays: its module is given hector's
/// copy of the capture sound scaled to 40 percent (speech-dispatcher has no volume of its
/// own for icons), and at 0 no sound at all while the words still come.
#[test]
fn the_sound_volume_is_the_volume_of_the_file_the_daemon_plays() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("cues-volume");
    let config = sound_config(data.path(), &daemon, "");
    let capture = |volume: &str, last: &str| {
        let from = daemon.spoken().len();
        let mut t = common::Env::player(data.path())
            .speech(&daemon)
            .config_file(&config)
            // hector's own sounds, found beside the binary.
            .var("HECTOR_SOUNDS", "")
            .spawn_80x24(&[
                "play",
                "--fen",
                CUE_FEN,
                "--opponent",
                "keyboard",
                "--speech",
                "speech-dispatcher",
                "--sound-volume",
                volume,
            ]);
        played_until(&daemon, from, "de| Weiß ist am Zug");
        let from = daemon.spoken().len();
        t.send(b"exd5\r");
        let played = played_until(&daemon, from, last);
        t.quit_saying_ja(LIMIT);
        played
    };
    let played = capture("40", "de|Eva");
    assert_eq!(played, ["icon|capture", "de|Eva schlägt David fünf"]);
    let files = daemon.icon_files();
    let played_file = files.last().expect("a file played");
    let (_, quiet) = read_wav(&std::fs::read(played_file).expect("the file played"));
    let original =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds/capture.wav");
    let (_, loud) = read_wav(&std::fs::read(original).expect("hector's capture sound"));
    assert_eq!(quiet.len(), loud.len(), "{}", played_file.display());
    let peak = |s: &[i16]| s.iter().map(|x| i32::from(*x).abs()).max().unwrap_or(0);
    let (quiet, loud) = (peak(&quiet), peak(&loud));
    assert!(loud > 1000, "the capture sound is silent");
    assert!(
        (quiet * 100 - loud * 40).abs() <= 100,
        "peak {quiet} at 40 percent of {loud}: {}",
        played_file.display()
    );
    // At 0 no file is played; the words come as before.
    let before = daemon.icon_files().len();
    let played = capture("0", "de|Eva");
    assert_eq!(played, ["de|Eva schlägt David fünf"]);
    assert_eq!(daemon.icon_files().len(), before);
}

/// A folder of programs to be hector's whole PATH: `espeak-ng`, which notes each text it is
/// given as "words|TEXT" in `log` and has the real espeak-ng speak it into nothing (no sound
/// card needed); and for each of `players` a program of that name that keeps the WAV it gets
/// on standard input as `sound-N.wav` (N: the line it notes) and notes "sound|NAME ARGS|BYTES"
/// then, or with `working` false notes "tried|NAME" and fails as a player without a sound
/// card does.
fn sound_programs(dir: &std::path::Path, log: &std::path::Path, players: &[&str], working: bool) {
    use std::os::unix::fs::PermissionsExt;
    let espeak = common::find_program("espeak-ng").expect("espeak-ng is installed");
    let write = |name: &str, script: String| {
        let path = dir.join(name);
        std::fs::write(&path, script).expect("program");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("mode");
    };
    write(
        "espeak-ng",
        format!(
            "#!/bin/sh\nPATH=/usr/bin:/bin\ncase \" $* \" in *' --stdin '*) ;; *) exec {espeak} \"$@\" ;; esac\n\
             text=$(cat)\nprintf 'words|%s\\n' \"$text\" >> {log}\n\
             printf '%s' \"$text\" | {espeak} \"$@\" --stdout > /dev/null\n",
            espeak = espeak.display(),
            log = log.display()
        ),
    );
    for player in players {
        let body = if working {
            format!(
                "n=$(wc -l < {log} 2>/dev/null || echo 0)\ncat > {dir}/sound-$n.wav\n\
                 printf 'sound|%s|%s\\n' \"{player} $*\" \"$(wc -c < {dir}/sound-$n.wav)\" >> {log}\n",
                log = log.display(),
                dir = dir.display()
            )
        } else {
            format!(
                "cat > /dev/null\nprintf 'tried|{player}\\n' >> {log}\n\
                 echo 'audio open error: No such file or directory' >&2\nexit 1\n",
                log = log.display()
            )
        };
        write(player, format!("#!/bin/sh\nPATH=/usr/bin:/bin\n{body}"));
    }
}

/// The lines of `log` after line `from`, once one starting with `last` has come.
fn logged_until(log: &std::path::Path, from: usize, last: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let lines: Vec<String> = std::fs::read_to_string(log)
            .unwrap_or_default()
            .lines()
            .skip(from)
            .map(str::to_string)
            .collect();
        if lines.iter().any(|l| l.starts_with(last)) {
            return lines;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not logged {last:?}; logged:\n{}",
            lines.join("\n")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn log_len(log: &std::path::Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |s| s.lines().count())
}

/// hector's sound file `name` with its samples at `volume` percent, as the test computes it.
fn scaled_sound(name: &str, volume: i32) -> Vec<u8> {
    let mut bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/sounds/{name}.wav")),
    )
    .expect("sound file");
    let data = bytes
        .windows(4)
        .position(|w| w == b"data")
        .expect("data chunk")
        + 8;
    for i in (data..bytes.len() - 1).step_by(2) {
        let s = i32::from(i16::from_le_bytes([bytes[i], bytes[i + 1]]));
        let scaled = (s * volume / 100) as i16;
        bytes[i..i + 2].copy_from_slice(&scaled.to_le_bytes());
    }
    bytes
}

/// With espeak-ng, hector plays its sounds itself: after each action the player program gets
/// the cue's WAV at the player's volume on its standard input, and has ended before the words
/// are handed to espeak-ng. PulseAudio's paplay is absent here; PipeWire's pw-play comes
/// before ALSA's aplay.
#[test]
fn with_espeak_ng_hectors_own_player_plays_each_sound_before_its_words() {
    let data = temp_dir("own-sounds");
    let bin = data.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let log = data.path().join("heard.txt");
    sound_programs(&bin, &log, &["pw-play", "aplay"], true);
    let mut t = common::Env::player(data.path())
        .var("PATH", &bin.display().to_string())
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn_80x24(&[
            "play",
            "--fen",
            CUE_FEN,
            "--opponent",
            "keyboard",
            "--speech",
            "espeak-ng",
            "--sound-volume",
            "50",
        ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    logged_until(&log, 0, "words|Sie spielen Weiß");
    for (line, sound, words) in [
        (
            &b"Ke3\r"[..],
            "illegal",
            "words|Kein König kann Eva drei erreichen",
        ),
        (b"O-O\r", "castle", "words|Kurze Rochade"),
        (b"h6\r", "move", "words|Schwarz: Hector sechs"),
        (b"exd5\r", "capture", "words|Eva schlägt David fünf"),
    ] {
        let from = log_len(&log);
        t.send(line);
        let heard = logged_until(&log, from, "words|");
        let expected = scaled_sound(sound, 50);
        assert_eq!(
            heard,
            [
                format!("sound|pw-play -|{}", expected.len()),
                words.to_string()
            ],
            "after {:?}",
            String::from_utf8_lossy(line)
        );
        let played = std::fs::read(bin.join(format!("sound-{from}.wav"))).expect("the WAV played");
        assert!(
            played == expected,
            "after {:?}: the {sound} sound at half its volume was not what the player got",
            String::from_utf8_lossy(line)
        );
    }
    t.quit_saying_ja(LIMIT);
}

/// Where no sound can be played, nothing waits: with a player that fails as one without a
/// sound card does, it is tried once and given up; with no player at all, none is looked
/// for again. Either way the moves are said, and that the sounds cannot be played is said
/// once.
#[test]
fn where_no_sound_can_be_played_the_game_goes_on_and_says_so_once() {
    let unplayable = "words|Klänge können hier nicht abgespielt werden";
    for (case, players) in [("a failing player", &["aplay"][..]), ("no player", &[][..])] {
        let data = temp_dir("no-sounds");
        let bin = data.path().join("bin");
        std::fs::create_dir_all(&bin).expect("bin");
        let log = data.path().join("heard.txt");
        sound_programs(&bin, &log, players, false);
        let mut t = common::Env::player(data.path())
            .var("PATH", &bin.display().to_string())
            .var("HECTOR_SOUNDS", "")
            .spawn_80x24(&[
                "play",
                "--fen",
                CUE_FEN,
                "--opponent",
                "keyboard",
                "--speech",
                "espeak-ng",
            ]);
        assert!(
            t.wait_for_screen("Zug oder Befehl:", LIMIT),
            "{case}: {}",
            t.screen()
        );
        // The first sound fails: after the castling's words, that sounds cannot be played
        // (an answer, which typing would replace, so it is waited for).
        let from = log_len(&log);
        t.send(b"O-O\r");
        let heard = logged_until(&log, from, unplayable);
        assert!(
            heard.iter().any(|l| l == "words|Kurze Rochade"),
            "{case}: {heard:?}"
        );
        for (line, words) in [
            (&b"h6\r"[..], "words|Schwarz: Hector sechs"),
            (b"exd5\r", "words|Eva schlägt David fünf"),
        ] {
            let from = log_len(&log);
            t.send(line);
            logged_until(&log, from, words);
        }
        let heard = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(
            heard.lines().filter(|l| l.starts_with(unplayable)).count(),
            1,
            "{case}:\n{heard}"
        );
        assert_eq!(
            heard.lines().filter(|l| l.starts_with("tried|")).count(),
            players.len(),
            "{case}: a failing player is tried once\n{heard}"
        );
        t.send(&[0x11]);
        assert!(
            t.wait_for_screen("Wirklich beenden?", LIMIT),
            "{case}: {}",
            t.screen()
        );
        t.send(b"ja\r");
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{case}: {}", t.all_output());
    }
}

/// In line mode a screen reader reads each printed line the moment it appears, so a line
/// whose sound hector plays itself appears only once that sound has ended. The player
/// program here takes a twentieth of a second more than it needs to start, shorter than the
/// shortest sound so that a loaded machine's slow start stays inside hector's bound, and
/// notes the instant it ended; each move's line must reach the terminal after that instant.
#[test]
fn in_line_mode_a_line_is_printed_after_its_sound_has_ended() {
    use std::os::unix::fs::PermissionsExt;
    let data = temp_dir("line-sounds");
    let bin = data.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let log = data.path().join("played.txt");
    let player = bin.join("aplay");
    std::fs::write(
        &player,
        format!(
            "#!/bin/sh\nPATH=/usr/bin:/bin\ncat > /dev/null\nsleep 0.05\n\
             printf 'sound|%s\\n' \"$(date +%s%N)\" >> {}\n",
            log.display()
        ),
    )
    .expect("player");
    std::fs::set_permissions(&player, std::fs::Permissions::from_mode(0o755)).expect("mode");
    let mut t = common::Env::player(data.path())
        .var("PATH", &bin.display().to_string())
        .var("HECTOR_SOUNDS", "")
        .spawn_80x24(&[
            "play",
            "--fen",
            CUE_FEN,
            "--opponent",
            "keyboard",
            "--screen-reader",
        ]);
    t.expect("Zug oder Befehl: ", LIMIT);
    for (line, words) in [
        (&b"Ke3\r"[..], "Kein König kann Eva drei erreichen"),
        (b"O-O\r", "Kurze Rochade"),
        (b"h6\r", "Schwarz: Hector sechs"),
        (b"exd5\r", "Eva schlägt David fünf"),
    ] {
        let from = log_len(&log);
        t.send(line);
        let arrived = t.wait_for(words, LIMIT).expect("the move's line");
        // The instant the line's last byte arrived, on the clock the player's `date` reads.
        let arrived = std::time::SystemTime::now() - arrived.elapsed();
        let arrived = arrived
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_nanos();
        let played = logged_until(&log, from, "sound|");
        assert_eq!(played.len(), 1, "one sound for {words:?}: {played:?}");
        let ended: u128 = played[0]["sound|".len()..].parse().expect("nanoseconds");
        assert!(
            ended < arrived,
            "{words:?} was printed {} ms before its sound ended",
            (ended - arrived) / 1_000_000
        );
    }
    t.send(b"ende\r");
    t.expect("Wirklich beenden?", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
