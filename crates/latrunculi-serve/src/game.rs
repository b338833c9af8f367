//! One game in play (a ruleset, two players, the positions so far) and the JSON views of
//! positions and games that the page draws. Every rule comes from `latrunculi_rules`:
//! legal moves, their notation, captures, results and FEN.

use latrunculi_agents::AgentSpec;
use latrunculi_rules::{Color, Move, MoveKind, MoveText, Outcome, PieceKind, Position, Reason, Ruleset, Square};
use serde::Serialize;

use crate::error::ServeError;

/// Who plays a side.
#[derive(Clone, Debug)]
pub enum Player {
    /// A person at the page.
    Human,
    /// An agent, from a checked spec (see [`crate::agents`]).
    Agent(AgentSpec),
}

impl Player {
    /// `human` or the agent's canonical spec.
    pub fn name(&self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Agent(spec) => spec.to_string(),
        }
    }
}

/// One ply played: the move and the engine's notation of it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Its notation (captures, traps, suffix).
    pub text: MoveText,
}

/// A game in play.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's id.
    pub id: String,
    /// The ruleset label as results write it (`xxi@12x8`).
    pub label: String,
    /// The ruleset.
    pub ruleset: Ruleset,
    /// White's and Black's players.
    pub players: [Player; 2],
    /// The position before each ply and after the last: `positions[i]` after `i` plies.
    pub positions: Vec<Position>,
    /// Every ply played.
    pub plies: Vec<Played>,
    /// The game's seed (agents' seeds derive from it and the ply).
    pub seed: u64,
    /// Whether the game started from the ruleset's own starting position.
    pub standard_start: bool,
}

impl Game {
    /// A new game from `start`.
    pub fn new(id: String, label: String, ruleset: Ruleset, players: [Player; 2], start: Position, seed: u64) -> Game {
        let standard_start = start == Position::new(&ruleset);
        Game { id, label, ruleset, players, positions: vec![start], plies: Vec::new(), seed, standard_start }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has its start")
    }

    /// The player of the side to move.
    pub fn to_move(&self) -> &Player {
        &self.players[self.position().side_to_move().index()]
    }

    /// Plays a legal move (checked by the caller or by [`Game::play_token`]).
    pub fn play(&mut self, mv: Move) -> Result<(), ServeError> {
        let before = self.position().clone();
        let mut after = before.clone();
        let fx = after.try_play(mv).ok_or_else(|| ServeError::IllegalMove {
            token: format!("{mv:?}"),
            side: before.side_to_move().name().to_string(),
            ply: before.ply(),
            message: "not a legal move here".to_string(),
        })?;
        let text = MoveText::build(&before, &after, after.outcome(), mv, &fx);
        self.positions.push(after);
        self.plies.push(Played { mv, text });
        Ok(())
    }

    /// Reads `token` in the game's notation and plays it; an unreadable or illegal move
    /// is an error naming the move and why, and changes nothing.
    pub fn play_token(&mut self, token: &str) -> Result<(), ServeError> {
        let pos = self.position();
        let illegal = |message: String| ServeError::IllegalMove {
            token: token.to_string(),
            side: pos.side_to_move().name().to_string(),
            ply: pos.ply(),
            message,
        };
        if let Some(o) = pos.outcome() {
            return Err(illegal(format!("the game is over ({})", outcome_text(o))));
        }
        let pm = latrunculi_rules::parse_move(&self.ruleset, pos, token.trim()).map_err(|e| illegal(e.to_string()))?;
        self.play(pm.mv)
    }

    /// Takes back the last `n` plies (at most all of them); returns how many.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.plies.len());
        for _ in 0..n {
            self.plies.pop();
            self.positions.pop();
        }
        n
    }

    /// The game as a record in the toolkit's notation (tags, numbered moves, result),
    /// which `latrunculi replay` reads.
    pub fn record(&self) -> String {
        let pos = self.position();
        let mut tags = vec![
            ("Event", "latrunculi serve".to_string()),
            ("Ruleset", self.ruleset.id.clone()),
            ("Board", format!("{}x{}", self.ruleset.width, self.ruleset.height)),
            ("Label", self.label.clone()),
            ("White", self.players[0].name()),
            ("Black", self.players[1].name()),
        ];
        if !self.standard_start {
            tags.push(("FEN", self.positions[0].to_setup().to_fen()));
        }
        let result = pos.outcome().map_or("*", |o| o.score_text());
        tags.push(("Result", result.to_string()));
        let mut out: String = tags.iter().map(|(k, v)| format!("[{k} \"{}\"]\n", escape(v))).collect();
        out.push('\n');
        out.push_str(&self.movetext());
        if !self.plies.is_empty() {
            out.push(' ');
        }
        out.push_str(result);
        out.push('\n');
        out
    }

    /// The moves as numbered movetext, e.g. `1. a1-a5 b8-b5 2. c1-c5xb5`.
    pub fn movetext(&self) -> String {
        let mut out: Vec<String> = Vec::new();
        for (i, p) in self.plies.iter().enumerate() {
            let before = &self.positions[i];
            let number = before.ply() / 2 + 1;
            let text = p.text.to_string();
            if before.side_to_move() == Color::White {
                out.push(format!("{number}. {text}"));
            } else if i == 0 {
                out.push(format!("{number}... {text}"));
            } else {
                out.push(text);
            }
        }
        out.join(" ")
    }

    /// The JSON view of the game.
    pub fn view(&self) -> GameView {
        let pos = self.position();
        GameView {
            id: self.id.clone(),
            ruleset: self.label.clone(),
            name: self.ruleset.name.clone(),
            white: self.players[0].name(),
            black: self.players[1].name(),
            board: board_view(pos),
            legal: legal_view(pos),
            moves: self.plies.iter().zip(&self.positions).map(|(p, before)| ply_view(before, &p.text)).collect(),
            movetext: self.movetext(),
            record: self.record(),
            agent_to_move: !pos.is_over() && matches!(self.to_move(), Player::Agent(_)),
        }
    }
}

/// Escapes a tag value (`"` and `\`).
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A position as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// One character per square, rank 1 first and file a first within a rank: `S`/`D`
    /// White soldier/Dux, `s`/`d` Black's, `T`/`t` trapped soldiers, `.` empty.
    pub cells: String,
    /// `white` or `black`.
    pub side_to_move: String,
    /// The piece that must make the next ply of a turn that goes on after a capture.
    pub pending: Option<String>,
    /// Pieces in hand: `[soldiers, duxes]` for White and for Black.
    pub hands: [[u8; 2]; 2],
    /// Plies played.
    pub ply: u32,
    /// Plies since the last capture.
    pub since_capture: u32,
    /// The position as FEN.
    pub fen: String,
    /// The result, once the rules end the game.
    pub outcome: Option<OutcomeView>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// `white`, `black` or `draw`.
    pub winner: String,
    /// The reason (docs/rules.md §1), e.g. `immobilized`.
    pub reason: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub score: String,
    /// The result in words.
    pub text: String,
}

/// A legal move of the side to move.
#[derive(Clone, Debug, Serialize)]
pub struct LegalView {
    /// Start square (the square itself for placements and removals).
    pub from: String,
    /// End square, placement square or square of the removed piece.
    pub to: String,
    /// `move`, `place` or `remove`.
    pub kind: &'static str,
    /// For placements: `soldier` or `dux`.
    pub piece: Option<&'static str>,
    /// The move in the game's notation, e.g. `c1-c5xb5`.
    pub text: String,
}

/// A ply of a game.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    /// `1.` or `1...`.
    pub number: String,
    /// `white` or `black`.
    pub side: String,
    /// The notation, e.g. `c1-c5xb5`.
    pub text: String,
    /// Start square.
    pub from: String,
    /// End square.
    pub to: String,
    /// `move`, `place` or `remove`.
    pub kind: &'static str,
    /// Squares whose pieces the ply removed.
    pub captured: Vec<String>,
    /// Squares whose pieces the ply trapped.
    pub trapped: Vec<String>,
}

/// The JSON view of a game in play.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// The ruleset label.
    pub ruleset: String,
    /// The ruleset's name.
    pub name: String,
    /// White's player: `human` or an agent spec.
    pub white: String,
    /// Black's player.
    pub black: String,
    /// The current position.
    pub board: BoardView,
    /// The legal moves of the side to move (none once the game is over).
    pub legal: Vec<LegalView>,
    /// Every ply so far.
    pub moves: Vec<PlyView>,
    /// The numbered movetext.
    pub movetext: String,
    /// The whole record (tags, moves, result), for downloading.
    pub record: String,
    /// Whether an agent is to move (the page asks it to).
    pub agent_to_move: bool,
}

/// The result in words, e.g. `White wins: the Dux could not move (immobilized)`.
pub fn outcome_text(o: Outcome) -> String {
    let why = match o.reason {
        Reason::Immobilized => "a Dux could not move",
        Reason::Bare => "a side with a Dux had no soldiers left",
        Reason::Annihilated => "a side was reduced to the ruleset's minimum of pieces",
        Reason::DuxCaptured => "a Dux was captured",
        Reason::Stalemate => "the side to move had no legal move",
        Reason::Repetition => "a position occurred again",
        Reason::NoCaptureLimit => "too many plies without a capture",
        Reason::Material => "the piece count decided",
        Reason::PlyCap => "the ply cap was reached",
    };
    let who = match o.winner {
        Some(Color::White) => "White wins",
        Some(Color::Black) => "Black wins",
        None => "Draw",
    };
    format!("{who} {}: {why} ({})", o.score_text(), o.reason)
}

/// The view of `pos`.
pub fn board_view(pos: &Position) -> BoardView {
    let rules = pos.rules();
    let mut cells = String::with_capacity(rules.width as usize * rules.height as usize);
    for r in 0..rules.height {
        for f in 0..rules.width {
            let p = Square::new(f, r).and_then(|s| pos.piece_at(s));
            cells.push(p.map_or('.', |p| p.symbol()));
        }
    }
    let hand = |c: Color| {
        let (s, d) = pos.in_hand(c);
        [s, d]
    };
    BoardView {
        width: rules.width,
        height: rules.height,
        cells,
        side_to_move: pos.side_to_move().name().to_string(),
        pending: pos.pending().map(|s| s.to_string()),
        hands: [hand(Color::White), hand(Color::Black)],
        ply: pos.ply(),
        since_capture: pos.plies_since_capture(),
        fen: pos.to_setup().to_fen(),
        outcome: pos.outcome().map(|o| OutcomeView {
            winner: o.winner_text().to_string(),
            reason: o.reason.to_string(),
            score: o.score_text().to_string(),
            text: outcome_text(o),
        }),
    }
}

/// `move`, `place` or `remove`, and the placed piece.
fn kind_of(mv: Move) -> (&'static str, Option<&'static str>) {
    match mv.kind {
        MoveKind::Move => ("move", None),
        MoveKind::Place(PieceKind::Dux) => ("place", Some("dux")),
        MoveKind::Place(PieceKind::Soldier) => ("place", Some("soldier")),
        MoveKind::Remove => ("remove", None),
    }
}

/// The legal moves of `pos` with their notation.
pub fn legal_view(pos: &Position) -> Vec<LegalView> {
    if pos.is_over() {
        return Vec::new();
    }
    pos.legal_move_list()
        .into_iter()
        .map(|mv| {
            let (kind, piece) = kind_of(mv);
            LegalView {
                from: mv.from.to_string(),
                to: mv.to.to_string(),
                kind,
                piece,
                text: pos.move_to_string(mv).unwrap_or_default(),
            }
        })
        .collect()
}

/// The view of a ply played from `before`.
pub fn ply_view(before: &Position, text: &MoveText) -> PlyView {
    let side = before.side_to_move();
    let number = before.ply() / 2 + 1;
    let mv = text.mv;
    PlyView {
        number: if side == Color::White { format!("{number}.") } else { format!("{number}...") },
        side: side.name().to_string(),
        text: text.to_string(),
        from: mv.from.to_string(),
        to: mv.to.to_string(),
        kind: kind_of(mv).0,
        captured: text.captures.iter().map(|s| s.to_string()).collect(),
        trapped: text.traps.iter().map(|s| s.to_string()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        let rs = Ruleset::builtin("xxi").expect("xxi");
        let start = Position::new(&rs);
        Game::new("g".into(), "xxi".into(), rs, [Player::Human, Player::Human], start, 1)
    }

    #[test]
    fn moves_are_played_recorded_and_taken_back() {
        let mut g = game();
        g.play_token("a1-a5").expect("legal");
        g.play_token("b8-b5").expect("legal");
        g.play_token("c1-c5").expect("legal");
        assert_eq!(g.movetext(), "1. a1-a5 b8-b5 2. c1-c5xb5");
        let v = g.view();
        assert_eq!(v.moves[2].captured, vec!["b5"]);
        assert_eq!(v.board.fen, "s1ssssssss/4d5/10/S1S7/10/10/5D4/1S1SSSSSSS b - 0 3");
        // The record replays to the same position.
        let record = latrunculi_rules::GameRecord::parse(&g.record()).expect("a record");
        let report = latrunculi_rules::replay(&record, Default::default()).expect("replays");
        assert_eq!(report.final_fen, v.board.fen);
        assert_eq!(g.undo(2), 2);
        assert_eq!(g.movetext(), "1. a1-a5");
        assert_eq!(g.undo(9), 1);
        assert_eq!(g.position(), &Position::new(&g.ruleset));
    }

    #[test]
    fn an_illegal_move_names_itself_and_changes_nothing() {
        let mut g = game();
        let e = g.play_token("a8-a5").expect_err("black's piece").to_string();
        assert!(e.contains("a8-a5") && e.contains("white to move"), "{e}");
        let e = g.play_token("zz").expect_err("malformed").to_string();
        assert!(e.contains("'zz'"), "{e}");
        assert!(g.plies.is_empty() && g.positions.len() == 1);
    }

    #[test]
    fn the_board_view_lists_cells_rank_one_first() {
        let v = game().view();
        assert_eq!(v.board.cells.len(), 80);
        assert!(v.board.cells.starts_with("SSSSSSSSSS.....D...."), "{}", v.board.cells);
        assert!(v.legal.iter().any(|m| m.text == "a1-a7" && m.kind == "move"));
    }
}
