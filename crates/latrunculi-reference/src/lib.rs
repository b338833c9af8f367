//! Reference engine (work in progress).
