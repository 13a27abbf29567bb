//! Speech latencies.
//!
//! cargo bench --bench speech -- [--requests N] [--espeak-runs N]
//!
//! (a) From a request entering the speech channel to the backend's `speak` call, through the
//!     real supervisor and worker threads, with a capturing backend (one request at a time, so
//!     that queueing behind earlier speech is not counted).
//! (b) espeak-ng: from starting the program to the first audio sample that is not silence on
//!     its standard output (`--stdout`, no sound card needed).
//! (c) A helper program that hangs (espeak-ng's probes run through `io::child::run_bounded`):
//!     how long after its time limit `run_bounded` returns, its process group killed.

mod support;

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hector::io::speech::{Behaviour, CaptureLog, Plan, Speaker, SpeechConfig, Voice, stdout_sink};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let requests = support::arg(&args, "--requests").unwrap_or(2000);
    let runs = support::arg(&args, "--espeak-runs").unwrap_or(20);

    let log = Arc::new(Mutex::new(CaptureLog::default()));
    let (speaker, _notices) = Speaker::start(SpeechConfig {
        plan: vec![Plan::Capture(log.clone(), Behaviour::Normal)],
        language: "de".into(),
        voice: Voice::default(),
        sink: stdout_sink(),
        hang_limit: Duration::from_secs(2),
        sounds: None,
    });
    let mut latencies = Vec::with_capacity(requests);
    for i in 0..requests {
        let before = Instant::now();
        speaker.announce(format!("Springer Felix drei {i}"));
        if !speaker.wait_idle(Duration::from_secs(5)) {
            eprintln!("request {i} was not spoken");
            return;
        }
        let spoken = log.lock().ok().and_then(|l| l.speak_times.get(i).copied());
        if let Some(at) = spoken {
            latencies.push(at.duration_since(before));
        }
    }
    latencies.sort();
    println!(
        "request to backend call: {} requests, p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        support::percentile(&latencies, 0.5),
        support::percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );

    let mut firsts = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let child = Command::new("espeak-ng")
            .args(["-v", "de", "--stdout", "Springer Felix drei"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = child else {
            eprintln!("espeak-ng is not installed");
            return;
        };
        let Some(mut out) = child.stdout.take() else {
            return;
        };
        let mut buf = [0u8; 4096];
        let mut seen = 0usize;
        let mut first = None;
        while first.is_none() {
            let Ok(n) = out.read(&mut buf) else { break };
            if n == 0 {
                break;
            }
            // Skip the 44-byte WAV header, then look for a sample that is not silence.
            for (i, pair) in buf[..n].chunks_exact(2).enumerate() {
                let pos = seen + i * 2;
                if pos >= 44 && i16::from_le_bytes([pair[0], pair[1]]).unsigned_abs() > 64 {
                    first = Some(start.elapsed());
                    break;
                }
            }
            seen += n;
        }
        let _ = child.kill();
        let _ = child.wait();
        if let Some(f) = first {
            firsts.push(f);
        }
    }
    firsts.sort();
    if !firsts.is_empty() {
        println!(
            "espeak-ng start to first audible sample: {} runs, p50 {:?}, p99 {:?}",
            firsts.len(),
            support::percentile(&firsts, 0.5),
            support::percentile(&firsts, 0.99)
        );
    }

    let limit = Duration::from_millis(200);
    let mut late = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let hung = hector::io::child::run_bounded(
            Command::new("sh").args(["-c", "sleep 600 & sleep 600; :"]),
            limit,
        );
        let took = start.elapsed();
        if !matches!(hung, Err(hector::io::child::ChildError::Hung(_))) {
            eprintln!("the hanging helper was not stopped as hung: {hung:?}");
            return;
        }
        late.push(took.saturating_sub(limit));
    }
    late.sort();
    println!(
        "hung helper stopped after its limit of {limit:?}: {} runs, p50 {:?} late, max {:?}",
        late.len(),
        support::percentile(&late, 0.5),
        late.last().copied().unwrap_or_default()
    );
}
