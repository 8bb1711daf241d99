//! The one error type of tahur.
//!
//! User mistakes (bad arguments, unreadable or unwritable files, incompatible shard files) are
//! [`Error::Usage`] and end the program with exit code 2 and a one-line message; anything else
//! is a bug and ends with exit code 1.

/// What went wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A mistake the user can fix: the message names the bad value and what would be accepted.
    #[error("{0}")]
    Usage(String),
    /// A rule given a value it does not take.
    #[error("invalid {key}={value}: {accepts}")]
    BadRule {
        /// The rule's key.
        key: &'static str,
        /// The value as given.
        value: String,
        /// What the rule accepts.
        accepts: &'static str,
    },
    /// A rule the game does not have.
    #[error("unknown rule '{key}' in '{spec}': keys are {keys}")]
    UnknownRule {
        /// The key as given.
        key: String,
        /// The whole list of changes it came in.
        spec: String,
        /// The game's keys.
        keys: String,
    },
    /// A failure that is not the user's doing.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// A usage error with the given message.
    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) | Error::BadRule { .. } | Error::UnknownRule { .. } => 2,
            Error::Internal(_) => 1,
        }
    }
}

/// Result with tahur's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
