//! A stand-in for the microphone: a recorder program put first on the PATH under the names
//! hector starts (`parec`, `pw-record`, `arecord`), so that the code a player's microphone
//! runs through (starting the recorder, its first sound, draining, listening, its stall) is
//! the code the tests run. It takes the options the real program takes, as its manual
//! describes them, refuses others as the real one would, and streams at real-time pace in the
//! rate, channels and sample format it was asked for (converted by sox), so a changed argument
//! changes the sound hector hears. Between phrases it streams a quiet noise floor; a phrase
//! the test hands it (`say`) follows after 1.5 s of that floor, as a person speaks after the
//! prompt. What each program was asked for is written down for the test to read.
//!
//! The program is a Perl script using only what perl-base has (Debian's essential Perl), and
//! sox (installed by scripts/setup for the voice tests).
#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::pty::TempDir;

/// What a stand-in recorder does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Streams the floor and the phrases handed to it.
    Stream,
    /// Ends at once with an error on standard error, as a recorder with no sound server does.
    Fail,
    /// Starts and sends nothing.
    Silent,
    /// Streams until the end of the first phrase, then sends nothing more.
    StallAfterPhrase,
}

impl Behaviour {
    fn word(self) -> &'static str {
        match self {
            Behaviour::Stream => "stream",
            Behaviour::Fail => "fail",
            Behaviour::Silent => "silent",
            Behaviour::StallAfterPhrase => "stall",
        }
    }
}

const SCRIPT: &str = r#"#!/usr/bin/perl
# A stand-in recorder for hector's tests (tests/common/microphone.rs).
use strict;
use warnings;

my ($name) = $0 =~ m{([^/]+)$};
my $dir = $ENV{HECTOR_TEST_MICROPHONE} or die "$name: HECTOR_TEST_MICROPHONE is not set\n";
my $hires = eval { require Time::HiRes; 1 };

sub slurp { my ($f) = @_; open(my $h, '<', $f) or return undef; local $/; my $t = <$h>; close $h; return $t; }
sub refuse { my ($why) = @_; print STDERR "$name: $why\n"; exit 1; }

my $behaviour = slurp("$dir/$name.behaviour");
$behaviour = defined $behaviour ? (split /\s+/, $behaviour)[0] : 'stream';

# The options each program takes (its manual page), and its defaults.
my ($rate, $channels, $format);
my @args = @ARGV;
if ($name eq 'parec') {
    ($rate, $channels, $format) = (44100, 2, 's16le');
    for my $a (@args) {
        if ($a eq '--raw' || $a =~ /^--latency-msec=\d+$/ || $a =~ /^--device=/ || $a =~ /^-d$/) { next; }
        elsif ($a =~ /^--format=(.+)$/) { $format = $1; }
        elsif ($a =~ /^--rate=(\d+)$/) { $rate = $1; }
        elsif ($a =~ /^--channels=(\d+)$/) { $channels = $1; }
        else { refuse("unrecognized option '$a'"); }
    }
} elsif ($name eq 'pw-record') {
    ($rate, $channels, $format) = (48000, 2, 's16');
    my $file;
    while (@args) {
        my $a = shift @args;
        if ($a eq '--rate') { $rate = shift @args; }
        elsif ($a eq '--channels') { $channels = shift @args; }
        elsif ($a eq '--format') { $format = shift @args; }
        elsif ($a eq '--latency' || $a eq '--target') { shift @args; }
        elsif ($a =~ /^-/ && $a ne '-') { refuse("unrecognized option '$a'"); }
        else { $file = $a; }
    }
    refuse("no output file given") unless defined $file;
    refuse("cannot write to $file here") unless $file eq '-';
} elsif ($name eq 'arecord') {
    ($rate, $channels, $format) = (8000, 1, 'U8');
    while (@args) {
        my $a = shift @args;
        if ($a eq '-q') { next; }
        elsif ($a eq '-t') { my $t = shift @args; refuse("only raw here, not $t") unless $t eq 'raw'; }
        elsif ($a eq '-f') { $format = shift @args; }
        elsif ($a eq '-r') { $rate = shift @args; }
        elsif ($a eq '-c') { $channels = shift @args; }
        elsif ($a eq '-F' || $a eq '-D' || $a eq '-B') { shift @args; }
        else { refuse("invalid option -- '$a'"); }
    }
} else {
    refuse("no such recorder");
}
refuse("bad rate $rate") unless defined $rate && $rate =~ /^\d+$/ && $rate >= 1000;
refuse("bad channels $channels") unless defined $channels && $channels =~ /^\d+$/ && $channels >= 1;
# sox's words for the sample format.
my %encodings = (
    's16le' => [qw(-e signed -b 16 -L)], 's16' => [qw(-e signed -b 16 -L)], 'S16_LE' => [qw(-e signed -b 16 -L)],
    's16be' => [qw(-e signed -b 16 -B)], 'S16_BE' => [qw(-e signed -b 16 -B)],
    'u8' => [qw(-e unsigned -b 8)], 'U8' => [qw(-e unsigned -b 8)],
    's32le' => [qw(-e signed -b 32 -L)], 's32' => [qw(-e signed -b 32 -L)], 'S32_LE' => [qw(-e signed -b 32 -L)],
    'float32le' => [qw(-e floating-point -b 32 -L)], 'f32' => [qw(-e floating-point -b 32 -L)], 'FLOAT_LE' => [qw(-e floating-point -b 32 -L)],
);
my $encoding = $encodings{$format} or refuse("invalid sample format $format");
my $bytes = $encoding->[3] / 8;

open(my $log, '>>', "$dir/$name.asked") or die;
print $log "rate=$rate channels=$channels format=$format args=@ARGV\n";
close $log;

if ($behaviour eq 'fail') { refuse("Connection failure: Connection refused"); }
if ($behaviour eq 'silent') { sleep 600 while 1; }

sub sound {
    my ($file) = @_;
    open(my $h, '-|', 'sox', $file, '-t', 'raw', '-r', $rate, '-c', $channels, @$encoding, '-') or die "sox: $!";
    binmode $h;
    local $/;
    my $s = <$h>;
    close $h;
    return $s // '';
}

binmode STDOUT;
$SIG{PIPE} = sub { exit 0 };
my $floor = sound("$dir/floor.wav");
my $block = int($rate / 50) * $channels * $bytes;
my ($at, $n, $lead, $phrase, $stalled) = (0, 1, 0, undef, 0);
my $next = $hires ? Time::HiRes::time() : 0;
while (1) {
    if (!defined $phrase && $lead == 0 && -e "$dir/say-$n.ready") {
        $phrase = sound("$dir/say-$n.wav");
        $n++;
        $lead = 75;
    }
    my $out;
    if ($lead > 0 || !defined $phrase) {
        $lead-- if $lead > 0;
        $out = substr($floor, $at, $block);
        $at = ($at + $block) % (length($floor) - length($floor) % $block);
    } else {
        $out = substr($phrase, 0, $block, '');
        $out .= substr($floor, 0, $block - length($out)) if length($out) < $block;
        if ($phrase eq '') {
            $phrase = undef;
            if (open(my $done, '>', "$dir/done-" . ($n - 1))) { close $done; }
            $stalled = 1 if $behaviour eq 'stall';
        }
    }
    my $written = syswrite(STDOUT, $out);
    exit 0 unless defined $written;
    if ($stalled) { sleep 600 while 1; }
    # Real time: a block each 20 ms (after a blocked write, from now on).
    if ($hires) {
        $next += 0.02;
        my $now = Time::HiRes::time();
        if ($next > $now) { Time::HiRes::sleep($next - $now); } else { $next = $now; }
    } else {
        select(undef, undef, undef, 0.02);
    }
}
"#;

/// The recorders on a folder of their own, and the folder they read their instructions from.
pub struct Microphone {
    /// The folder put on the PATH: the three recorders (and sox, for a PATH of this alone).
    pub bin: TempDir,
    /// The folder of phrases, behaviours and what each recorder was asked for.
    pub dir: TempDir,
    said: usize,
}

impl Microphone {
    /// The three recorders, each behaving as `behaviour` names it (a program not named is
    /// not there at all); the floor noise made.
    pub fn new(programs: &[(&str, Behaviour)]) -> Microphone {
        let bin = TempDir::new("recorders");
        let dir = TempDir::new("microphone");
        let script = dir.join("recorder.pl");
        std::fs::write(&script, SCRIPT).expect("the recorder script");
        set_executable(&script);
        for (program, behaviour) in programs {
            std::os::unix::fs::symlink(&script, bin.join(program)).expect("a recorder");
            std::fs::write(dir.join(format!("{program}.behaviour")), behaviour.word())
                .expect("a behaviour");
        }
        // A PATH of this folder alone still finds sox, which the recorders use.
        if let Some(sox) = super::find_program("sox") {
            std::os::unix::fs::symlink(sox, bin.join("sox")).expect("sox");
        }
        run(&[
            "sox",
            "-R",
            "-n",
            "-r",
            "16000",
            "-c",
            "1",
            "-b",
            "16",
            &dir.join("floor.wav").display().to_string(),
            "synth",
            "2",
            "whitenoise",
            "vol",
            "0.0005",
        ]);
        Microphone { bin, dir, said: 0 }
    }

    /// The three recorders streaming (parec is the one hector takes first).
    pub fn streaming() -> Microphone {
        Microphone::new(&[
            ("parec", Behaviour::Stream),
            ("pw-record", Behaviour::Stream),
            ("arecord", Behaviour::Stream),
        ])
    }

    /// The environment's PATH with the recorders first.
    pub fn path_first(&self) -> String {
        format!(
            "{}:{}:/usr/games",
            self.bin.display(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
        )
    }

    /// A PATH of the recorders' folder alone: the programs not named are missing.
    pub fn path_alone(&self) -> String {
        self.bin.display().to_string()
    }

    /// The variable that tells the recorders where their instructions are.
    pub fn var(&self) -> (&'static str, String) {
        ("HECTOR_TEST_MICROPHONE", self.dir.display().to_string())
    }

    /// The person speaks: the recording `wav` follows on the stream (after 1.5 s of floor).
    pub fn say(&mut self, wav: &Path) {
        self.said += 1;
        let n = self.said;
        std::fs::copy(wav, self.dir.join(format!("say-{n}.wav"))).expect("the phrase");
        std::fs::write(self.dir.join(format!("say-{n}.ready")), b"").expect("ready");
    }

    /// Waits until everything said so far has been streamed to its end.
    pub fn said_through(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !self.dir.join(format!("done-{}", self.said)).exists() {
            assert!(
                Instant::now() < deadline,
                "phrase {} not streamed",
                self.said
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What `program` was asked for, once it was started: "rate=… channels=… format=…".
    pub fn asked(&self, program: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(text) = std::fs::read_to_string(self.dir.join(format!("{program}.asked")))
                && !text.is_empty()
            {
                return text;
            }
            assert!(Instant::now() < deadline, "{program} was never started");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn set_executable(path: &PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn run(args: &[&str]) {
    let out = Command::new(args[0])
        .args(&args[1..])
        .stdin(Stdio::null())
        .output()
        .expect("the program runs");
    assert!(out.status.success(), "{args:?}: {out:?}");
}
