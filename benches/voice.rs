//! Voice input: how often a spoken move is played right, asked back, or played wrong, per
//! language and voice, and the time from the end of the phrase to the decision.
//!
//! cargo bench --bench voice -- [--set tuning|holdout] [--phrases N] [--seed S] [--lang en]
//!     [--misses] [--every] [--again] [--live [--after]] [--voice-model DIR] [--only WORDS]
//!
//! Recordings are made as the tests make them (tests/common/voice.rs: espeak-ng, sox, a
//! noise floor, every second one in pink noise below the speech) from N random positions'
//! legal moves per language, each said by every voice of the set. Each recording goes through
//! the real recogniser (PocketSphinx, Debian's US English model) and the core's decision.
//! Times: from the phrase cut out of the sound (the microphone adds the 200 ms of silence that
//! end a phrase) to the decision, wall time and the thread's CPU time.
//!
//! Two sets, never mixed: `tuning` (the default), what hector's dictionaries and thresholds
//! are tuned on: four voices per language, speeds 130–220, pitches 30–75, the moves in
//! hector's own words; `holdout`, what hector is measured on: six other voices per language
//! (other regions and variants), other speeds (140–210) and pitches (20–80), other positions
//! (seed 37 unless --seed), the moves in the words of tests/common/words.rs, written from
//! the sources and not from hector's tables.
//!
//! --again: after all of a language's recordings, each is heard again, in the reverse
//! order, by the same recogniser: the decisions and decodes that differ are counted (a
//! recording is to be decided the same way every time it is heard).
//!
//! --only "bella drei,hector sechs": only the phrases that contain one of these (case
//! ignored), said as in the full run (the same voices, speeds, pitches and noise): to try a
//! pronunciation on the phrases it is for in seconds, before measuring it on all of them.
//!
//! Two-move questions: a move asked back may name a second one ("Eva vier, oder zweitens:
//! Eva drei?"). The column "asked two, said second" counts those whose second is the move
//! said; "understood" counts them, "understood, one move" (the figure before two-move
//! questions) does not. For each of them the second's word ("zweitens") is said in the same
//! voice, speed, pitch and noise and heard with the answer grammar: taken right, unsure
//! (asked again), let go, or wrong ("yes" heard: the first move would be played). The same
//! for "yes" when the move said is named first. Then, for every move asked back other than
//! the one said, which evidence named the move said: the language's grammar, the second
//! pass's best (within the margin, or at any margin), the near word.
//!
//! Spoken commands (holdout only): each voice also says each command word of the language
//! (`hector::core::voice::VoiceCommand::ALL`, in the table's typed word), in the
//! positions of the same games, with renditions drawn from a generator of their own (the
//! moves are said exactly as without them). Their columns: run (right), asked back (the
//! command named, alone or second after a move), asked back naming something else, not
//! understood, run as another command, and taken as a move (played: a move nobody said).
//! For moves, "move said, command run" counts the phrases taken for a command and run.
//! Lines starting "confusion:" name each move phrase a grammar heard as a command and each
//! command a grammar heard as a move, with the decision (what the commands' near table in
//! core/src/voice/near.rs is made from). --no-commands leaves the commands out.
//!
//! --live: each recording is heard as a microphone gives it, in real time (20-ms blocks as
//! they would come, the phrase ending after 200 ms of silence), with the decodes started
//! ahead at 100 ms of silence (--after: only after the end); the time is then the wall time
//! from the end of speech (200 ms before the phrase's end was seen) to the decision.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "benchmarks stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
#![cfg_attr(
    not(unix),
    allow(
        dead_code,
        unused_imports,
        reason = "without Unix (pseudo-terminals, its clocks) only a notice is built: the measuring code and its imports go unused"
    )
)]

#[path = "../tests/common/voice.rs"]
mod recordings;
mod support;
#[path = "../tests/common/words.rs"]
mod words;

use std::time::{Duration, Instant};

use hector::core::notation::language;
use hector::core::variant::{Variant, position_from_fen};
use hector::core::voice::VoiceCommand;
use hector::core::voice::decide::{
    Answer, Decision, Judgement, MoveDecodes, Second, Settings, judge_answer, judge_move, meaning,
};
use hector::core::voice::grammar::Heard;
use hector::io::voice::model;
use hector::io::voice::recogniser::{Decodes, END_SILENCE, Expect, Recogniser};
use hector::io::voice::source::{LiveRecording, Recording};
use recordings::{
    Rendition, Seeded, Spoken, holdout_voices, legal_phrases, record, said_phrases, voices,
};
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

/// What became of a phrase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Right,
    AskedRight,
    /// Two moves asked, the move said second.
    AskedTwo,
    AskedOther,
    Nothing,
    Wrong,
    /// A move said, taken for a command and run.
    CommandRun,
}

fn outcome(spoken: &Spoken, j: &Judgement) -> Outcome {
    let uci = |m| UciMove::from_move(m, CastlingMode::Standard).to_string();
    match j.decision {
        Decision::Play(m) if uci(m) == spoken.uci => Outcome::Right,
        Decision::Play(_) => Outcome::Wrong,
        Decision::Command(_) => Outcome::CommandRun,
        Decision::Ask(Heard::Move(m)) if uci(m) == spoken.uci => Outcome::AskedRight,
        Decision::Ask(_) => Outcome::AskedOther,
        Decision::AskTwo(a, _) if uci(a) == spoken.uci => Outcome::AskedRight,
        Decision::AskTwo(_, b) if uci(b) == spoken.uci => Outcome::AskedTwo,
        Decision::AskTwo(..) => Outcome::AskedOther,
        Decision::AskMoveOrCommand(m, _) if uci(m) == spoken.uci => Outcome::AskedRight,
        Decision::AskMoveOrCommand(..) => Outcome::AskedOther,
        Decision::Nothing => Outcome::Nothing,
    }
}

/// Counts of outcomes.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    right: usize,
    asked: usize,
    two: usize,
    other: usize,
    nothing: usize,
    wrong: usize,
    command: usize,
}

impl Tally {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Right => self.right += 1,
            Outcome::AskedRight => self.asked += 1,
            Outcome::AskedTwo => self.two += 1,
            Outcome::AskedOther => self.other += 1,
            Outcome::Nothing => self.nothing += 1,
            Outcome::Wrong => self.wrong += 1,
            Outcome::CommandRun => self.command += 1,
        }
    }

    fn n(&self) -> usize {
        self.right + self.asked + self.two + self.other + self.nothing + self.wrong + self.command
    }

    fn row(&self, code: &str, voice: &str) -> String {
        let n = self.n();
        let pct = |x: usize| 100.0 * x as f64 / n.max(1) as f64;
        format!(
            "| {code} | {voice} | {n} | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {} ({:.1} %) | {} | {:.1} % | **{:.1} %** |",
            pct(self.right),
            pct(self.asked),
            pct(self.two),
            pct(self.other),
            pct(self.nothing),
            self.wrong,
            pct(self.wrong),
            self.command,
            pct(self.right + self.asked),
            pct(self.right + self.asked + self.two),
        )
    }
}

/// A recording heard: what the decodes were and what was decided.
type Heard1 = (Option<MoveDecodes>, Outcome, String);

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let holdout = support::arg::<String>(&args, "--set").is_some_and(|s| s == "holdout");
    let n: usize = support::arg(&args, "--phrases").unwrap_or(60);
    let seed: u64 = support::arg(&args, "--seed").unwrap_or(if holdout { 37 } else { 1 });
    // --misses: each phrase not played right, with what each grammar heard, on stderr.
    let misses = args.iter().any(|a| a == "--misses");
    // --every: each phrase, played right too, with its evidence (to set the thresholds).
    let every = args.iter().any(|a| a == "--every");
    // --lang en: one language only.
    let only: Option<String> = support::arg(&args, "--lang");
    let live = args.iter().any(|a| a == "--live");
    let after = args.iter().any(|a| a == "--after");
    let again = args.iter().any(|a| a == "--again");
    let with_commands = holdout && !args.iter().any(|a| a == "--no-commands");
    let mut command_rows: Vec<String> = Vec::new();
    let only_words: Vec<String> = support::arg::<String>(&args, "--only")
        .map(|s| s.split(',').map(|w| w.trim().to_lowercase()).collect())
        .unwrap_or_default();
    let (mut used_ahead, mut dropped) = (0, 0);
    let dir = std::env::temp_dir().join(format!("hector-voice-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    // --voice-model DIR: a model folder with a dictionary beside it, as `play --voice-model`
    // takes (to try pronunciations without building hector again).
    let named: Option<String> = support::arg(&args, "--voice-model");
    let model = model::find(named.as_deref().map(std::path::Path::new))
        .expect("the model: apt install pocketsphinx-en-us, or a folder with mdef");
    println!(
        "set {}, seed {seed}, {n} phrases per voice",
        if holdout { "holdout" } else { "tuning" }
    );
    println!(
        "| language | voice | phrases | played right | asked back, right move | asked two, said second | asked back, other | not understood | played wrong | move said, command run | understood, one move | understood |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut paths = Vec::new();
    let (mut heard_again, mut changed_decisions, mut changed_decodes) = (0, 0, 0);
    for code in ["en", "de", "es", "fr", "nl"] {
        if only.as_deref().is_some_and(|o| o != code) {
            continue;
        }
        let lang = language(code).expect("the language");
        let mut rec = Recogniser::new(lang, &model).expect("the recogniser");
        let phrases = if holdout {
            let w = words::of(code);
            said_phrases(seed, n, |pos, m| w.short(pos, m))
        } else {
            legal_phrases(lang, seed, n)
        };
        let set_voices = if holdout {
            holdout_voices(code)
        } else {
            voices(code)
        };
        let mut rng = Seeded::new(seed + 100);
        // The commands' renditions: a generator of their own, so that the moves are said
        // as in a run without commands.
        let mut command_rng = Seeded::new(seed + 200);
        let mut commands_total = CommandTally::default();
        let mut per_command: Vec<(VoiceCommand, CommandTally)> = VoiceCommand::ALL
            .iter()
            .map(|c| (*c, CommandTally::default()))
            .collect();
        let mut total = Tally::default();
        // The answers said to two-move questions: the second's word, and "yes".
        let mut second_word = Answers::default();
        let mut yes_word = Answers::default();
        // The second's word said to a command asked second after a move.
        let mut command_second = Answers::default();
        let mut named = Named::default();
        let word_second = lang.voice.second.first().cloned().unwrap_or_default();
        let word_yes = lang.commands.yes.first().cloned().unwrap_or_default();
        // Each recording's samples, phrase and how it was first heard.
        let mut heard: Vec<(Vec<i16>, Spoken, Heard1)> = Vec::new();
        for (v, voice) in set_voices.iter().enumerate() {
            let mut tally = Tally::default();
            for (i, spoken) in phrases.iter().enumerate() {
                let mut how = if holdout {
                    Rendition::holdout(code, i, &mut rng)
                } else {
                    Rendition::nth(code, i, &mut rng)
                };
                how.voice = voice;
                // Skipped after the rendition is drawn, so the others are said as in a full run.
                let text = spoken.text.to_lowercase();
                if !only_words.is_empty() && !only_words.iter().any(|w| text.contains(w.as_str())) {
                    continue;
                }
                let name = format!("{code}-{v}-{i}");
                let wav = record(&dir, &name, &spoken.text, how).expect("a recording");
                let source = Recording::open(&wav).expect("the recording");
                let _ = std::fs::remove_file(&wav);
                let samples = source.samples().to_vec();
                let pos = position_from_fen(&spoken.fen, Variant::Standard).expect("the FEN");
                let (decodes, j) = if live {
                    let mut mic = LiveRecording::new(samples.clone(), true);
                    let expect = Expect::Move(pos.clone());
                    let cpu = cpu_time();
                    let Some(p) = rec
                        .hear(&mut mic, &|| false, &expect, !after)
                        .expect("a phrase")
                    else {
                        tally.add(Outcome::Nothing);
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
                    (Some(t.decodes), j)
                } else {
                    let cpu = cpu_time();
                    let began = Instant::now();
                    let (decodes, j) = hear_file(&mut rec, &pos, &samples);
                    walls.push(began.elapsed());
                    cpus.push(cpu_time().saturating_sub(cpu));
                    if let Some((_, path)) = &decodes {
                        paths.push(*path);
                    }
                    (decodes.map(|(d, _)| d), j)
                };
                let o = outcome(spoken, &j);
                tally.add(o);
                if let Some(d) = &decodes {
                    let grammars = [
                        ("position", d.position.as_ref()),
                        ("language", d.language.as_ref()),
                    ];
                    for (grammar, heard) in grammars {
                        if let Some(Heard::Command(c)) =
                            heard.and_then(|h| meaning(&h.words, &pos, rec.tokens()))
                        {
                            eprintln!(
                                "confusion: move {:?} heard as command {c:?} by the {grammar} grammar ({voice}, speed {}, pitch {}, noise {:?}) → {:?}; {:?}",
                                spoken.text,
                                how.speed,
                                how.pitch,
                                how.noise_db,
                                j.decision,
                                j.evidence
                            );
                        }
                    }
                }
                if let Some(d) = &decodes {
                    named.add(&pos, &rec, spoken, &j, d);
                }
                if let Decision::AskTwo(..) | Decision::AskMoveOrCommand(..) = j.decision {
                    let (word, answers, want) = match o {
                        Outcome::AskedTwo => (&word_second, &mut second_word, Answer::Second),
                        Outcome::AskedRight => (&word_yes, &mut yes_word, Answer::Yes),
                        _ => (&word_yes, &mut Answers::default(), Answer::Yes),
                    };
                    if o != Outcome::AskedOther {
                        let a = answer_to(&mut rec, &dir, &format!("{name}-a"), word, how);
                        answers.add(a, want);
                        if a != want && misses {
                            eprintln!(
                                "answer {word:?} heard as {a:?} ({voice}, speed {}, pitch {}, noise {:?})",
                                how.speed, how.pitch, how.noise_db
                            );
                        }
                    }
                }
                let what = format!(
                    "{:?} ({voice}, speed {}, pitch {}, noise {:?}) → {:?}; position {:?}, language {:?}, {:?}",
                    spoken.text,
                    how.speed,
                    how.pitch,
                    how.noise_db,
                    j.decision,
                    decodes
                        .as_ref()
                        .and_then(|d| d.position.as_ref().map(|p| &p.words)),
                    decodes
                        .as_ref()
                        .and_then(|d| d.language.as_ref().map(|p| &p.words)),
                    j.evidence
                );
                match o {
                    Outcome::Wrong => eprintln!("played wrong: {what}"),
                    Outcome::AskedRight if misses => eprintln!("asked: {what}"),
                    Outcome::AskedOther | Outcome::Nothing if misses => {
                        eprintln!("missed: {what}")
                    }
                    Outcome::Right if every => eprintln!("right: {what}"),
                    _ => {}
                }
                if again && !live {
                    heard.push((samples, spoken.clone(), (decodes, o, what)));
                }
            }
            println!("{}", tally.row(code, voice));
            let mut commands_voice = CommandTally::default();
            for (k, command) in VoiceCommand::ALL.iter().enumerate() {
                if !with_commands {
                    break;
                }
                let mut how = Rendition::holdout(code, k, &mut command_rng);
                how.voice = voice;
                let word = command.typed(lang).to_string();
                if !only_words.is_empty()
                    && !only_words
                        .iter()
                        .any(|w| word.to_lowercase().contains(w.as_str()))
                {
                    continue;
                }
                // In the positions of the same games, each voice in others.
                let at = &phrases[(v * VoiceCommand::ALL.len() + k) % phrases.len()];
                let pos = position_from_fen(&at.fen, Variant::Standard).expect("the FEN");
                let name = format!("{code}-{v}-c{k}");
                let wav = record(&dir, &name, &word, how).expect("a recording");
                let source = Recording::open(&wav).expect("the recording");
                let _ = std::fs::remove_file(&wav);
                let samples = source.samples().to_vec();
                let (decodes, j) = hear_file(&mut rec, &pos, &samples);
                let o = command_outcome(*command, &j);
                commands_voice.add(o);
                // Asked only because a move was named: the tests that run a command passed.
                let e = &j.evidence;
                let sure = e.agree
                    && e.coverage >= hector::core::voice::decide::COVERAGE
                    && e.margin.is_some_and(|m| m.is_finite() && m >= 6.0);
                if let Decision::AskMoveOrCommand(_, c) = j.decision
                    && c == *command
                {
                    if sure {
                        commands_voice.held += 1;
                        if let Some((_, t)) = per_command.iter_mut().find(|(c, _)| c == command) {
                            t.held += 1;
                        }
                    }
                    let a = answer_to(&mut rec, &dir, &format!("{name}-a"), &word_second, how);
                    command_second.add(a, Answer::Second);
                    if a != Answer::Second && misses {
                        eprintln!(
                            "answer {word_second:?} to a command asked second heard as {a:?} ({voice}, speed {}, pitch {}, noise {:?})",
                            how.speed, how.pitch, how.noise_db
                        );
                    }
                }
                if let Some((_, t)) = per_command.iter_mut().find(|(c, _)| c == command) {
                    t.add(o);
                }
                let d = decodes.map(|(d, _)| d);
                let what = format!(
                    "{word:?} ({voice}, speed {}, pitch {}, noise {:?}) in {} → {:?}; position {:?}, language {:?}, {:?}",
                    how.speed,
                    how.pitch,
                    how.noise_db,
                    at.fen,
                    j.decision,
                    d.as_ref()
                        .and_then(|d| d.position.as_ref().map(|p| &p.words)),
                    d.as_ref()
                        .and_then(|d| d.language.as_ref().map(|p| &p.words)),
                    j.evidence
                );
                let as_move = d.as_ref().is_some_and(|d| {
                    [d.position.as_ref(), d.language.as_ref()]
                        .into_iter()
                        .flatten()
                        .any(|h| {
                            matches!(meaning(&h.words, &pos, rec.tokens()), Some(Heard::Move(_)))
                        })
                });
                if as_move {
                    eprintln!("confusion: command heard as a move: {what}");
                }
                match o {
                    CommandOutcome::Played => eprintln!("command played as a move: {what}"),
                    CommandOutcome::Run => {}
                    _ if misses => eprintln!("command missed: {what}"),
                    _ => {}
                }
            }
            if with_commands {
                command_rows.push(commands_voice.row(code, voice));
                commands_total.merge(&commands_voice);
            }
            for o in [
                (Outcome::Right, tally.right),
                (Outcome::AskedRight, tally.asked),
                (Outcome::AskedTwo, tally.two),
                (Outcome::AskedOther, tally.other),
                (Outcome::Nothing, tally.nothing),
                (Outcome::Wrong, tally.wrong),
            ] {
                for _ in 0..o.1 {
                    total.add(o.0);
                }
            }
        }
        println!("{}", total.row(code, "all"));
        println!(
            "{code}: answers to two-move questions: {word_second:?} (the move said second) {}; {word_yes:?} (the move said first) {}",
            second_word.words(),
            yes_word.words()
        );
        println!("{code}: {}", named.words());
        if with_commands {
            command_rows.push(commands_total.row(code, "all"));
            println!(
                "{code}: the second's word {word_second:?} said to a command asked second: {}",
                command_second.words()
            );
            for (c, t) in &per_command {
                println!(
                    "{code}: command {:?} ({:?}): {}",
                    c.typed(lang),
                    c,
                    t.words()
                );
            }
        }
        // The same recordings again, the other way round, by the same recogniser.
        for (samples, spoken, (decodes, o, what)) in heard.iter().rev() {
            let pos = position_from_fen(&spoken.fen, Variant::Standard).expect("the FEN");
            let (d, j) = hear_file(&mut rec, &pos, samples);
            heard_again += 1;
            let d = d.map(|(d, _)| d);
            if &d != decodes {
                changed_decodes += 1;
            }
            let o2 = outcome(spoken, &j);
            if o2 != *o {
                changed_decisions += 1;
                eprintln!("decided otherwise when heard again ({o2:?}): {what}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if with_commands {
        println!();
        println!(
            "| language | voice | commands said | run | asked back, naming it (held: sure, asked after a move) | asked back, other | not understood | run as another command | taken as a move |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        for row in &command_rows {
            println!("{row}");
        }
    }
    if again {
        println!(
            "heard again: {heard_again} recordings, {changed_decisions} decided otherwise, {changed_decodes} with other decodes"
        );
    }
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

/// What became of a command said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CommandOutcome {
    Run,
    /// Asked back naming it: alone, or second after a move.
    Asked,
    /// Asked back naming another command or a move only.
    AskedOther,
    Nothing,
    /// Another command run.
    OtherCommand,
    /// A move played: one nobody said.
    Played,
}

fn command_outcome(said: VoiceCommand, j: &Judgement) -> CommandOutcome {
    match j.decision {
        Decision::Command(c) if c == said => CommandOutcome::Run,
        Decision::Command(_) => CommandOutcome::OtherCommand,
        Decision::Ask(Heard::Command(c)) | Decision::AskMoveOrCommand(_, c) if c == said => {
            CommandOutcome::Asked
        }
        Decision::Ask(_) | Decision::AskTwo(..) | Decision::AskMoveOrCommand(..) => {
            CommandOutcome::AskedOther
        }
        Decision::Play(_) => CommandOutcome::Played,
        Decision::Nothing => CommandOutcome::Nothing,
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct CommandTally {
    run: usize,
    asked: usize,
    other: usize,
    nothing: usize,
    other_command: usize,
    played: usize,
    /// Of those asked naming it: asked second after a move although heard surely enough
    /// to run (the move was named by the near table, the other grammar or the second pass).
    held: usize,
}

impl CommandTally {
    fn add(&mut self, o: CommandOutcome) {
        match o {
            CommandOutcome::Run => self.run += 1,
            CommandOutcome::Asked => self.asked += 1,
            CommandOutcome::AskedOther => self.other += 1,
            CommandOutcome::Nothing => self.nothing += 1,
            CommandOutcome::OtherCommand => self.other_command += 1,
            CommandOutcome::Played => self.played += 1,
        }
    }

    fn merge(&mut self, o: &CommandTally) {
        self.run += o.run;
        self.asked += o.asked;
        self.other += o.other;
        self.nothing += o.nothing;
        self.other_command += o.other_command;
        self.played += o.played;
        self.held += o.held;
    }

    fn n(&self) -> usize {
        self.run + self.asked + self.other + self.nothing + self.other_command + self.played
    }

    fn row(&self, code: &str, voice: &str) -> String {
        format!(
            "| {code} | {voice} | {} | {} | {} ({} held) | {} | {} | {} | **{}** |",
            self.n(),
            self.run,
            self.asked,
            self.held,
            self.other,
            self.nothing,
            self.other_command,
            self.played
        )
    }

    fn words(&self) -> String {
        format!(
            "{} said: {} run, {} asked back naming it ({} held: sure, asked second after a move), {} asked back other, {} not understood, {} run as another command, **{} taken as a move**",
            self.n(),
            self.run,
            self.asked,
            self.held,
            self.other,
            self.nothing,
            self.other_command,
            self.played
        )
    }
}

/// How the answers said to two-move questions were taken.
#[derive(Clone, Copy, Debug, Default)]
struct Answers {
    right: usize,
    /// Asked again.
    unsure: usize,
    /// No, something else or nothing: the question lapses, nothing is played.
    let_go: usize,
    /// The other choice: the other move would be played.
    wrong: usize,
}

impl Answers {
    fn add(&mut self, a: Answer, want: Answer) {
        match a {
            a if a == want => self.right += 1,
            Answer::Unsure => self.unsure += 1,
            Answer::Yes | Answer::Second => self.wrong += 1,
            Answer::No | Answer::Other | Answer::Nothing => self.let_go += 1,
        }
    }

    fn words(&self) -> String {
        format!(
            "{} said: {} taken right, {} unsure, {} let go, **{} wrong**",
            self.right + self.unsure + self.let_go + self.wrong,
            self.right,
            self.unsure,
            self.let_go,
            self.wrong
        )
    }
}

/// For the moves asked back other than the one said: which evidence named the move said.
#[derive(Clone, Copy, Debug, Default)]
struct Named {
    missed: usize,
    language: usize,
    second_close: usize,
    second_any: usize,
    near: usize,
    none: usize,
}

impl Named {
    fn add(
        &mut self,
        pos: &shakmaty::Chess,
        rec: &Recogniser,
        spoken: &Spoken,
        j: &Judgement,
        d: &MoveDecodes,
    ) {
        let first = match j.decision {
            Decision::Ask(Heard::Move(m)) | Decision::AskTwo(m, _) => m,
            _ => return,
        };
        let uci = |m| UciMove::from_move(m, CastlingMode::Standard).to_string();
        if uci(first) == spoken.uci {
            return;
        }
        self.missed += 1;
        let names = |words: Option<&str>| {
            words.and_then(|w| meaning(w, pos, rec.tokens()))
                == spoken
                    .uci
                    .parse::<UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(pos).ok())
                    .map(Heard::Move)
        };
        let language = names(d.language.as_ref().map(|l| l.words.as_str()));
        let (second, close) = match (&d.second, &d.position) {
            (Second::Best(s), Some(p)) => (
                names(Some(&s.words)),
                (f64::from(p.score) - f64::from(s.score)) / f64::from(p.frames.max(1)) < 6.0,
            ),
            _ => (false, false),
        };
        let near = j.evidence.near.is_some_and(|m| uci(m) == spoken.uci);
        self.language += usize::from(language);
        self.second_close += usize::from(second && close);
        self.second_any += usize::from(second);
        self.near += usize::from(near);
        self.none += usize::from(!(language || second || near));
    }

    fn words(&self) -> String {
        format!(
            "of {} asked back naming another move first, the move said was named by the language's grammar {}, the second pass within the margin {} (at any margin {}), the near word {}, none of them {}",
            self.missed, self.language, self.second_close, self.second_any, self.near, self.none
        )
    }
}

/// `word` said as `how` says it, heard as the answer to a question.
fn answer_to(
    rec: &mut Recogniser,
    dir: &std::path::Path,
    name: &str,
    word: &str,
    how: Rendition,
) -> Answer {
    let wav = record(dir, name, word, how).expect("a recording");
    let mut source = Recording::open(&wav).expect("the recording");
    let _ = std::fs::remove_file(&wav);
    let Some(u) = rec.phrase(&mut source, &|| false).expect("a phrase") else {
        return Answer::Nothing;
    };
    let t = rec.hear_answer(&u.samples).expect("decodes");
    judge_answer(rec.tokens(), &t.decodes).0
}

/// A recording heard as `hector listen` hears it: the phrase cut out, its decodes (and the
/// longer decoding thread's CPU time) and the decision.
fn hear_file(
    rec: &mut Recogniser,
    pos: &shakmaty::Chess,
    samples: &[i16],
) -> (Option<(MoveDecodes, Duration)>, Judgement) {
    let mut source = Recording::from_samples(samples.to_vec());
    let nothing = || Judgement {
        decision: Decision::Nothing,
        evidence: Default::default(),
    };
    let Some(u) = rec.phrase(&mut source, &|| false).expect("a phrase") else {
        return (None, nothing());
    };
    let t = rec.hear_move(pos, &u.samples).expect("decodes");
    let j = judge_move(pos, rec.tokens(), &t.decodes, Settings::default());
    (Some((t.decodes, t.cpu_path)), j)
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
