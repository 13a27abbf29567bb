//! A hostile BrlAPI server on 127.0.0.1, with the real binary in a pseudo-terminal: one that
//! sends its version and then only packets the set-up passes over, slowly enough that no
//! read ever waits long, never hands the display over. `--braille on` gives it up within its
//! start limit and says once that there is no braille display; the game goes on meanwhile.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(40);

/// A BrlAPI packet: its payload's length, its kind, its payload.
fn packet(kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut p = (payload.len() as u32).to_be_bytes().to_vec();
    p.extend_from_slice(&u32::from(kind).to_be_bytes());
    p.extend_from_slice(payload);
    p
}

#[test]
fn a_server_that_never_hands_the_display_over_is_given_up_and_said_once() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    // libbrlapi's `host:N` is TCP port 4101 + N.
    let host = format!("127.0.0.1:{}", u32::from(port) - 4101);
    let stop = Arc::new(AtomicBool::new(false));
    let server = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            listener.set_nonblocking(true).unwrap();
            let mut peers = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                if let Ok((mut peer, _)) = listener.accept() {
                    peer.set_nonblocking(false).unwrap();
                    let _ = peer.write_all(&packet(b'v', &8u32.to_be_bytes()));
                    peers.push(peer);
                }
                // Unknown packets, one every 250 ms: every read gets an answer in time.
                peers.retain_mut(|p| p.write_all(&packet(b'p', &[0; 8])).is_ok());
                std::thread::sleep(Duration::from_millis(250));
            }
        })
    };
    let data = temp_dir("hostile-braille");
    let mut t = Env::player(&data).braille_host(&host).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "keyboard",
        "--braille",
        "on",
    ]);
    // The game goes on meanwhile: a move typed at the first prompt is played and said while
    // the display is still being waited for.
    t.expect("Zug oder Befehl:", LIMIT);
    t.send(b"e4\r");
    t.wait_answer("e4", LIMIT);
    t.expect("Eva vier", LIMIT);
    assert!(
        !t.all_output().contains("Keine Braillezeile"),
        "the move waited for the display: {}",
        t.all_output()
    );
    // Said within the test's limit, not never (the start limit is 10 s), with its reason.
    let said = t.expect_span("Keine Braillezeile: ", "\r\n", LIMIT);
    // The server named by its address, and the limit it was given: the start's, at least.
    // In the table's German words, the link's English detail nowhere.
    let seconds: u64 = said
        .trim_end()
        .strip_prefix(&format!(
            "Keine Braillezeile: der BrlAPI-Server unter 127.0.0.1:{port} hat die \
             Braillezeile in "
        ))
        .and_then(|rest| rest.strip_suffix(" Sekunden nicht übergeben"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said:?}\n{}", t.all_output()));
    assert!((10..=20).contains(&seconds), "{said:?}");
    // And after it.
    t.send(b"e5\r");
    t.wait_answer("e5", LIMIT);
    t.expect("Eva fünf", LIMIT);
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    assert_eq!(t.all_output().matches("Keine Braillezeile").count(), 1);
    assert!(
        !t.all_output().contains("BrlAPI server"),
        "{}",
        t.all_output()
    );
    stop.store(true, Ordering::Relaxed);
    let _ = server.join();
}
