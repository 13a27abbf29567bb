//! Voice input measured on what it was not tuned on: recordings made at test time by other
//! espeak-ng voices (other regions and variants), speeds and pitches than the tuning set of
//! tests/common/voice.rs, of random positions' legal moves said in the words of
//! tests/common/words.rs (written from the sources, not hector's tables), heard by the real
//! binary (`hector listen`) and the real recogniser. None may be played wrong, and at least
//! nine in ten must be understood: played, or asked back naming the move said. And a
//! recording is decided the same way every time it is heard, whatever was heard before it.

// Voice input is hector's on Unix only.
#![cfg(unix)]
#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]

mod common;
#[path = "common/voice.rs"]
mod recordings;

use std::path::{Path, PathBuf};

use common::{Run, run, temp_dir, words};
use hector::core::notation::language;
use hector::core::variant::{Variant, position_from_fen};
use hector::core::voice::decide::{Decision, Judgement, MoveDecodes, Settings, judge_move};
use hector::core::voice::grammar::Heard;
use hector::io::voice::model;
use hector::io::voice::recogniser::Recogniser;
use hector::io::voice::source::Recording;
use recordings::{Rendition, Seeded, Spoken, record, said_phrases};

fn listen(file: &Path, code: &str, fen: &str) -> Run {
    run(&[
        "listen",
        file.to_str().expect("path"),
        "--lang",
        code,
        "--fen",
        fen,
    ])
}

/// `n` hold-out recordings of `code` (seeded: the same every run), with what each says.
fn holdout(dir: &Path, code: &str, seed: u64, n: usize) -> Vec<(PathBuf, Spoken, String)> {
    let w = words::of(code);
    let mut rng = Seeded::new(seed + 100);
    said_phrases(seed, n, |pos, m| w.short(pos, m))
        .into_iter()
        .enumerate()
        .map(|(i, spoken)| {
            let how = Rendition::holdout(code, i, &mut rng);
            let wav = record(dir, &format!("{code}{i}"), &spoken.text, how).expect("a recording");
            (wav, spoken, format!("{how:?}"))
        })
        .collect()
}

/// What became of each recording of `code`: none played as another move, and at least nine
/// in ten played or asked back naming the move said (first, or second of two).
fn understood_and_never_wrong(code: &str, seed: u64, n: usize) {
    let dir = temp_dir("voice-holdout");
    let (mut right, mut asked, mut missed) = (0, 0, Vec::new());
    for (wav, spoken, how) in holdout(dir.path(), code, seed, n) {
        let r = listen(&wav, code, &spoken.fen);
        let first = r.stdout.split('\t').next().unwrap_or("").to_string();
        match r.code {
            Some(0) => {
                assert_eq!(
                    first, spoken.uci,
                    "{spoken:?} said by {how} was played as another move: {}",
                    r.stdout
                );
                right += 1;
            }
            // Asked back naming the move said, first or as the second of two.
            Some(3)
                if first == format!("{}?", spoken.uci)
                    || r.stdout.split('\t').nth(1) == Some(&format!("{}?", spoken.uci)) =>
            {
                asked += 1
            }
            Some(1 | 3) => missed.push(format!("{} ({how}): {}", spoken.text, r.stdout.trim())),
            _ => panic!("{spoken:?}: {:?}", (r.code, &r.stdout, &r.stderr)),
        }
    }
    eprintln!(
        "{code}: {right} played right, {asked} asked back right, {} not: {missed:#?}",
        missed.len()
    );
    assert!(
        (right + asked) * 10 >= n * 9,
        "{code}: only {right} played and {asked} asked back right of {n}: {missed:#?}"
    );
    assert!(right > 0, "{code}: no move played at all");
}

#[test]
fn english_holdout_is_understood_and_never_played_wrong() {
    understood_and_never_wrong("en", 37, 20);
}

#[test]
fn german_holdout_is_understood_and_never_played_wrong() {
    understood_and_never_wrong("de", 38, 20);
}

/// A recording heard by one recogniser as `hector listen` hears it: the phrase cut out, its
/// decodes and the decision.
fn hear(rec: &mut Recogniser, spoken: &Spoken, samples: &[i16]) -> (MoveDecodes, Judgement) {
    let pos = position_from_fen(&spoken.fen, Variant::Standard).expect("the FEN");
    let mut source = Recording::from_samples(samples.to_vec());
    let u = rec
        .phrase(&mut source, &|| false)
        .expect("a phrase")
        .expect("speech in the recording");
    let t = rec.hear_move(&pos, &u.samples).expect("decodes");
    let j = judge_move(&pos, rec.tokens(), &t.decodes, Settings::default());
    (t.decodes, j)
}

/// The same recordings heard by one recogniser in one order, then the other way round, then
/// each twice in a row: every time the same decodes (words and scores) and the same decision.
/// Before, the decoders carried their cepstral mean and noise estimate from one phrase to the
/// next, and a recording heard after another one was scored, and now and then decided,
/// otherwise.
#[test]
fn a_recording_is_decided_the_same_way_every_time_it_is_heard() {
    let dir = temp_dir("voice-again");
    for (code, seed) in [("de", 41), ("en", 42)] {
        let lang = language(code).expect("the language");
        let model = model::find(None).expect("Debian's model (pocketsphinx-en-us)");
        let mut rec = Recogniser::new(lang, &model).expect("the recogniser");
        let heard: Vec<(Spoken, Vec<i16>)> = holdout(dir.path(), code, seed, 6)
            .into_iter()
            .map(|(wav, spoken, _)| {
                let samples = Recording::open(&wav)
                    .expect("the recording")
                    .samples()
                    .to_vec();
                (spoken, samples)
            })
            .collect();
        let first: Vec<_> = heard.iter().map(|(s, a)| hear(&mut rec, s, a)).collect();
        // Heard at all: none played as another move, and some understood (played or asked
        // back as the move said); a recogniser that heard nothing would decide the same way
        // every time too.
        let mut understood = 0;
        for ((spoken, _), (_, judgement)) in heard.iter().zip(&first) {
            let uci = |m: &shakmaty::Move| shakmaty::uci::UciMove::from_standard(*m).to_string();
            match &judgement.decision {
                Decision::Play(m) => {
                    assert_eq!(uci(m), spoken.uci, "{code}: {:?} played wrong", spoken.text);
                    understood += 1;
                }
                Decision::Ask(Heard::Move(m)) | Decision::AskMoveOrCommand(m, _)
                    if uci(m) == spoken.uci =>
                {
                    understood += 1
                }
                Decision::AskTwo(a, b) if uci(a) == spoken.uci || uci(b) == spoken.uci => {
                    understood += 1
                }
                _ => {}
            }
        }
        assert!(understood > 0, "{code}: none of {} understood", heard.len());
        let mut again: Vec<_> = heard
            .iter()
            .rev()
            .map(|(s, a)| hear(&mut rec, s, a))
            .collect();
        again.reverse();
        for (i, (spoken, samples)) in heard.iter().enumerate() {
            let twice = [
                hear(&mut rec, spoken, samples),
                hear(&mut rec, spoken, samples),
            ];
            for other in [&again[i], &twice[0], &twice[1]] {
                assert_eq!(
                    (&first[i].0, first[i].1.decision),
                    (&other.0, other.1.decision),
                    "{code}: {:?} heard again was heard otherwise",
                    spoken.text
                );
            }
        }
    }
}

/// The same file heard by `hector listen` three times: the same answer and exit status.
#[test]
fn hector_listen_answers_the_same_file_the_same_way() {
    let dir = temp_dir("voice-listen-again");
    let mut understood = 0;
    for (wav, spoken, how) in holdout(dir.path(), "de", 43, 4) {
        let runs: Vec<(Option<i32>, String)> = (0..3)
            .map(|_| {
                let r = listen(&wav, "de", &spoken.fen);
                (r.code, r.stdout)
            })
            .collect();
        assert!(
            runs.iter().all(|r| *r == runs[0]),
            "{} ({how}) heard three times: {runs:?}",
            spoken.text
        );
        assert!(matches!(runs[0].0, Some(0 | 1 | 3)), "{runs:?}");
        let first = runs[0].1.split('\t').next().unwrap_or("");
        if runs[0].0 == Some(0) {
            assert_eq!(first, spoken.uci, "{} ({how}) played wrong", spoken.text);
        }
        understood += usize::from(
            (runs[0].0 == Some(0) && first == spoken.uci)
                || (runs[0].0 == Some(3) && first == format!("{}?", spoken.uci)),
        );
    }
    // The same answer each time, and an answer worth having: not "nothing" for all of them.
    assert!(understood > 0, "none of the four understood");
}
