//! The games. Each game is one folder: its rules and options, its engine, its bots and its exact
//! analysis, all driven through the shared [`crate::runner`], [`crate::stats`] and
//! [`crate::report`].

pub mod dudo;
pub mod durak;
pub mod veintiuno;
