//! What a reader of latrunculi's files reports.

use std::path::PathBuf;

/// A file that cannot be read, or a line of it that does not hold what it should.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A line that does not hold what it should.
    #[error("{} line {line}: {message}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}
