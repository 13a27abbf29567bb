use super::*;

/// A folder removed when the test ends, also when it fails.
struct Temp(PathBuf);

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp(name: &str) -> Temp {
    let dir = std::env::temp_dir().join(format!("hector-owned-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Temp(dir)
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Each kind of stranger where `name` belongs in `dir`, with the outside file it may lead
/// to (`outside`, whose text must stay "outside").
fn plant(dir: &Path, name: &str, kind: usize, outside: &Path) -> Stranger {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&path);
    match kind {
        0 => {
            std::os::unix::fs::symlink(outside, &path).expect("link");
            Stranger::Link
        }
        1 => {
            std::fs::hard_link(outside, &path).expect("hard link");
            Stranger::HardLinked
        }
        2 => {
            std::os::unix::fs::symlink(dir.join("nowhere"), &path).expect("link");
            Stranger::Link
        }
        _ => {
            std::fs::create_dir(&path).expect("folder");
            Stranger::NotAFile
        }
    }
}

#[test]
fn a_whole_file_is_written_and_replaced_and_nothing_else_is_left() {
    let t = temp("write");
    let path = t.0.join("sub").join("puzzles.progress");
    write(&path, b"one", Privacy::Default, Replace::FileOnly).expect("written");
    write(&path, b"two", Privacy::Default, Replace::FileOnly).expect("replaced");
    assert_eq!(std::fs::read(&path).expect("read"), b"two");
    assert_eq!(names(&t.0.join("sub")), ["puzzles.progress"]);
    let private = t.0.join("token");
    write(&private, b"x", Privacy::Owner, Replace::Links).expect("written");
    let meta = std::fs::metadata(&private).expect("meta");
    assert!(platform::is_private(&meta));
}

#[test]
fn no_kind_of_link_is_written_through_and_each_is_named() {
    let t = temp("strangers");
    let outside = t.0.join("outside");
    for kind in 0..4 {
        std::fs::write(&outside, "outside").expect("outside");
        let expected = plant(&t.0, "owned", kind, &outside);
        let path = t.0.join("owned");
        let refused = write(&path, b"new", Privacy::Default, Replace::FileOnly);
        assert!(
            matches!(refused, Err(OwnedError::NotOwn { kind, .. }) if kind == expected),
            "{kind}: {refused:?}"
        );
        let read_back = read(&path, 100);
        assert!(
            matches!(read_back, Err(OwnedError::NotOwn { .. })) || kind == 2,
            "{kind}: {read_back:?}"
        );
        let appended = open_append(&path, Privacy::Owner);
        assert!(
            matches!(appended, Err(OwnedError::NotOwn { .. })),
            "{kind}: {appended:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&outside).expect("outside"),
            "outside"
        );
        assert!(!t.0.join("nowhere").exists(), "{kind}");
        let meta = std::fs::metadata(&outside).expect("outside");
        assert!(
            !platform::is_private(&meta) || kind == 3,
            "{kind}: chmod-ed"
        );
    }
    // A link to nothing reads as a link too.
    plant(&t.0, "owned", 2, &outside);
    assert!(matches!(
        read(&t.0.join("owned"), 100),
        Err(OwnedError::NotOwn {
            kind: Stranger::Link,
            ..
        })
    ));
}

#[test]
fn a_login_replaces_a_link_by_a_file_of_its_own() {
    let t = temp("login");
    let outside = t.0.join("outside");
    for kind in 0..3 {
        std::fs::write(&outside, "outside").expect("outside");
        plant(&t.0, "token", kind, &outside);
        let path = t.0.join("token");
        write(&path, b"new", Privacy::Owner, Replace::Links).expect("replaced");
        let meta = std::fs::symlink_metadata(&path).expect("token");
        assert!(
            meta.is_file() && platform::links(&path, &meta) == 1,
            "{kind}"
        );
        assert_eq!(
            std::fs::read_to_string(&outside).expect("outside"),
            "outside"
        );
    }
    plant(&t.0, "token", 3, &outside);
    assert!(write(&t.0.join("token"), b"new", Privacy::Owner, Replace::Links).is_err());
}

#[test]
fn reading_stops_at_the_formats_limit() {
    let t = temp("read");
    let path = t.0.join("f");
    assert!(read(&path, 10).expect("nothing").is_none());
    std::fs::write(&path, b"0123456789").expect("file");
    assert_eq!(read(&path, 10).expect("read"), Some(b"0123456789".to_vec()));
    assert!(matches!(
        read(&path, 9),
        Err(OwnedError::TooLarge {
            size: 10,
            limit: 9,
            ..
        })
    ));
}

#[test]
fn an_unreadable_file_is_set_aside_under_a_name_that_says_so() {
    let t = temp("aside");
    let path = t.0.join("training.progress");
    std::fs::write(&path, "hector-training 9\n").expect("file");
    let first = set_aside(&path).expect("set aside");
    std::fs::write(&path, "again").expect("file");
    let second = set_aside(&path).expect("set aside");
    assert_ne!(first, second);
    assert!(!path.exists());
    for aside in [&first, &second] {
        let name = aside
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(name.starts_with("training.progress.unreadable-"), "{name}");
    }
    assert_eq!(
        std::fs::read_to_string(&first).expect("kept"),
        "hector-training 9\n"
    );
}

#[test]
fn an_appended_file_is_made_private_through_itself() {
    let t = temp("append");
    let path = t.0.join("voice.log");
    std::fs::write(&path, "old\n").expect("file");
    platform::set_mode(&File::open(&path).expect("open"), 0o644).expect("mode");
    let (mut file, size) = open_append(&path, Privacy::Owner).expect("open");
    assert_eq!(size, 4);
    file.write_all(b"new\n").expect("write");
    assert_eq!(std::fs::read_to_string(&path).expect("log"), "old\nnew\n");
    assert!(platform::is_private(
        &std::fs::metadata(&path).expect("meta")
    ));
}
