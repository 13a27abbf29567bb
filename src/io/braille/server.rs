//! Where a BrlAPI server is and how hector is let in, as libbrlapi finds them: `BRLAPI_HOST`
//! (`:N` a local socket `/var/lib/BrlAPI/N`, with TCP on 127.0.0.1 and ::1 port 4101+N as
//! the fallback; `host:N` TCP port 4101+N; default `:0`), `BRLAPI_AUTH` (a key file, as
//! `keyfile:PATH`, or `PATH`; default `/etc/brlapi.key`), and the tty to take (the console
//! hector runs on, or else the whole display, as the BrlAPI manual asks of screen readers).

use std::io::Read;
use std::path::PathBuf;

use crate::core::braille::brlapi::MAX_KEY_LEN;

/// BRLTTY's compiled-in directory of local sockets.
pub(crate) const SOCKET_DIR: &str = "/var/lib/BrlAPI";
/// TCP port of server `:0`.
pub(crate) const BASE_PORT: u16 = 4101;

/// One place a server may listen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Local(PathBuf),
    Tcp(String, u16),
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Local(path) => write!(f, "{}", path.display()),
            Target::Tcp(host, port) if host.contains(':') => write!(f, "[{host}]:{port}"),
            Target::Tcp(host, port) => write!(f, "{host}:{port}"),
        }
    }
}

/// The places to try, in order, for a `BRLAPI_HOST` value (`None`: unset).
pub(crate) fn targets(host: Option<&str>) -> Vec<Target> {
    let host = host
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .unwrap_or(":0");
    let port = |n: &str| n.parse::<u16>().ok().and_then(|n| n.checked_add(BASE_PORT));
    match host.rsplit_once(':') {
        Some(("", name)) => {
            let mut out = vec![Target::Local(PathBuf::from(SOCKET_DIR).join(name))];
            // libbrlapi tries the loopback addresses when the socket fails and the name is a
            // number.
            if let Some(p) = port(name) {
                out.push(Target::Tcp("127.0.0.1".into(), p));
                out.push(Target::Tcp("::1".into(), p));
            }
            out
        }
        Some((addr, n)) => {
            let addr = addr.trim_start_matches('[').trim_end_matches(']');
            vec![Target::Tcp(addr.into(), port(n).unwrap_or(BASE_PORT))]
        }
        None => vec![Target::Tcp(host.into(), BASE_PORT)],
    }
}

/// The key file a `BRLAPI_AUTH` value names (`None`: unset), as libbrlapi reads it:
/// `keyfile:PATH`, `…+keyfile:PATH+…`, or the value itself; `none` names no file.
pub(crate) fn key_file(auth: Option<&str>) -> Option<PathBuf> {
    let auth = auth.unwrap_or("keyfile:/etc/brlapi.key+polkit");
    let path = match auth.strip_prefix("keyfile:") {
        Some(rest) => rest,
        None => match auth.find("+keyfile:") {
            Some(at) => &auth[at + "+keyfile:".len()..],
            None => auth,
        },
    };
    let path = path.split('+').next().unwrap_or_default();
    (!path.is_empty() && path != "none" && path != "polkit").then(|| PathBuf::from(path))
}

/// The key: the file's bytes, at most what a packet carries; `None` when it cannot be read
/// (the server may not need it). The key is a secret: it is never shown.
pub(crate) fn read_key(path: &std::path::Path) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut key = Vec::new();
    file.take(MAX_KEY_LEN as u64).read_to_end(&mut key).ok()?;
    (!key.is_empty()).then_some(key)
}

/// The path of the tty to take, from the environment (`var`) and the tty number of
/// `/proc/self/stat` (`stat_tty`): the X window path and the window or console, as libbrlapi
/// builds it; empty (the whole display) when hector is on no console it can name, as in a
/// terminal over ssh or in tmux.
pub(crate) fn tty_path(var: impl Fn(&str) -> Option<String>, stat_tty: Option<u64>) -> Vec<u32> {
    let number = |name: &str| var(name).and_then(|v| v.trim().parse::<u32>().ok());
    let graphical = var("DISPLAY").is_some() || var("WAYLAND_DISPLAY").is_some();
    let prefix = var("WINDOWPATH").or_else(|| if graphical { var("XDG_VTNR") } else { None });
    let mut path: Vec<u32> = prefix
        .map(|p| {
            p.split('.')
                .map(|n| n.trim().parse::<u32>())
                .collect::<Result<Vec<u32>, _>>()
                .unwrap_or_default()
        })
        .unwrap_or_default();
    let tty = number("WINDOWID")
        .or_else(|| number("CONTROLVT"))
        .or_else(|| if graphical { None } else { number("XDG_VTNR") })
        .or_else(|| stat_tty.and_then(virtual_console));
    if let Some(tty) = tty {
        path.push(tty);
    }
    path
}

/// The Linux virtual console of a device number (major 4, minor 1 to 63), if it is one.
fn virtual_console(dev: u64) -> Option<u32> {
    let major = (dev >> 8) & 0xfff;
    let minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
    (major == 4 && (1..=63).contains(&minor)).then_some(minor as u32)
}

/// The controlling terminal's device number from `/proc/self/stat` (its seventh field).
pub(crate) fn controlling_tty() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // "pid (name) state ppid pgrp session tty_nr": the name may hold spaces.
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(4)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(name: &str) -> Target {
        Target::Local(PathBuf::from(SOCKET_DIR).join(name))
    }

    #[test]
    fn hosts_as_libbrlapi_reads_them() {
        let zero = vec![
            local("0"),
            Target::Tcp("127.0.0.1".into(), 4101),
            Target::Tcp("::1".into(), 4101),
        ];
        assert_eq!(targets(None), zero);
        assert_eq!(targets(Some("")), zero);
        assert_eq!(targets(Some(":0")), zero);
        assert_eq!(targets(Some(":hector-test")), vec![local("hector-test")]);
        assert_eq!(
            targets(Some("127.0.0.1:17")),
            vec![Target::Tcp("127.0.0.1".into(), 4118)]
        );
        assert_eq!(
            targets(Some("[::1]:2")),
            vec![Target::Tcp("::1".into(), 4103)]
        );
        assert_eq!(
            targets(Some("braille.local")),
            vec![Target::Tcp("braille.local".into(), 4101)]
        );
        assert_eq!(
            targets(Some("host:x")),
            vec![Target::Tcp("host".into(), 4101)]
        );
        assert_eq!(targets(Some(":70000")), vec![local("70000")]);
    }

    #[test]
    fn key_files_as_libbrlapi_reads_them() {
        // Debian's brltty makes this key file; libbrlapi reads it when BRLAPI_AUTH names none.
        assert_eq!(key_file(None), Some(PathBuf::from("/etc/brlapi.key")));
        assert_eq!(
            key_file(Some("keyfile:/tmp/k")),
            Some(PathBuf::from("/tmp/k"))
        );
        assert_eq!(
            key_file(Some("polkit+keyfile:/tmp/k+x")),
            Some(PathBuf::from("/tmp/k"))
        );
        assert_eq!(key_file(Some("/tmp/k")), Some(PathBuf::from("/tmp/k")));
        assert_eq!(key_file(Some("none")), None);
        assert_eq!(key_file(Some("")), None);
    }

    #[test]
    fn the_tty_path_the_console_or_the_whole_display() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        // A pseudo-terminal (ssh, tmux, a test): the whole display.
        assert_eq!(tty_path(env(&[]), Some(0x8802)), Vec::<u32>::new());
        // tty3: major 4, minor 3.
        assert_eq!(tty_path(env(&[]), Some(0x0403)), vec![3]);
        assert_eq!(tty_path(env(&[("XDG_VTNR", "2")]), None), vec![2]);
        // An xterm in an X session on VT 7.
        assert_eq!(
            tty_path(
                env(&[
                    ("DISPLAY", ":0"),
                    ("WINDOWPATH", "7"),
                    ("WINDOWID", "41943046")
                ]),
                None
            ),
            vec![7, 41943046]
        );
        assert_eq!(
            tty_path(env(&[("DISPLAY", ":0"), ("XDG_VTNR", "2")]), None),
            vec![2]
        );
        assert_eq!(
            tty_path(env(&[("WINDOWPATH", "x.y")]), Some(0x0401)),
            vec![1]
        );
    }

    #[test]
    fn a_key_file_is_read_whole_and_an_empty_one_is_none() {
        let dir = std::env::temp_dir().join(format!("hector-brlapi-key-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let key = dir.join("key");
        std::fs::write(&key, b"0123456789abcdef\n").expect("key");
        assert_eq!(read_key(&key), Some(b"0123456789abcdef\n".to_vec()));
        std::fs::write(&key, b"").expect("empty");
        assert_eq!(read_key(&key), None);
        assert_eq!(read_key(&dir), None, "a directory");
        assert_eq!(read_key(&dir.join("missing")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
