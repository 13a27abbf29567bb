//! Where hector's sound cues are and how speech-dispatcher is told to play one.
//!
//! speech-dispatcher plays a sound icon in its queue, in order with the text around it: its
//! output modules (espeak-ng, generic) join their icon folder
//! (`/usr/share/sounds/sound-icons/` unless configured) and the name they are given. hector's
//! sounds are not in that folder, so the name is the way there from it ("../../../../usr/
//! share/hector/sounds/capture.wav"). That way exists only when the folder does (Debian's
//! sound-icons package, which speech-dispatcher recommends): hector looks before it sends a
//! name, because the espeak-ng module speaks an icon it cannot find as words.
//!
//! Where speech-dispatcher cannot be the one to play them (espeak-ng, the print backend, the
//! screen readers and voices of Windows, or no icon folder), hector plays them itself
//! (`platform::sound`): the files are read once into memory at the player's volume.
//!
//! The files are hector's own (scripts/sounds makes them; assets/sounds/README.md says their
//! licence). A volume under 100 is made once for speech-dispatcher, as scaled copies in the
//! cache folder; hector's own player gets the samples scaled in memory.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::core::cue::Cue;

/// The icon folder of speech-dispatcher's modules when their configuration names none.
pub(crate) const DEFAULT_ICON_FOLDER: &str = "/usr/share/sounds/sound-icons";

/// hector's sounds as speech-dispatcher can find them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sounds {
    /// Where the sound files at the player's volume are (`capture.wav`, …); none when the
    /// scaled copies could not be written (then speech-dispatcher is sent no icon).
    pub dir: Option<PathBuf>,
    /// The folder the output modules join icon names to.
    pub icon_folder: PathBuf,
    /// The same sounds in memory, at the player's volume, for hector's own player.
    pub clips: Clips,
}

/// One sound file in memory, shared by every utterance that plays it.
pub(crate) type Clip = Arc<[u8]>;

/// WAV files in memory by their name without the extension (`capture`, `capture-check`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Clips(Arc<BTreeMap<String, Clip>>);

impl std::fmt::Debug for Clips {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.0.keys()).finish()
    }
}

impl Clips {
    /// Every cue's file in `dir` (and each move's with check), with its samples scaled to
    /// `volume` percent; a file that is missing or not 16-bit PCM is left out.
    pub(crate) fn load(dir: &Path, volume: u8) -> Clips {
        let clips = stems()
            .filter_map(|stem| {
                let bytes = std::fs::read(dir.join(format!("{stem}.wav"))).ok()?;
                let scaled = scale_wav(&bytes, volume)?;
                Some((stem, Arc::from(scaled)))
            })
            .collect();
        Clips(Arc::new(clips))
    }

    fn get(&self, stem: &str) -> Option<Clip> {
        self.0.get(stem).cloned()
    }
}

/// The names of hector's sound files without the extension: each cue's, and each move's
/// with check.
fn stems() -> impl Iterator<Item = String> {
    Cue::ALL.iter().map(|c| c.name().to_string()).chain(
        [Cue::Move, Cue::Capture, Cue::Castle, Cue::Promotion]
            .iter()
            .map(|c| format!("{}-{}", c.name(), Cue::Check.name())),
    )
}

impl Sounds {
    /// The names to send for `cues`, in order: one file for them all when there is one (a
    /// capture that checks: `capture-check.wav`), else one each. speech-dispatcher's generic
    /// module can drop an icon sent right after another.
    pub(crate) fn icon_names(&self, cues: &[Cue]) -> Vec<String> {
        if cues.len() > 1 {
            let joined: Vec<&str> = cues.iter().map(|c| c.name()).collect();
            if let Some(name) = self.name_of(&joined.join("-")) {
                return vec![name];
            }
        }
        cues.iter().filter_map(|c| self.icon_name(*c)).collect()
    }

    /// The name to send for `cue`: the way from the icon folder to its file, when that way
    /// leads to it and speech-dispatcher can take it as one word; else none (no sound).
    pub(crate) fn icon_name(&self, cue: Cue) -> Option<String> {
        self.name_of(cue.name())
    }

    /// The sounds hector plays itself for `cues`, in order: one for them all when there is
    /// one (as [`Sounds::icon_names`]), else one each; a cue without a sound has none.
    pub(crate) fn clips_for(&self, cues: &[Cue]) -> Vec<Clip> {
        if cues.len() > 1 {
            let joined: Vec<&str> = cues.iter().map(|c| c.name()).collect();
            if let Some(clip) = self.clips.get(&joined.join("-")) {
                return vec![clip];
            }
        }
        cues.iter()
            .filter_map(|c| self.clips.get(c.name()))
            .collect()
    }

    /// How long the sounds of `cues` play, from their files (speech-dispatcher's icons are
    /// the same files): what a printed line waits for at most, with a margin.
    pub(crate) fn length_of(&self, cues: &[Cue]) -> Duration {
        self.clips_for(cues)
            .iter()
            .filter_map(|clip| wav_length(clip))
            .sum()
    }

    fn name_of(&self, stem: &str) -> Option<String> {
        let file = self.dir.as_ref()?.join(format!("{stem}.wav"));
        let name = relative_from(&self.icon_folder, &file)?;
        let usable = !name.is_empty()
            && !name
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '\'' || c == '\\')
            && self.icon_folder.join(&name).is_file();
        usable.then_some(name)
    }
}

/// The sounds the settings ask for, where they can be played from: none when they are off,
/// their files cannot be found, or their volume is 0.
pub(crate) fn for_settings(s: &crate::core::settings::SoundSettings) -> Option<Sounds> {
    if !s.cues || s.volume == 0 {
        return None;
    }
    let source = sound_dir()?;
    let dir = at_volume(
        &source,
        crate::io::platform::folders::data().as_deref(),
        s.volume,
    );
    Some(Sounds {
        dir,
        clips: Clips::load(&source, s.volume),
        icon_folder: s
            .icon_folder
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_ICON_FOLDER)),
    })
}

/// The way from the absolute folder `from` to the absolute `to`: up to the root, then down.
fn relative_from(from: &Path, to: &Path) -> Option<String> {
    if !from.is_absolute() || !to.is_absolute() {
        return None;
    }
    let depth = from
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .count();
    let down: Vec<String> = to
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_str().map(str::to_string)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let mut parts = vec!["..".to_string(); depth];
    parts.extend(down);
    Some(parts.join("/"))
}

/// The folder of hector's sound files: `$HECTOR_SOUNDS`, else the installed one beside the
/// binary (`/usr/share/hector/sounds` for `/usr/bin/hector`; `sounds` beside hector.exe in
/// the Windows package), else the checkout's `assets/sounds` (a binary in target/debug or
/// target/release, or where it was built).
pub(crate) fn sound_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HECTOR_SOUNDS").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().ok();
    let bin = exe.as_deref().and_then(Path::parent);
    let installed = bin
        .and_then(Path::parent)
        .map(|p| p.join("share/hector/sounds"));
    let beside = bin.map(|p| p.join("sounds"));
    let checkout = bin
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(|p| p.join("assets/sounds"));
    let built = Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds"));
    [installed, beside, checkout, built]
        .into_iter()
        .flatten()
        .find(|d| d.join(format!("{}.wav", Cue::Move.name())).is_file())
}

/// The sounds at `volume` (0 to 100): the files themselves at 100, else copies scaled once
/// into `cache` (`sounds-VOLUME`). None when there is nothing to play (volume 0, no files,
/// a copy that cannot be written).
pub(crate) fn at_volume(dir: &Path, cache: Option<&Path>, volume: u8) -> Option<PathBuf> {
    if volume == 0 {
        return None;
    }
    if volume >= 100 {
        return Some(dir.to_path_buf());
    }
    let target = cache?.join(format!("sounds-{volume}"));
    for stem in stems() {
        let name = format!("{stem}.wav");
        let copy = target.join(&name);
        if copy.is_file() {
            continue;
        }
        let bytes = std::fs::read(dir.join(&name)).ok()?;
        let scaled = scale_wav(&bytes, volume)?;
        std::fs::create_dir_all(&target).ok()?;
        // Written whole under another name first: a half-written copy is never played.
        let part = target.join(format!("{name}.part"));
        std::fs::write(&part, scaled).ok()?;
        std::fs::rename(&part, &copy).ok()?;
    }
    Some(target)
}

/// A 16-bit PCM WAV file with its samples scaled to `volume` percent; None for any other
/// file (hector's own sounds are all 16-bit PCM).
pub(crate) fn scale_wav(bytes: &[u8], volume: u8) -> Option<Vec<u8>> {
    if bytes.get(0..4)? != b"RIFF" || bytes.get(8..12)? != b"WAVE" {
        return None;
    }
    let mut out = bytes.to_vec();
    let mut at = 12;
    let mut pcm16 = false;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().ok()?) as usize;
        let body = at + 8;
        let end = body.checked_add(len)?.min(bytes.len());
        if id == b"fmt " {
            let format = u16::from_le_bytes(bytes.get(body..body + 2)?.try_into().ok()?);
            let bits = u16::from_le_bytes(bytes.get(body + 14..body + 16)?.try_into().ok()?);
            pcm16 = format == 1 && bits == 16;
        } else if id == b"data" {
            if !pcm16 {
                return None;
            }
            for i in (body..end.saturating_sub(1)).step_by(2) {
                let s = i16::from_le_bytes([bytes[i], bytes[i + 1]]);
                let scaled = (i32::from(s) * i32::from(volume) / 100) as i16;
                out[i..i + 2].copy_from_slice(&scaled.to_le_bytes());
            }
            return Some(out);
        }
        // Chunks are padded to an even length.
        at = body.checked_add(len)?.checked_add(len % 2)?;
    }
    None
}

/// How long a PCM WAV file plays: its data's bytes over the bytes per second its format
/// names; None for a file that says neither.
pub(crate) fn wav_length(bytes: &[u8]) -> Option<Duration> {
    if bytes.get(0..4)? != b"RIFF" || bytes.get(8..12)? != b"WAVE" {
        return None;
    }
    let mut at = 12;
    let mut per_second = None;
    while at + 8 <= bytes.len() {
        let id = &bytes[at..at + 4];
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().ok()?);
        let body = at + 8;
        if id == b"fmt " {
            let rate = u32::from_le_bytes(bytes.get(body + 8..body + 12)?.try_into().ok()?);
            per_second = Some(rate).filter(|r| *r > 0);
        } else if id == b"data" {
            let present = bytes.len().saturating_sub(body).min(len as usize);
            let millis = present as u64 * 1000 / u64::from(per_second?);
            return Some(Duration::from_millis(millis));
        }
        // Chunks are padded to an even length.
        at = body
            .checked_add(len as usize)?
            .checked_add(len as usize % 2)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(samples: &[i16]) -> Vec<u8> {
        let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        let mut b = Vec::new();
        b.extend_from_slice(b"RIFF");
        b.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
        b.extend_from_slice(b"WAVEfmt ");
        b.extend_from_slice(&16u32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes()); // PCM
        b.extend_from_slice(&1u16.to_le_bytes()); // mono
        b.extend_from_slice(&22050u32.to_le_bytes());
        b.extend_from_slice(&44100u32.to_le_bytes());
        b.extend_from_slice(&2u16.to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(b"data");
        b.extend_from_slice(&(data.len() as u32).to_le_bytes());
        b.extend_from_slice(&data);
        b
    }

    // speech-dispatcher's icon names are Unix paths; it does not run on Windows.
    #[cfg(unix)]
    #[test]
    fn the_way_from_the_icon_folder_goes_up_to_the_root_and_down() {
        assert_eq!(
            relative_from(
                Path::new("/usr/share/sounds/sound-icons"),
                Path::new("/usr/share/hector/sounds/capture.wav")
            )
            .as_deref(),
            Some("../../../../usr/share/hector/sounds/capture.wav")
        );
        assert_eq!(relative_from(Path::new("icons"), Path::new("/a.wav")), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_name_is_sent_only_when_it_leads_to_the_file() {
        let dir = std::env::temp_dir().join(format!("hector-sounds-{}", std::process::id()));
        let sounds = dir.join("sounds");
        let icons = dir.join("icons");
        std::fs::create_dir_all(&sounds).expect("dir");
        std::fs::write(sounds.join("capture.wav"), wav(&[1, 2])).expect("file");
        let set = Sounds {
            dir: Some(sounds.clone()),
            icon_folder: icons.clone(),
            clips: Clips::default(),
        };
        // No icon folder: the way does not exist.
        assert_eq!(set.icon_name(Cue::Capture), None);
        std::fs::create_dir_all(&icons).expect("icons");
        let name = set.icon_name(Cue::Capture).expect("a name");
        assert!(name.starts_with("../") && name.ends_with("/sounds/capture.wav"));
        // A cue whose file is missing has no name.
        assert_eq!(set.icon_name(Cue::Check), None);
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn clips_are_read_at_the_volume_and_joined_where_a_file_joins_them() {
        let dir = std::env::temp_dir().join(format!("hector-clips-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("capture.wav"), wav(&[1000, -1000])).expect("file");
        std::fs::write(dir.join("check.wav"), wav(&[2000])).expect("file");
        std::fs::write(dir.join("move-check.wav"), wav(&[3000])).expect("file");
        // Not a WAV file: left out, not played.
        std::fs::write(dir.join("end.wav"), b"not a wav file").expect("file");
        let clips = Clips::load(&dir, 50);
        std::fs::remove_dir_all(&dir).expect("clean up");
        let set = Sounds {
            dir: None,
            icon_folder: PathBuf::from(DEFAULT_ICON_FOLDER),
            clips,
        };
        let samples = |clip: &Clip| -> Vec<i16> {
            clip[44..]
                .chunks(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let played: Vec<Vec<i16>> = set
            .clips_for(&[Cue::Capture, Cue::Check])
            .iter()
            .map(samples)
            .collect();
        // No capture-check.wav: the capture's sound, then the check's, each at half.
        assert_eq!(played, [vec![500, -500], vec![1000]]);
        let played: Vec<Vec<i16>> = set
            .clips_for(&[Cue::Move, Cue::Check])
            .iter()
            .map(samples)
            .collect();
        assert_eq!(played, [vec![1500]]);
        assert!(set.clips_for(&[Cue::End]).is_empty());
        assert!(set.clips_for(&[]).is_empty());
        // No folder of scaled copies: speech-dispatcher is sent no name.
        assert!(set.icon_names(&[Cue::Capture]).is_empty());
    }

    #[test]
    fn a_volume_scales_the_samples_and_nothing_else() {
        let original = wav(&[1000, -1000, 32767, -32768]);
        let half = scale_wav(&original, 50).expect("pcm16");
        assert_eq!(half.len(), original.len());
        assert_eq!(half[..44], original[..44]);
        let samples: Vec<i16> = half[44..]
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(samples, [500, -500, 16383, -16384]);
        assert_eq!(scale_wav(b"not a wav file at all", 50), None);
        assert_eq!(scale_wav(&original[..30], 50), None);
    }

    #[test]
    fn a_sound_lasts_its_data_over_its_bytes_per_second() {
        // 11025 samples of 16 bits at 44100 bytes a second: half a second.
        let half = wav(&vec![0; 11025]);
        assert_eq!(wav_length(&half), Some(Duration::from_millis(500)));
        // A file cut short lasts what it holds.
        assert_eq!(
            wav_length(&half[..44 + 4410]),
            Some(Duration::from_millis(100))
        );
        assert_eq!(wav_length(b"not a wav file at all"), None);
        // hector's own capture sound: 0.15 s, as SoX makes it.
        let capture =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sounds/capture.wav"))
                .expect("capture.wav");
        assert_eq!(wav_length(&capture), Some(Duration::from_millis(149)));
        let set = Sounds {
            dir: None,
            icon_folder: PathBuf::from(DEFAULT_ICON_FOLDER),
            clips: Clips(Arc::new(BTreeMap::from([
                ("move".to_string(), Clip::from(half.clone())),
                ("check".to_string(), Clip::from(half)),
            ]))),
        };
        assert_eq!(
            set.length_of(&[Cue::Move, Cue::Check]),
            Duration::from_secs(1)
        );
        assert_eq!(set.length_of(&[Cue::End]), Duration::ZERO);
    }
}
