//! The Unix implementation: SIGINT, SIGTERM and SIGHUP caught by handlers that only write a
//! byte to a pipe (news for the interactive modes) or store to an atomic (a flag for the
//! board modes).
//!
//! Unsafe code: installing signal handlers and what they do, which Rust cannot check; each
//! handler makes only async-signal-safe calls.
#![expect(
    unsafe_code,
    reason = "signal handlers, which make only async-signal-safe calls"
)]

use std::io::Read;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};
use std::thread;

use crossbeam_channel::Receiver;
use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};

use super::Ending;

/// The flag the board modes look at (null: none yet).
static FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());

extern "C" fn raise_flag(_: nix::libc::c_int) {
    let flag = FLAG.load(Ordering::SeqCst);
    if !flag.is_null() {
        // SAFETY: the pointer came from a `&'static AtomicBool`; only an atomic store.
        unsafe { (*flag).store(true, Ordering::SeqCst) };
    }
}

/// From now on Ctrl-C (SIGINT) and SIGTERM set `flag` instead of ending hector at once, so
/// that a board mode can end cleanly.
pub(crate) fn flag_interrupts(flag: &'static AtomicBool) {
    FLAG.store(std::ptr::from_ref(flag).cast_mut(), Ordering::SeqCst);
    let action = SigAction::new(
        SigHandler::Handler(raise_flag),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // SAFETY: the handler only stores to an atomic.
        let _ = unsafe { sigaction(signal, &action) };
    }
}

/// The write end of the pipe the signal handler writes to (-1: none yet).
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn forward_signal(signal: nix::libc::c_int) {
    let saved = nix::errno::Errno::last_raw();
    let fd = SIGNAL_PIPE.load(Ordering::Relaxed);
    if fd >= 0 {
        let byte = u8::try_from(signal).unwrap_or(0);
        // SAFETY: write(2) is async-signal-safe; the byte lives on this stack frame, and the
        // pipe does not block (a full pipe drops the byte: one signal is already waiting).
        let _ = unsafe { nix::libc::write(fd, std::ptr::from_ref(&byte).cast(), 1) };
    }
    nix::errno::Errno::set_raw(saved);
}

/// From the first call on, SIGINT, SIGTERM and SIGHUP no longer end hector at once: each
/// arrives on the channel returned, so that a mode restores the terminal and ends as a quit
/// does. The handler only writes a byte to a pipe; a thread turns the bytes into the
/// channel's news.
pub(crate) fn endings() -> Receiver<Ending> {
    static CHANNEL: OnceLock<Receiver<Ending>> = OnceLock::new();
    CHANNEL.get_or_init(install_endings).clone()
}

fn install_endings() -> Receiver<Ending> {
    use nix::fcntl::{FcntlArg, OFlag, fcntl};
    use std::os::fd::{AsRawFd, IntoRawFd};
    let (tx, rx) = crossbeam_channel::unbounded();
    let Ok((read, write)) = nix::unistd::pipe2(OFlag::O_CLOEXEC) else {
        // Without a pipe the signals keep their default: hector ends at once, as before.
        return rx;
    };
    if fcntl(write.as_raw_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).is_err() {
        return rx;
    }
    let reader = std::fs::File::from(read);
    let spawned = thread::Builder::new()
        .name("hector-signals".into())
        .spawn(move || {
            let mut reader = reader;
            let mut byte = [0u8; 1];
            while let Ok(1) = reader.read(&mut byte) {
                let ending = match nix::libc::c_int::from(byte[0]) {
                    nix::libc::SIGHUP => Ending::Hangup,
                    nix::libc::SIGTERM => Ending::Terminate,
                    _ => Ending::Interrupt,
                };
                if tx.send(ending).is_err() {
                    return;
                }
            }
        });
    if spawned.is_err() {
        return rx;
    }
    // The write end stays open for as long as hector runs.
    SIGNAL_PIPE.store(write.into_raw_fd(), Ordering::Relaxed);
    let action = SigAction::new(
        SigHandler::Handler(forward_signal),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        // SAFETY: the handler makes only async-signal-safe calls (write, errno).
        let _ = unsafe { sigaction(signal, &action) };
    }
    rx
}
