//! The phrase in the audio: cut out of the stream by the recogniser's voice activity flag,
//! and how long its speech lasts by the signal's energy. Audio here is 16 kHz mono, 16 bits,
//! the rate of the acoustic model.

/// Samples per second.
pub const RATE: usize = 16_000;
/// Samples per frame (10 ms): the recogniser's unit.
pub const FRAME: usize = RATE / 100;
/// Audio kept from before the voice activity flag rises: the flag rises some 100 ms into the
/// speech, and the recogniser wants a little silence before it.
pub(crate) const BEFORE: usize = RATE / 2;

/// The frames from the first to the last one whose energy is 9 dB above the quiet of the
/// recording (its 10th percentile): the span of speech, at least 1.
pub fn speech_frames(samples: &[i16]) -> u32 {
    let energies: Vec<f64> = samples
        .chunks_exact(FRAME)
        .map(|frame| {
            let power = frame
                .iter()
                .map(|&s| f64::from(s) * f64::from(s))
                .sum::<f64>()
                / FRAME as f64;
            10.0 * (power + 1.0).log10()
        })
        .collect();
    if energies.is_empty() {
        return 1;
    }
    let mut sorted = energies.clone();
    sorted.sort_by(f64::total_cmp);
    let quiet = sorted[sorted.len() / 10];
    let loud = |e: &&f64| **e > quiet + 9.0;
    let first = energies.iter().position(|e| loud(&e));
    let last = energies.iter().rposition(|e| loud(&e));
    match (first, last) {
        (Some(a), Some(b)) => u32::try_from(b - a + 1).unwrap_or(u32::MAX),
        _ => 1,
    }
}

/// Where a phrase ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// At the first silence after speech: a microphone.
    FirstSilence,
    /// At the end of the audio: a recording is one phrase, pauses and all.
    End,
}

/// A phrase cut out of the audio.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Utterance {
    pub samples: Vec<i16>,
    /// It reached the longest phrase and was cut there.
    pub cut: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Waiting,
    Speaking,
    Paused,
}

/// Cuts the phrase out of audio given block by block, each with the voice activity flag the
/// recogniser gave after it.
#[derive(Clone, Debug)]
pub struct Cutter {
    cut: Cut,
    longest: usize,
    state: State,
    /// The audio before the flag rose (at most [`BEFORE`]), then the phrase.
    audio: Vec<i16>,
    /// Where the phrase begins in `audio`.
    start: usize,
}

impl Cutter {
    /// `longest`: samples after which a phrase is cut.
    pub fn new(cut: Cut, longest: usize) -> Cutter {
        Cutter {
            cut,
            longest: longest.max(FRAME),
            state: State::Waiting,
            audio: Vec::new(),
            start: 0,
        }
    }

    /// The audio kept so far: the phrase up to now once speech has begun (a prefix of the
    /// phrase it will give, which is what a decode started early reads).
    pub fn audio(&self) -> &[i16] {
        &self.audio
    }

    /// Whether speech has begun.
    pub fn heard_speech(&self) -> bool {
        self.state != State::Waiting
    }

    /// The next block; the phrase once it is complete.
    pub fn push(&mut self, block: &[i16], in_speech: bool) -> Option<Utterance> {
        self.audio.extend_from_slice(block);
        match (self.state, in_speech) {
            (State::Waiting, false) => {
                let excess = self.audio.len().saturating_sub(BEFORE);
                self.audio.drain(..excess);
                return None;
            }
            (State::Waiting, true) => {
                self.start = self.audio.len() - block.len();
                self.state = State::Speaking;
            }
            (State::Paused, true) => self.state = State::Speaking,
            (State::Speaking, false) => match self.cut {
                Cut::FirstSilence => return Some(self.take(false)),
                Cut::End => self.state = State::Paused,
            },
            (State::Speaking, true) | (State::Paused, false) => {}
        }
        if self.audio.len() - self.start >= self.longest {
            self.audio.truncate(self.start + self.longest);
            return Some(self.take(true));
        }
        None
    }

    /// The end of the audio: the phrase, if speech began.
    pub fn finish(&mut self) -> Option<Utterance> {
        self.heard_speech().then(|| self.take(false))
    }

    fn take(&mut self, cut: bool) -> Utterance {
        self.state = State::Waiting;
        Utterance {
            samples: std::mem::take(&mut self.audio),
            cut,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(frames: usize, amplitude: i16) -> Vec<i16> {
        (0..frames * FRAME)
            .map(|i| if i % 2 == 0 { amplitude } else { -amplitude })
            .collect()
    }

    #[test]
    fn the_span_of_speech_by_energy() {
        let mut audio = tone(30, 3);
        audio.extend(tone(50, 3000));
        audio.extend(tone(10, 3));
        audio.extend(tone(20, 3000));
        audio.extend(tone(40, 3));
        assert_eq!(speech_frames(&audio), 80);
        assert_eq!(speech_frames(&tone(20, 3)), 1);
        assert_eq!(speech_frames(&[]), 1);
    }

    #[test]
    fn a_microphones_phrase_ends_at_the_first_silence() {
        let mut c = Cutter::new(Cut::FirstSilence, RATE * 8);
        for _ in 0..100 {
            assert_eq!(c.push(&tone(1, 3), false), None);
        }
        assert!(!c.heard_speech());
        assert_eq!(c.push(&tone(1, 900), true), None);
        assert_eq!(c.push(&tone(1, 900), true), None);
        let so_far = c.audio().to_vec();
        let u = c.push(&tone(1, 3), false).expect("the phrase");
        assert!(u.samples.starts_with(&so_far));
        // Half a second before the flag rose, then the three blocks.
        assert_eq!(u.samples.len(), BEFORE + 3 * FRAME);
        assert!(!u.cut && !c.heard_speech());
        assert_eq!(c.finish(), None);
    }

    #[test]
    fn a_recording_is_one_phrase_to_its_end() {
        let mut c = Cutter::new(Cut::End, RATE * 8);
        assert_eq!(c.push(&tone(1, 900), true), None);
        assert_eq!(c.push(&tone(1, 3), false), None);
        assert_eq!(c.push(&tone(1, 900), true), None);
        assert_eq!(c.push(&tone(2, 3), false), None);
        let u = c.finish().expect("the phrase");
        assert_eq!(u.samples.len(), 5 * FRAME);
        assert!(!u.cut);
    }

    #[test]
    fn a_phrase_too_long_is_cut() {
        let mut c = Cutter::new(Cut::FirstSilence, 10 * FRAME);
        let mut got = None;
        for i in 0..100 {
            if let Some(u) = c.push(&tone(1, 900), true) {
                got = Some((i, u));
                break;
            }
        }
        let (i, u) = got.expect("cut");
        assert_eq!(i, 9);
        assert!(u.cut);
        assert_eq!(u.samples.len(), 10 * FRAME);
    }
}
