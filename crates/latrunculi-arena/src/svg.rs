//! SVG pictures of positions: [`position_svg`] draws the board with its file letters and
//! rank numbers, every piece (Duxes with a double ring and a crown, trapped pieces with a
//! dashed ring), the side to move, the pieces in hand and, optionally, the last move
//! (tinted from/to squares, an arrow, a red cross on each square it captured).
//!
//! The output is a self-contained SVG 1.1 document built as a plain string (no
//! dependencies), so any command can write it to a file or embed it in HTML. Every
//! drawn element carries a `class` (`piece`, `dux-mark`, `trapped-mark`, `last-from`,
//! `last-to`, `last-arrow`, `capture-mark`, …) and, where it belongs to one square, a
//! `data-square` attribute such as `data-square="e4"`, so the picture can be styled or
//! checked by tools.

use std::fmt::Write as _;

use latrunculi_rules::{Color, Effects, Move, MoveKind, PieceKind, Position, Square};

/// Side of one board square, in SVG user units (pixels).
pub const SQUARE: i32 = 48;
/// Space left of the board, for the rank numbers.
const MARGIN_LEFT: i32 = 30;
/// Space right of the board.
const MARGIN_RIGHT: i32 = 14;
/// Space above the board, for the side-to-move line.
const MARGIN_TOP: i32 = 40;
/// Radius of a piece.
const PIECE_R: i32 = 18;
/// Height of one text line below the board.
const LINE: i32 = 20;

/// The last move of a game, as [`position_svg`] highlights it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The move (a movement is drawn from `from` to `to`; a placement or removal marks
    /// only its square).
    pub mv: Move,
    /// Squares whose pieces the move removed (a removal ply lists its own square).
    pub captured: Vec<Square>,
    /// Squares whose pieces the move trapped.
    pub trapped: Vec<Square>,
    /// The caption, e.g. `2. c1-c5xb5` (empty for none).
    pub text: String,
}

impl LastMove {
    /// The last move from the move and the [`Effects`] that `Position::play` returned for
    /// it, with a caption such as `2. c1-c5xb5`.
    pub fn new(mv: Move, fx: &Effects, text: impl Into<String>) -> LastMove {
        LastMove { mv, captured: fx.captured(), trapped: fx.trapped(), text: text.into() }
    }
}

/// Top-left corner (x, y) of a square's cell in a picture of a board `height` ranks
/// high, as drawn by [`position_svg`]: files run left to right, rank 1 is at the bottom.
pub fn square_origin(height: u8, sq: Square) -> (i32, i32) {
    let x = MARGIN_LEFT + sq.file() as i32 * SQUARE;
    let y = MARGIN_TOP + (height as i32 - 1 - sq.rank() as i32) * SQUARE;
    (x, y)
}

/// Centre (x, y) of a square's cell (see [`square_origin`]).
pub fn square_center(height: u8, sq: Square) -> (i32, i32) {
    let (x, y) = square_origin(height, sq);
    (x + SQUARE / 2, y + SQUARE / 2)
}

/// Escapes text for use in SVG character data and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Capitalised colour name.
fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Fill and outline of a piece of colour `c`, and the colour of marks drawn on it.
fn piece_colors(c: Color) -> (&'static str, &'static str, &'static str) {
    match c {
        Color::White => ("#f7f5ee", "#2b2b2b", "#2b2b2b"),
        Color::Black => ("#262626", "#000000", "#e6e6e6"),
    }
}

/// `12 soldiers + Dux`, `1 soldier`, `Dux`, `none`.
fn hand_text(soldiers: u8, duxes: u8) -> String {
    let s = match soldiers {
        0 => String::new(),
        1 => "1 soldier".to_string(),
        n => format!("{n} soldiers"),
    };
    let d = match duxes {
        0 => String::new(),
        1 => "Dux".to_string(),
        n => format!("{n} Duxes"),
    };
    match (s.is_empty(), d.is_empty()) {
        (true, true) => "none".to_string(),
        (false, true) => s,
        (true, false) => d,
        (false, false) => format!("{s} + {d}"),
    }
}

/// Draws `pos` as a standalone SVG document: the board grid with file letters and rank
/// numbers, every piece (White light, Black dark; a Dux with an inner ring and a crown;
/// a trapped piece with a dashed orange ring), the side to move (or the result once the
/// game is over), the pieces in hand when any, and — when `last` is given — the last
/// move: its from and to squares tinted, an arrow between them, and a red cross on every
/// square it captured. Pure: the same input always gives the same text.
pub fn position_svg(pos: &Position, last: Option<&LastMove>) -> String {
    let rules = pos.rules();
    let (w, h) = (rules.width, rules.height);
    let board_w = w as i32 * SQUARE;
    let board_h = h as i32 * SQUARE;

    // Text lines below the board.
    let mut lines: Vec<String> = Vec::new();
    if let Some(l) = last
        && !l.text.is_empty()
    {
        lines.push(format!("Last move: {}", l.text));
    }
    let in_hand = Color::ALL.map(|c| pos.in_hand(c));
    if in_hand.iter().any(|&(s, d)| s > 0 || d > 0) {
        for c in Color::ALL {
            let (s, d) = in_hand[c.index()];
            lines.push(format!("In hand, {}: {}", side_name(c), hand_text(s, d)));
        }
    }

    let total_w = MARGIN_LEFT + board_w + MARGIN_RIGHT;
    let labels_y = MARGIN_TOP + board_h + 18;
    let total_h = labels_y + 8 + lines.len() as i32 * LINE + 6;

    let mut s = String::new();
    // `write!` to a String cannot fail; the results are ignored on purpose.
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{total_w}" height="{total_h}" viewBox="0 0 {total_w} {total_h}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">"#
    );
    let _ = writeln!(s, "<title>Latrunculi position {w}x{h}</title>");
    let _ = writeln!(s, "<desc>FEN: {}</desc>", esc(&pos.to_setup().to_fen()));
    s.push_str(concat!(
        "<defs><marker id=\"lm-arrowhead\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"3\" ",
        "markerHeight=\"3\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 Z\" fill=\"#1d4ed8\"/></marker></defs>\n"
    ));
    let _ =
        writeln!(s, r##"<rect class="background" x="0" y="0" width="{total_w}" height="{total_h}" fill="#ffffff"/>"##);

    // Side to move, or the result.
    let status = match pos.outcome() {
        Some(o) => format!("Game over: {o}"),
        None if pos.is_placement_phase() => format!("{} to place", side_name(pos.side_to_move())),
        None => format!("{} to move", side_name(pos.side_to_move())),
    };
    let (fill, stroke, _) = piece_colors(pos.side_to_move());
    if pos.outcome().is_none() {
        let _ = writeln!(
            s,
            r#"<circle class="to-move {}" cx="{}" cy="20" r="8" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            pos.side_to_move().name(),
            MARGIN_LEFT + 8
        );
    }
    let status_x = if pos.outcome().is_none() { MARGIN_LEFT + 22 } else { MARGIN_LEFT };
    let _ = writeln!(
        s,
        r##"<text class="status" x="{status_x}" y="25" font-size="15" font-weight="bold" fill="#222222">{}</text>"##,
        esc(&status)
    );

    // Board and grid.
    let _ = writeln!(
        s,
        r##"<rect class="board" x="{MARGIN_LEFT}" y="{MARGIN_TOP}" width="{board_w}" height="{board_h}" fill="#e9d4a7"/>"##
    );
    s.push_str(r##"<g class="grid" stroke="#7a5a36" stroke-width="1">"##);
    s.push('\n');
    for f in 1..w as i32 {
        let x = MARGIN_LEFT + f * SQUARE;
        let _ = writeln!(s, r#"<line x1="{x}" y1="{MARGIN_TOP}" x2="{x}" y2="{}"/>"#, MARGIN_TOP + board_h);
    }
    for r in 1..h as i32 {
        let y = MARGIN_TOP + r * SQUARE;
        let _ = writeln!(s, r#"<line x1="{MARGIN_LEFT}" y1="{y}" x2="{}" y2="{y}"/>"#, MARGIN_LEFT + board_w);
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        r##"<rect class="board-edge" x="{MARGIN_LEFT}" y="{MARGIN_TOP}" width="{board_w}" height="{board_h}" fill="none" stroke="#4a3520" stroke-width="2"/>"##
    );

    // Coordinates.
    s.push_str(r##"<g class="coords" font-size="13" fill="#444444" text-anchor="middle">"##);
    s.push('\n');
    for f in 0..w {
        let x = MARGIN_LEFT + f as i32 * SQUARE + SQUARE / 2;
        let _ = writeln!(s, r#"<text x="{x}" y="{labels_y}">{}</text>"#, (b'a' + f) as char);
    }
    for r in 0..h {
        let y = MARGIN_TOP + (h as i32 - 1 - r as i32) * SQUARE + SQUARE / 2 + 5;
        let _ = writeln!(s, r#"<text x="{}" y="{y}">{}</text>"#, MARGIN_LEFT / 2, r + 1);
    }
    s.push_str("</g>\n");

    // Last move: tinted squares (under the pieces).
    if let Some(l) = last {
        let tint = |s: &mut String, class: &str, sq: Square, fill: &str| {
            let (x, y) = square_origin(h, sq);
            let _ = writeln!(
                s,
                r#"<rect class="{class}" data-square="{sq}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}" fill-opacity="0.75"/>"#
            );
        };
        if l.mv.kind == MoveKind::Move {
            tint(&mut s, "last-from", l.mv.from, "#f3e27a");
        }
        if l.mv.kind != MoveKind::Remove {
            tint(&mut s, "last-to", l.mv.to, "#e9c830");
        }
        for &sq in &l.captured {
            tint(&mut s, "capture-square", sq, "#f4a3a3");
        }
    }

    // Pieces.
    for r in 0..h {
        for f in 0..w {
            let Some(sq) = Square::new(f, r) else { continue };
            let Some(p) = pos.piece_at(sq) else { continue };
            let (cx, cy) = square_center(h, sq);
            let (fill, stroke, mark) = piece_colors(p.color);
            let kind = match p.kind {
                PieceKind::Soldier => "soldier",
                PieceKind::Dux => "dux",
            };
            let _ = writeln!(
                s,
                r#"<circle class="piece {} {kind}" data-square="{sq}" cx="{cx}" cy="{cy}" r="{PIECE_R}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
                p.color.name()
            );
            if p.kind == PieceKind::Dux {
                let _ = writeln!(
                    s,
                    r#"<circle class="dux-ring" data-square="{sq}" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{mark}" stroke-width="1.5"/>"#,
                    PIECE_R - 5
                );
                // A three-pointed crown inside the ring.
                let (l, rr, top, base) = (cx - 8, cx + 8, cy - 7, cy + 5);
                let _ = writeln!(
                    s,
                    r##"<path class="dux-mark" data-square="{sq}" d="M{l} {base} L{l} {top} L{} {} L{cx} {top} L{} {} L{rr} {top} L{rr} {base} Z" fill="#d9a521" stroke="{mark}" stroke-width="1" stroke-linejoin="round"/>"##,
                    cx - 4,
                    cy - 1,
                    cx + 4,
                    cy - 1
                );
            }
            if p.trapped {
                let _ = writeln!(
                    s,
                    r##"<circle class="trapped-mark" data-square="{sq}" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#e07b00" stroke-width="3" stroke-dasharray="5 3"/>"##,
                    PIECE_R + 4
                );
            }
        }
    }

    // Last move: captures and the arrow (over the pieces).
    if let Some(l) = last {
        for &sq in &l.captured {
            let (x, y) = square_origin(h, sq);
            let (a, b) = (12, SQUARE - 12);
            let _ = writeln!(
                s,
                r##"<path class="capture-mark" data-square="{sq}" d="M{} {} L{} {} M{} {} L{} {}" stroke="#d11a1a" stroke-width="5" stroke-linecap="round" fill="none"/>"##,
                x + a,
                y + a,
                x + b,
                y + b,
                x + a,
                y + b,
                x + b,
                y + a
            );
        }
        if l.mv.kind == MoveKind::Move {
            let (x1, y1) = square_center(h, l.mv.from);
            let (x2, y2) = square_center(h, l.mv.to);
            let (dx, dy) = ((x2 - x1) as f64, (y2 - y1) as f64);
            let len = (dx * dx + dy * dy).sqrt();
            if len > 0.0 {
                // Stop the arrowhead at the edge of the piece on the target square.
                let cut = (PIECE_R + 8) as f64 / len;
                let (ex, ey) = (x2 as f64 - dx * cut, y2 as f64 - dy * cut);
                let _ = writeln!(
                    s,
                    r##"<line class="last-arrow" data-from="{}" data-to="{}" x1="{x1}" y1="{y1}" x2="{ex:.1}" y2="{ey:.1}" stroke="#1d4ed8" stroke-width="5" stroke-opacity="0.8" stroke-linecap="round" marker-end="url(#lm-arrowhead)"/>"##,
                    l.mv.from, l.mv.to
                );
            }
        }
    }

    // Info lines.
    for (i, line) in lines.iter().enumerate() {
        let y = labels_y + 8 + (i as i32 + 1) * LINE - 4;
        let _ = writeln!(
            s,
            r##"<text class="info" x="{MARGIN_LEFT}" y="{y}" font-size="14" fill="#222222">{}</text>"##,
            esc(line)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Checks that the tags of an XML-ish text balance (start/end tags nest, attribute
/// quotes close); returns the first problem. The pictures of this module pass it; tests
/// of other crates use it on what they write.
pub fn check_balanced(xml: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find('<') {
        let text = &rest[..i];
        if text.contains('>') {
            return Err(format!("stray '>' in text {text:?}"));
        }
        rest = &rest[i + 1..];
        // Find the end of the tag, skipping quoted attribute values.
        let mut quote = None;
        let mut end = None;
        for (k, c) in rest.char_indices() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '<') => return Err(format!("'<' inside a tag near {:?}", &rest[..k])),
                (None, '>') => {
                    end = Some(k);
                    break;
                }
                _ => {}
            }
        }
        let end = end.ok_or("unclosed tag")?;
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().ok_or("empty tag")?;
            stack.push(name.to_string());
        }
    }
    if rest.contains('>') {
        return Err("stray '>' at the end".to_string());
    }
    if stack.is_empty() { Ok(()) } else { Err(format!("unclosed: {stack:?}")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::{Ruleset, Setup};

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    /// The element of class `class` on `square` (the whole tag text).
    fn element<'a>(svg: &'a str, class: &str, square: &str) -> Option<&'a str> {
        let key = format!(r#"class="{class}" data-square="{square}""#);
        svg.lines().find(|l| l.contains(&key))
    }

    #[test]
    fn start_positions_draw_every_piece_and_dux_once() {
        let mut rulesets: Vec<Ruleset> = ["xxi", "kowalski", "classical", "back-rank", "savard"]
            .map(|id| Ruleset::builtin(id).expect("builtin"))
            .into();
        // The largest board: files a to p, ranks 1 to 16.
        rulesets.push(Ruleset::builtin("kowalski").expect("builtin").with_board(16, 16).expect("16x16"));
        for rs in rulesets {
            let id = rs.id.as_str();
            let pos = Position::new(&rs);
            let svg = position_svg(&pos, None);
            check_balanced(&svg).unwrap_or_else(|e| panic!("{id}: {e}"));
            let pieces = (pos.pieces_on_board(Color::White) + pos.pieces_on_board(Color::Black)) as usize;
            assert!(pieces > 0);
            assert_eq!(count(&svg, r#"class="piece "#), pieces, "{id}");
            let duxes = Color::ALL.iter().filter(|&&c| pos.dux_square(c).is_some()).count();
            assert_eq!(count(&svg, r#"class="dux-mark""#), duxes, "{id}");
            assert_eq!(count(&svg, r#"class="dux-ring""#), duxes, "{id}");
            // Each Dux mark sits on that Dux's square.
            for c in Color::ALL {
                if let Some(d) = pos.dux_square(c) {
                    assert!(element(&svg, "dux-mark", &d.to_string()).is_some(), "{id}: no mark on {d}");
                    let class = format!(r#"class="piece {} dux" data-square="{d}""#, c.name());
                    assert!(svg.contains(&class), "{id}: {class}");
                }
            }
            assert_eq!(count(&svg, r#"class="piece white"#), pos.pieces_on_board(Color::White) as usize);
            // No last move: no highlight.
            for class in ["last-from", "last-to", "last-arrow", "capture-mark"] {
                assert!(!svg.contains(class), "{id}: {class}");
            }
            // Every file letter and rank number is written.
            let (w, h) = (rs.width, rs.height);
            for f in 0..w {
                assert!(svg.contains(&format!(">{}</text>", (b'a' + f) as char)));
            }
            for r in 1..=h {
                assert!(svg.contains(&format!(">{r}</text>")));
            }
            assert!(svg.contains("White to move"), "{id}");
            assert!(!svg.contains("In hand"), "{id}");
        }
    }

    #[test]
    fn xxi_dux_counts() {
        // xxi: 10 soldiers + 1 Dux a side.
        let pos = Position::new(&Ruleset::builtin("xxi").expect("builtin"));
        let svg = position_svg(&pos, None);
        assert_eq!(count(&svg, r#"class="piece "#), 22);
        assert_eq!(count(&svg, r#"class="piece white dux""#), 1);
        assert_eq!(count(&svg, r#"class="piece black dux""#), 1);
        assert_eq!(count(&svg, r#"class="dux-mark""#), 2);
    }

    #[test]
    fn coordinates_follow_the_board() {
        let sq = |s: &str| s.parse::<Square>().expect("square");
        // a1 bottom-left on 8 ranks: x = 30, y = 40 + 7 * 48 = 376.
        assert_eq!(square_origin(8, sq("a1")), (30, 376));
        // j8 top-right of 10x8: x = 30 + 9 * 48 = 462, y = 40.
        assert_eq!(square_origin(8, sq("j8")), (462, 40));
        assert_eq!(square_center(8, sq("j8")), (486, 64));
        // p16 top-right of 16x16: x = 30 + 15 * 48 = 750, y = 40; p1 at the bottom.
        assert_eq!(square_origin(16, sq("p16")), (750, 40));
        assert_eq!(square_origin(16, sq("p1")), (750, 40 + 15 * 48));
    }

    #[test]
    fn placement_rulesets_list_the_hand_and_trapped_pieces_are_marked() {
        let rs = Ruleset::builtin("schadler").expect("builtin");
        let pos = Position::new(&rs);
        let svg = position_svg(&pos, None);
        check_balanced(&svg).expect("balanced");
        assert_eq!(count(&svg, r#"class="piece "#), 0);
        assert!(svg.contains("In hand, White: 16 soldiers"), "{svg}");
        assert!(svg.contains("In hand, Black: 16 soldiers"));
        assert!(svg.contains("White to place"));

        // A trapped black counter on b2 (FEN symbol `t`).
        let setup = Setup::parse("8/8/8/8/8/8/StS5/8 w").expect("fen");
        let pos = Position::from_setup(&rs, &setup).expect("position");
        let svg = position_svg(&pos, None);
        assert_eq!(count(&svg, r#"class="trapped-mark""#), 1);
        assert!(element(&svg, "trapped-mark", "b2").is_some());
    }

    #[test]
    fn last_move_highlight_and_capture_cross() {
        // xxi 10x8: 1.a1-a5 b8-b5 2.c1-c5xb5 (custodial capture against the a5 anvil).
        let rs = Ruleset::builtin("xxi").expect("builtin");
        let mut pos = Position::new(&rs);
        let mut last = None;
        for (i, t) in ["a1-a5", "b8-b5", "c1-c5"].iter().enumerate() {
            let pm = latrunculi_rules::parse_move(&rs, &pos, t).expect("legal");
            let fx = pos.play(pm.mv);
            last = Some(LastMove::new(pm.mv, &fx, format!("{}. {}", i / 2 + 1, pm.text)));
        }
        let last = last.expect("moves");
        assert_eq!(last.captured, vec!["b5".parse::<Square>().expect("square")]);
        let svg = position_svg(&pos, Some(&last));
        check_balanced(&svg).expect("balanced");
        // b5 is file 1, rank 4: x = 30 + 48 = 78, y = 40 + (8 - 1 - 4) * 48 = 184; the
        // cross runs 12 px inside the cell.
        let cross = element(&svg, "capture-mark", "b5").expect("capture mark on b5");
        assert!(cross.contains(r#"d="M90 196 L114 220 M90 220 L114 196""#), "{cross}");
        assert_eq!(count(&svg, r#"class="capture-mark""#), 1);
        let tint = element(&svg, "capture-square", "b5").expect("tint on b5");
        assert!(tint.contains(r#"x="78" y="184""#), "{tint}");
        // From c1 (x = 126, y = 376) to c5 (x = 126, y = 184).
        let from = element(&svg, "last-from", "c1").expect("from tint");
        assert!(from.contains(r#"x="126" y="376""#), "{from}");
        let to = element(&svg, "last-to", "c5").expect("to tint");
        assert!(to.contains(r#"x="126" y="184""#), "{to}");
        // The arrow starts at c1's centre (150, 400) and points up the c-file.
        let arrow = svg.lines().find(|l| l.contains(r#"class="last-arrow""#)).expect("arrow");
        assert!(arrow.contains(r#"x1="150" y1="400" x2="150.0""#), "{arrow}");
        assert!(svg.contains("Last move: 2. c1-c5xb5"));
        // The captured soldier is gone; the mover's piece stands on c5.
        assert!(!svg.contains(r#"class="piece black soldier" data-square="b5""#));
        assert!(svg.contains(r#"class="piece white soldier" data-square="c5""#));
        assert!(svg.contains("Black to move"));
        assert_eq!(count(&svg, r#"class="piece "#), 21);
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc(r#"a<b & "c">'"#), "a&lt;b &amp; &quot;c&quot;&gt;&apos;");
        let pos = Position::new(&Ruleset::builtin("xxi").expect("builtin"));
        let mv = Move::movement("a1".parse().expect("sq"), "a2".parse().expect("sq"));
        let last = LastMove { mv, captured: vec![], trapped: vec![], text: "<&>".to_string() };
        let svg = position_svg(&pos, Some(&last));
        assert!(svg.contains("Last move: &lt;&amp;&gt;"));
        check_balanced(&svg).expect("balanced");
    }

    #[test]
    fn balance_checker_catches_errors() {
        assert!(check_balanced("<a><b/></a>").is_ok());
        assert!(check_balanced("<a><b></a>").is_err());
        assert!(check_balanced("<a>").is_err());
        assert!(check_balanced("<a x=\"1>2\"></a>").is_ok());
        assert!(check_balanced("<a></b>").is_err());
    }
}
