//! docs/rules.md §4 cross-checks: the worked examples of the seed documents as unit tests.
//!
//! Each test builds a diagram position from a FEN (the pieces are listed in the comment
//! above it), plays or inspects a move, and checks the captures / legality / result the
//! seed states. Seeds (described in docs/rules.md §5): 000 Kowalski (parcae page), 001
//! Latrunculi XXI (J. Carrillo), 002 Savard / Falkener / Bell, 003 the hobbyist "common"
//! rules, 004 Schädler's rules for play.
//!
//! Where a seed's diagram is not reproduced in the text, the position is the smallest
//! one that satisfies everything the text says about it; such reconstructions are
//! marked "reconstructed".

mod common;
mod helpers;
mod kowalski;
mod savard_falkener_bell;
mod schadler;
mod xxi;
