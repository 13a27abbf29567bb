//! Voice input: how often a spoken move is played right, asked back, or played wrong, per
//! language and voice, and the time from the end of the phrase to the decision.
//!
//! cargo bench --bench voice -- [--phrases N] [--seed S] [--lang en] [--misses] [--live [--after]]
//!
//! Recordings are made as the tests make them (tests/common/voice.rs: espeak-ng, sox, a
//! noise floor, every second one in pink noise 10–20 dB below the speech) from N random
//! positions' legal moves per language, each said by every voice. Each recording goes through
//! the real recogniser (PocketSphinx, Debian's US English model) and the core's decision.
//! Times: from the phrase cut out of the sound (the microphone adds the 200 ms of silence that
//! end a phrase) to the decision, wall time and the thread's CPU time.
//!
//! --live: each recording is heard as a microphone gives it, in real time (20-ms blocks as
//! they would come, the phrase ending after 200 ms of silence), with the decodes started
//! ahead at 100 ms of silence (--after: only after the end); the time is then the wall time
//! from the end of speech (200 ms before the phrase's end was seen) to the decision.

// Tests and benchmarks stop at the first surprise, and the pseudo-terminals need the
// system's calls: the crate's [lints] are for hector itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]
// Without Unix (pseudo-terminals, its clocks) only a notice is built.
#![cfg_attr(not(unix), allow(dead_code, unused_imports))]

#[path = "../tests/common/voice.rs"]
mod recordings;
mod support;

use std::time::{Duration, Instant};

use hector::core::notation::language::language;
use hector::core::variant::{Variant, position_from_fen};
use hector::core::voice::decide::{Decision, Settings, judge_move};
use hector::core::voice::grammar::Heard;
use hector::io::voice::model;
use hector::io::voice::recogniser::{Decodes, END_SILENCE, Expect, Recogniser};
use hector::io::voice::source::{LiveRecording, Recording};
use recordings::{Rendition, Seeded, legal_phrases, record, voices};
use shakmaty::CastlingMode;
use shakmaty::uci::UciMove;

#[cfg(unix)]
fn cpu_time() -> Duration {
    let mut ts = nix::libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to write to.
    unsafe { nix::libc::clock_gettime(nix::libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = support::arg(&args, "--phrases").unwrap_or(60);
    let seed: u64 = support::arg(&args, "--seed").unwrap_or(1);
    // --misses: each phrase not played right, with what each grammar heard, on stderr.
    let misses = args.iter().any(|a| a == "--misses");
    // --lang en: one language only.
    let only: Option<String> = support::arg(&args, "--lang");
    let live = args.iter().any(|a| a == "--live");
    let after = args.iter().any(|a| a == "--after");
    let (mut used_ahead, mut dropped) = (0, 0);
    let dir = std::env::temp_dir().join(format!("hector-voice-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let model = model::find(None).expect("Debian's model: apt install pocketsphinx-en-us");
    println!(
        "| language | voice | phrases | played right | asked back, right move | asked back other / nothing | played wrong |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut paths = Vec::new();
    for code in ["en", "de", "es", "fr", "nl"] {
        if only.as_deref().is_some_and(|o| o != code) {
            continue;
        }
        let lang = language(code).expect("the language");
        let mut rec = Recogniser::new(lang, &model).expect("the recogniser");
        let phrases = legal_phrases(lang, seed, n);
        let mut rng = Seeded::new(seed + 100);
        for (v, voice) in voices(code).iter().enumerate() {
            let (mut right, mut asked, mut other, mut wrong) = (0, 0, 0, 0);
            for (i, spoken) in phrases.iter().enumerate() {
                let mut how = Rendition::nth(code, i, &mut rng);
                how.voice = voice;
                let name = format!("{code}-{v}-{i}");
                let wav = record(&dir, &name, &spoken.text, how).expect("a recording");
                let mut source = Recording::open(&wav).expect("the recording");
                let _ = std::fs::remove_file(&wav);
                let pos = position_from_fen(&spoken.fen, Variant::Standard).expect("the FEN");
                let t = if live {
                    let mut mic = LiveRecording::new(source.samples().to_vec(), true);
                    let expect = Expect::Move(pos.clone());
                    let cpu = cpu_time();
                    let Some(p) = rec
                        .hear(&mut mic, &|| false, &expect, !after)
                        .expect("a phrase")
                    else {
                        other += 1;
                        continue;
                    };
                    let Decodes::Move(t) = p.decodes else {
                        panic!("a move's decodes");
                    };
                    let j = judge_move(&pos, rec.tokens(), &t.decodes, Settings::default());
                    let end_of_speech =
                        mic.heard_until() - Duration::from_millis(u64::from(END_SILENCE) * 10);
                    walls.push(end_of_speech.elapsed());
                    cpus.push(cpu_time().saturating_sub(cpu));
                    paths.push(t.cpu_path);
                    used_ahead += usize::from(p.ahead);
                    dropped += p.dropped;
                    (t, j)
                } else {
                    let Some(u) = rec.phrase(&mut source, &|| false).expect("a phrase") else {
                        other += 1;
                        continue;
                    };
                    let cpu = cpu_time();
                    let began = Instant::now();
                    let t = rec.hear_move(&pos, &u.samples).expect("decodes");
                    let j = judge_move(&pos, rec.tokens(), &t.decodes, Settings::default());
                    walls.push(began.elapsed());
                    cpus.push(cpu_time().saturating_sub(cpu));
                    paths.push(t.cpu_path);
                    (t, j)
                };
                let (t, j) = t;
                let uci = |m| UciMove::from_move(m, CastlingMode::Standard).to_string();
                match j.decision {
                    Decision::Play(m) if uci(m) == spoken.uci => right += 1,
                    Decision::Play(_) | Decision::Command(_) => {
                        wrong += 1;
                        eprintln!("played wrong: {spoken:?} {how:?} → {:?}", j.decision);
                    }
                    Decision::Ask(Heard::Move(m)) if uci(m) == spoken.uci => {
                        asked += 1;
                        if misses {
                            eprintln!(
                                "asked: {:?} ({voice}) → position {:?}, language {:?}, {:?}",
                                spoken.text,
                                t.decodes.position.as_ref().map(|d| &d.words),
                                t.decodes.language.as_ref().map(|d| &d.words),
                                j.evidence
                            );
                        }
                    }
                    Decision::Ask(_) | Decision::Nothing => {
                        other += 1;
                        if misses {
                            eprintln!(
                                "missed: {:?} ({voice}) → position {:?}, language {:?}, {:?}",
                                spoken.text,
                                t.decodes.position.as_ref().map(|d| &d.words),
                                t.decodes.language.as_ref().map(|d| &d.words),
                                j.evidence
                            );
                        }
                    }
                }
            }
            let pct = |x: usize| 100.0 * x as f64 / n as f64;
            println!(
                "| {code} | {voice} | {n} | {:.1} % | {:.1} % | {:.1} % | {wrong} ({:.1} %) |",
                pct(right),
                pct(asked),
                pct(other),
                pct(wrong)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if live {
        println!(
            "heard live: decodes started ahead and used for {used_ahead} of {} phrases, {dropped} dropped (speech resumed)",
            walls.len()
        );
    }
    walls.sort();
    cpus.sort();
    paths.sort();
    println!(
        "{} to decision, {} phrases: wall p50 {:?}, p95 {:?}, max {:?}; CPU (both decoding threads) p50 {:?}, p95 {:?}; CPU of the longer thread (the wait on an idle machine) p50 {:?}, p95 {:?}, max {:?}",
        if live {
            "end of speech (live, wall time)"
        } else {
            "end of phrase"
        },
        walls.len(),
        support::percentile(&walls, 0.5),
        support::percentile(&walls, 0.95),
        walls.last().copied().unwrap_or_default(),
        support::percentile(&cpus, 0.5),
        support::percentile(&cpus, 0.95),
        support::percentile(&paths, 0.5),
        support::percentile(&paths, 0.95),
        paths.last().copied().unwrap_or_default(),
    );
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
