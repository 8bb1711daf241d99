//! Every integration test of tahur in one binary: one link of the library instead of one per
//! file, so a fresh clone builds its tests in a fraction of the time. Each file is a module;
//! `common` runs the command line as a user would, `allocations` counts allocations per thread.

mod advise;
mod allocations;
mod cli;
mod common;
mod completions;
mod conformance;
mod domino_deal;
mod domino_games;
mod dudo_advise;
mod dudo_exact;
mod dudo_games;
mod dudo_position;
mod dudo_tuned;
mod durak_cli;
mod durak_games;
mod durak_position;
mod durak_redeal;
mod fingerprint;
mod montecarlo;
mod ocho_cli;
mod ocho_games;
mod ocho_position;
mod output_paths;
mod play_cli;
mod play_layer;
mod poker_exact;
mod poker_games;
mod readme_rules;
mod schedulers;
mod sheets_and_parsers;
mod signals;
mod veintiuno_bank;
mod veintiuno_exact;
mod veintiuno_games;
