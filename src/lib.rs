//! # tahur
//!
//! Exact odds and reproducible parallel Monte Carlo for Latin American and Russian parlor games.
//!
//! The library holds everything the games compute; the `tahur` binary (`src/main.rs` and
//! `src/cli/`) parses arguments, calls it and prints.
//!
//! - [`games`]: one folder per game (rules as parameters, engine, bots, exact analysis).
//! - [`play`]: the whole-game layer: the engine and bot traits every game implements, and
//!   sim, compare, tournament and flags written once against them.
//! - [`runner`]: the one simulation runner (chunked, seeded, parallel, shardable, interruptible).
//! - [`progress`]: progress bars and `--progress` lines, one per command, in its own unit.
//! - [`rng`]: xoshiro256++ streams and exactly unbiased dice.
//! - [`bits`]: card and tile sets as bit words, and selecting their `k`-th member fast.
//! - [`stats`]: estimates, intervals and comparisons (paired ones included).
//! - [`text`]: names, counts, `key=value` lists and bot specs as users type them.
//! - [`humanize`]: numbers in plain language.
//! - [`report`]: text, CSV, JSON and Markdown exporters, SVG charts, atomic output.
//! - [`shards`]: partial results of sharded runs and their merge.
//! - [`signals`]: whether Ctrl-C, SIGTERM or SIGHUP asked the process to stop.

#![deny(missing_docs)]

/// `eprintln!` that never panics: a message to a closed stderr (`tahur … 2>&1 | head`, then
/// Ctrl-C) is dropped instead of aborting the run that is printing what it computed.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod bits;
pub mod error;
pub mod games;
pub mod humanize;
pub mod jobs;
pub mod math;
pub mod play;
pub mod progress;
pub mod report;
pub mod rng;
pub mod runner;
pub mod shards;
pub mod signals;
pub mod stats;
pub mod text;

pub use error::{Error, Result};
