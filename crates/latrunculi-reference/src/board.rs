//! The plain board of the reference engine: a `Vec<Option<Cell>>` indexed by
//! `(file, rank)`, with signed coordinates so that "one step off the edge" is just a
//! position for which [`Board::on_board`] is false.

use latrunculi_rules::{Color, Piece, PieceKind, Square};

/// A board coordinate `(file, rank)`, both 0-based; may lie off the board.
pub(crate) type Pos = (i32, i32);

/// The 4 rook directions.
pub(crate) const ORTHOGONAL: [Pos; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The 4 diagonal directions.
pub(crate) const DIAGONAL: [Pos; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The line directions: the 4 orthogonal ones, plus the 4 diagonals when `diagonal`.
pub(crate) fn line_directions(diagonal: bool) -> Vec<Pos> {
    let mut dirs = ORTHOGONAL.to_vec();
    if diagonal {
        dirs.extend(DIAGONAL);
    }
    dirs
}

/// `p + k·d`.
pub(crate) fn step(p: Pos, d: Pos, k: i32) -> Pos {
    (p.0 + k * d.0, p.1 + k * d.1)
}

/// The two directions perpendicular to `d`.
pub(crate) fn perpendiculars(d: Pos) -> [Pos; 2] {
    [(-d.1, d.0), (d.1, -d.0)]
}

/// Chebyshev distance (number of king steps) between two positions.
pub(crate) fn distance(a: Pos, b: Pos) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// The position of a square.
pub(crate) fn pos_of(sq: Square) -> Pos {
    (sq.file() as i32, sq.rank() as i32)
}

/// The square of an on-board position.
pub(crate) fn square_of(p: Pos) -> Square {
    // Internal invariant: only on-board positions (at most 16 × 16) are converted.
    Square::new(p.0 as u8, p.1 as u8).expect("on-board position")
}

/// One occupied square: the piece, and for a trapped piece the two squares holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    /// The piece (its `trapped` flag is true exactly when `holders` is `Some`).
    pub piece: Piece,
    /// The holder squares of a trapped piece, smaller first.
    pub holders: Option<(Pos, Pos)>,
}

impl Cell {
    /// A free piece.
    pub fn free(color: Color, kind: PieceKind) -> Cell {
        Cell { piece: Piece::new(color, kind), holders: None }
    }

    /// The same piece, trapped and held by `a` and `b`.
    pub fn trapped_by(self, a: Pos, b: Pos) -> Cell {
        let holders = if a <= b { (a, b) } else { (b, a) };
        Cell { piece: Piece { trapped: true, ..self.piece }, holders: Some(holders) }
    }

    /// The same piece, free.
    pub fn released(self) -> Cell {
        Cell { piece: Piece { trapped: false, ..self.piece }, holders: None }
    }
}

/// A rectangular board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Files.
    pub width: i32,
    /// Ranks.
    pub height: i32,
    /// `cells[rank * width + file]`.
    cells: Vec<Option<Cell>>,
}

impl Board {
    /// An empty board.
    pub fn new(width: u8, height: u8) -> Board {
        let (width, height) = (width as i32, height as i32);
        Board { width, height, cells: vec![None; (width * height) as usize] }
    }

    /// Whether `p` is a square of this board.
    pub fn on_board(&self, p: Pos) -> bool {
        p.0 >= 0 && p.0 < self.width && p.1 >= 0 && p.1 < self.height
    }

    /// The cell at `p`: `None` when empty or off the board.
    pub fn get(&self, p: Pos) -> Option<Cell> {
        if self.on_board(p) { self.cells[(p.1 * self.width + p.0) as usize] } else { None }
    }

    /// Puts `cell` (or nothing) on the on-board square `p`.
    pub fn set(&mut self, p: Pos, cell: Option<Cell>) {
        assert!(self.on_board(p), "set off the board at {p:?}");
        self.cells[(p.1 * self.width + p.0) as usize] = cell;
    }

    /// Whether `p` is an empty on-board square.
    pub fn is_empty(&self, p: Pos) -> bool {
        self.on_board(p) && self.get(p).is_none()
    }

    /// Whether `p` holds a piece of `color` (any kind, free or trapped).
    pub fn has_piece_of(&self, p: Pos, color: Color) -> bool {
        self.get(p).is_some_and(|c| c.piece.color == color)
    }

    /// Whether `p` holds a soldier of `color` (free or trapped).
    pub fn has_soldier_of(&self, p: Pos, color: Color) -> bool {
        self.get(p).is_some_and(|c| c.piece.color == color && c.piece.kind == PieceKind::Soldier)
    }

    /// Whether `p` holds a free piece of `color`.
    pub fn has_free_piece_of(&self, p: Pos, color: Color) -> bool {
        self.get(p).is_some_and(|c| c.piece.color == color && !c.piece.trapped)
    }

    /// Every square of the board, rank by rank.
    pub fn all_squares(&self) -> Vec<Pos> {
        let mut out = Vec::new();
        for r in 0..self.height {
            for f in 0..self.width {
                out.push((f, r));
            }
        }
        out
    }

    /// The on-board orthogonal neighbours of `p`.
    pub fn neighbours4(&self, p: Pos) -> Vec<Pos> {
        ORTHOGONAL.iter().map(|&d| step(p, d, 1)).filter(|&q| self.on_board(q)).collect()
    }

    /// The four corner squares.
    pub fn corners(&self) -> [Pos; 4] {
        let (w, h) = (self.width - 1, self.height - 1);
        [(0, 0), (w, 0), (0, h), (w, h)]
    }

    /// Where the Dux of `color` stands, if it is on the board.
    pub fn dux_of(&self, color: Color) -> Option<Pos> {
        self.all_squares()
            .into_iter()
            .find(|&p| self.get(p).is_some_and(|c| c.piece.color == color && c.piece.kind == PieceKind::Dux))
    }

    /// Number of pieces of `color` on the board (all kinds, trapped included).
    pub fn count_pieces(&self, color: Color) -> u32 {
        self.all_squares().into_iter().filter(|&p| self.has_piece_of(p, color)).count() as u32
    }

    /// Number of soldiers of `color` on the board (trapped included).
    pub fn count_soldiers(&self, color: Color) -> u32 {
        self.all_squares().into_iter().filter(|&p| self.has_soldier_of(p, color)).count() as u32
    }
}
