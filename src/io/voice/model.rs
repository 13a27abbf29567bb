//! Where the acoustic model is: Debian's US English model, or a PocketSphinx model the player
//! names (`--voice-model DIR`), with the pronunciation dictionary found beside it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Debian's US English model (package pocketsphinx-en-us).
pub const DEBIAN_MODEL: &str = "/usr/share/pocketsphinx/model/en-us/en-us";

/// How deep below a named folder the model's `mdef` is looked for (a model unpacked from an
/// archive sits a folder or two down).
const DEPTH: usize = 3;

/// An acoustic model found, and its own dictionary if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    pub(crate) dir: PathBuf,
    pub(crate) dictionary: Option<PathBuf>,
}

/// Why no model can be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelProblem {
    /// Debian's model is not installed.
    NoDefault(PathBuf),
    /// The folder the player named holds no model.
    NoModel(PathBuf),
}

/// The model in `named` (the folder with `mdef`, or a folder above it), else Debian's.
pub fn find(named: Option<&Path>) -> Result<Model, ModelProblem> {
    let Some(dir) = named else {
        let dir = PathBuf::from(DEBIAN_MODEL);
        if dir.join("mdef").is_file() {
            return Ok(Model {
                dir,
                dictionary: None,
            });
        }
        return Err(ModelProblem::NoDefault(dir));
    };
    let Some(found) = with_mdef(dir, DEPTH) else {
        return Err(ModelProblem::NoModel(dir.to_path_buf()));
    };
    let dictionary = dictionary_near(&found).or_else(|| dictionary_near(dir));
    Ok(Model {
        dir: found,
        dictionary,
    })
}

/// How long the set-up of a named model may take in its own process: Debian's English
/// model loads in well under a second; a model that takes longer is not waited on.
const CHECK_LIMIT: Duration = Duration::from_secs(30);

/// Whether the recogniser can be set up with the model the player named (`named`), for
/// the language `code` with its `words`, tried in a process of its own
/// (`hector voice-model-check`): PocketSphinx ends the process on some damaged model files
/// (an mdef cut short, means or a sendump of other bytes) and crashes on others, instead of
/// refusing them. A refusal in words there (status 2) is a model hector can be told about
/// in this process; a crash, another status, or no answer in [`CHECK_LIMIT`] is not.
pub(crate) fn survives(named: &Path, code: &str, words: &str) -> bool {
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    let child = Command::new(exe)
        .arg("voice-model-check")
        .arg(named)
        .args([code, words])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    let deadline = Instant::now() + CHECK_LIMIT;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return matches!(status.code(), Some(0 | 2)),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return false;
            }
        }
    }
}

fn with_mdef(dir: &Path, depth: usize) -> Option<PathBuf> {
    if dir.join("mdef").is_file() {
        return Some(dir.to_path_buf());
    }
    if depth == 0 {
        return None;
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    subdirs.sort();
    subdirs.iter().find_map(|d| with_mdef(d, depth - 1))
}

/// A `.dic` or `.dict` file in `dir` or the folder above it (models keep it beside their
/// folder), the first by name.
fn dictionary_near(dir: &Path) -> Option<PathBuf> {
    let look = |d: &Path| -> Option<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(d)
            .ok()?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "dic" || e == "dict"))
            .collect();
        files.sort();
        files.into_iter().next()
    };
    look(dir).or_else(|| dir.parent().and_then(look))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_found_below_the_folder_named_with_its_dictionary_beside_it() {
        let root = std::env::temp_dir().join(format!("hector-model-{}", std::process::id()));
        let model = root.join("voxforge").join("model_parameters");
        std::fs::create_dir_all(&model).expect("folders");
        std::fs::write(model.join("mdef"), "").expect("mdef");
        std::fs::write(root.join("voxforge").join("de.dic"), "").expect("dic");
        let found = find(Some(&root));
        let _ = std::fs::remove_dir_all(&root);
        let found = found.expect("the model");
        assert_eq!(found.dir, model);
        assert_eq!(found.dictionary, Some(root.join("voxforge").join("de.dic")));
    }

    #[test]
    fn a_folder_without_a_model_is_named() {
        let dir = std::env::temp_dir().join(format!("hector-nomodel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("folder");
        let found = find(Some(&dir));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(found, Err(ModelProblem::NoModel(dir)));
    }
}
