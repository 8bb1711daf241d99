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
            Error::Usage(_) => 2,
            Error::Internal(_) => 1,
        }
    }
}

/// Result with tahur's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
