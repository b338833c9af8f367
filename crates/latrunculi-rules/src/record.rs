//! Game records of docs/rules.md §2: reading tag pairs, movetext (move numbers, comments,
//! results) and the ruleset and starting position the tags select.
//!
//! [`GameRecord::parse`] reads PGN-like records: tag pairs `[Key "Value"]` (one per line)
//! at the top, then movetext with move numbers (`1.`, `5. `, `18...`), comments in
//! `(...)`, `[...]` and `{...}` (nested, brackets of mixed kinds, each closed by its own
//! kind) and `;` to the end of the line, and a result (`1-0`, `0-1`, `1/2-1/2`, `½-½`,
//! or `*` for none). `(+)` written directly after a move (or standing alone after it) is
//! the quasi-check suffix, not a comment. The tags `Ruleset` (a built-in id) and `Board`
//! (`WxH`) select the ruleset; `FEN` optionally gives the starting position.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::position::{Position, PositionError};
use crate::ruleset::{Ruleset, RulesetError};
use crate::setup::{Setup, SetupError};
use crate::spec::BoardSize;
use crate::types::Color;

/// A result as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordedResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2` or `½-½`.
    Draw,
}

impl RecordedResult {
    /// Reads `1-0`, `0-1`, `1/2-1/2`, `½-½`.
    pub fn from_token(t: &str) -> Option<RecordedResult> {
        match t {
            "1-0" => Some(RecordedResult::WhiteWins),
            "0-1" => Some(RecordedResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(RecordedResult::Draw),
            _ => None,
        }
    }

    /// The winner (`None` for a draw).
    pub fn winner(self) -> Option<Color> {
        match self {
            RecordedResult::WhiteWins => Some(Color::White),
            RecordedResult::BlackWins => Some(Color::Black),
            RecordedResult::Draw => None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score_text(self) -> &'static str {
        match self {
            RecordedResult::WhiteWins => "1-0",
            RecordedResult::BlackWins => "0-1",
            RecordedResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for RecordedResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.score_text())
    }
}

/// One move token of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The token without its move number, e.g. `Df5-f2?!`.
    pub token: String,
    /// 1-based line of the record where the token starts.
    pub line: usize,
    /// The move number written before it (`9.` or `9...`), if any.
    pub number: Option<u32>,
    /// The number was written `N...` (a second-player move).
    pub second_player: bool,
}

/// Errors reading a game record (or setting up its game).
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be read.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A malformed tag pair.
    #[error("line {line}: bad tag '{text}': {reason}")]
    BadTag {
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A closing bracket with no comment open.
    #[error("line {line}: '{ch}' closes a comment that was never opened")]
    UnopenedComment {
        /// 1-based line.
        line: usize,
        /// The bracket.
        ch: char,
    },
    /// A closing bracket of the wrong kind.
    #[error(
        "line {line}: '{found}' closes the comment opened with '{opener}' on line {opened_line} (expected '{expected}')"
    )]
    MismatchedBracket {
        /// 1-based line.
        line: usize,
        /// The bracket found.
        found: char,
        /// The opener.
        opener: char,
        /// The closer expected.
        expected: char,
        /// Where the comment started.
        opened_line: usize,
    },
    /// A comment still open at the end of the text.
    #[error("line {line}: the comment opened with '{opener}' is never closed")]
    UnclosedComment {
        /// Where the comment started.
        line: usize,
        /// The opener.
        opener: char,
    },
    /// A token after the result.
    #[error("line {line}: '{token}' after the result")]
    AfterResult {
        /// 1-based line.
        line: usize,
        /// The token.
        token: String,
    },
    /// A move number not followed by a dot, or a standalone suffix with no move.
    #[error("line {line}: '{token}': {reason}")]
    BadToken {
        /// 1-based line.
        line: usize,
        /// The token.
        token: String,
        /// What is wrong.
        reason: String,
    },
    /// A `Result` tag that is not a result.
    #[error("Result tag '{0}' is not 1-0, 0-1, 1/2-1/2 or *")]
    BadResultTag(String),
    /// The Result tag and the movetext disagree.
    #[error("the Result tag says {tag} but the moves end with {movetext}")]
    ResultTagMismatch {
        /// The tag's value.
        tag: String,
        /// The movetext's result.
        movetext: String,
    },
    /// No `Ruleset` tag.
    #[error("the record has no [Ruleset \"...\"] tag")]
    MissingRuleset,
    /// The `Ruleset` tag names no built-in ruleset.
    #[error("unknown ruleset '{id}' in the Ruleset tag (known: {known})")]
    UnknownRuleset {
        /// The id in the tag.
        id: String,
        /// The built-in ids, comma-separated.
        known: String,
    },
    /// The ruleset is invalid or the board does not suit it.
    #[error(transparent)]
    Ruleset(#[from] RulesetError),
    /// A `Board` tag that is not `WxH`.
    #[error("Board tag '{0}' is not of the form WxH, e.g. 12x8")]
    BadBoard(String),
    /// A bad `FEN` tag.
    #[error("FEN tag: {0}")]
    Fen(SetupError),
    /// The `FEN` position does not suit the ruleset.
    #[error("FEN tag: {0}")]
    Position(PositionError),
}

/// A game record: tags, move tokens and the recorded result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Move tokens in order.
    pub moves: Vec<RecordMove>,
    /// The recorded result (from the movetext, else the `Result` tag).
    pub result: Option<RecordedResult>,
}

/// A token of movetext with its line.
type Token = (String, usize);

/// Splits movetext into tokens, skipping comments. `first_line` is the 1-based line of
/// the text's first line.
fn tokenize(text: &str, first_line: usize) -> Result<Vec<Token>, RecordError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens: Vec<Token> = Vec::new();
    let mut stack: Vec<(char, char, usize)> = Vec::new(); // (opener, closer, line)
    let mut cur = String::new();
    let mut cur_line = first_line;
    let mut line = first_line;
    let closer_of = |c: char| match c {
        '(' => Some(')'),
        '[' => Some(']'),
        '{' => Some('}'),
        _ => None,
    };
    let flush = |cur: &mut String, tokens: &mut Vec<Token>, l: usize| {
        if !cur.is_empty() {
            tokens.push((std::mem::take(cur), l));
        }
    };
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if let Some(&(opener, expected, opened_line)) = stack.last() {
            if let Some(cl) = closer_of(ch) {
                stack.push((ch, cl, line));
            } else if matches!(ch, ')' | ']' | '}') {
                if ch != expected {
                    return Err(RecordError::MismatchedBracket { line, found: ch, opener, expected, opened_line });
                }
                stack.pop();
            } else if ch == '\n' {
                line += 1;
            }
            i += 1;
            continue;
        }
        match ch {
            c if c.is_whitespace() => {
                flush(&mut cur, &mut tokens, cur_line);
                if c == '\n' {
                    line += 1;
                }
            }
            '(' if chars.get(i + 1) == Some(&'+') && chars.get(i + 2) == Some(&')') => {
                if cur.is_empty() {
                    cur_line = line;
                }
                cur.push_str("(+)");
                i += 2;
            }
            '(' | '[' | '{' => {
                flush(&mut cur, &mut tokens, cur_line);
                stack.push((ch, closer_of(ch).unwrap_or(')'), line));
            }
            ')' | ']' | '}' => return Err(RecordError::UnopenedComment { line, ch }),
            ';' => {
                flush(&mut cur, &mut tokens, cur_line);
                while i + 1 < chars.len() && chars[i + 1] != '\n' {
                    i += 1;
                }
            }
            c => {
                if cur.is_empty() {
                    cur_line = line;
                }
                cur.push(c);
            }
        }
        i += 1;
    }
    flush(&mut cur, &mut tokens, cur_line);
    if let Some(&(opener, _, l)) = stack.first() {
        return Err(RecordError::UnclosedComment { line: l, opener });
    }
    Ok(tokens)
}

/// Reads one tag line `[Key "Value"]` (value with `\"` and `\\` escapes).
fn parse_tag(line_no: usize, line: &str) -> Result<(String, String), RecordError> {
    let bad =
        |reason: &str| RecordError::BadTag { line: line_no, text: line.trim().to_string(), reason: reason.to_string() };
    let t = line.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| bad("a tag is [Key \"Value\"] on one line"))?;
    let inner = inner.trim();
    let key_end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(inner.len());
    let key = &inner[..key_end];
    if key.is_empty() {
        return Err(bad("missing tag name"));
    }
    let rest = inner[key_end..].trim_start();
    let body = rest.strip_prefix('"').ok_or_else(|| bad("the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    let mut closed = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => value.push(e),
                _ => return Err(bad("bad escape in the value (use \\\" or \\\\)")),
            },
            '"' => {
                closed = true;
                break;
            }
            c => value.push(c),
        }
    }
    if !closed {
        return Err(bad("the value's closing quote is missing"));
    }
    if !chars.as_str().trim().is_empty() {
        return Err(bad("text after the value"));
    }
    Ok((key.to_string(), value))
}

impl GameRecord {
    /// Reads a record from text.
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut rec = GameRecord::default();
        // Header: leading lines that start with '[' and a letter; it ends at the first
        // blank line after a tag or the first other line.
        let mut offset = 0; // byte offset of the movetext
        let mut movetext_line = 1;
        let mut seen_tag = false;
        for (n, line) in text.split_inclusive('\n').enumerate() {
            let t = line.trim();
            let is_tag = t.starts_with('[') && t[1..].starts_with(|c: char| c.is_ascii_alphabetic());
            if t.is_empty() && !seen_tag {
                offset += line.len();
                movetext_line = n + 2;
                continue;
            }
            if !is_tag {
                break;
            }
            rec.tags.push(parse_tag(n + 1, line)?);
            seen_tag = true;
            offset += line.len();
            movetext_line = n + 2;
        }
        let tokens = tokenize(&text[offset..], movetext_line)?;
        let mut pending: Option<(u32, bool)> = None;
        let mut movetext_result: Option<Option<RecordedResult>> = None;
        for (tok, line) in tokens {
            if movetext_result.is_some() {
                return Err(RecordError::AfterResult { line, token: tok });
            }
            if tok == "*" {
                movetext_result = Some(None);
                continue;
            }
            if let Some(r) = RecordedResult::from_token(&tok) {
                movetext_result = Some(Some(r));
                continue;
            }
            if tok == "(+)" {
                match rec.moves.last_mut() {
                    Some(m) if pending.is_none() => {
                        m.token.push_str("(+)");
                        continue;
                    }
                    _ => {
                        return Err(RecordError::BadToken {
                            line,
                            token: tok,
                            reason: "a suffix with no move before it".into(),
                        });
                    }
                }
            }
            let mut rest = tok.as_str();
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                let digits_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
                let number: u32 = rest[..digits_end].parse().map_err(|_| RecordError::BadToken {
                    line,
                    token: tok.clone(),
                    reason: "move number too large".into(),
                })?;
                let after = &rest[digits_end..];
                let dots_end = after.find(|c: char| c != '.' && c != '…').unwrap_or(after.len());
                let dots = &after[..dots_end];
                if dots.is_empty() {
                    return Err(RecordError::BadToken {
                        line,
                        token: tok.clone(),
                        reason: "a move number must be followed by '.' or '...'".into(),
                    });
                }
                let second = dots.chars().count() >= 2 || dots.contains('…');
                pending = Some((number, second));
                rest = &after[dots_end..];
                if rest.is_empty() {
                    continue;
                }
            }
            let (number, second_player) = match pending.take() {
                Some((n, s)) => (Some(n), s),
                None => (None, false),
            };
            rec.moves.push(RecordMove { token: rest.to_string(), line, number, second_player });
        }
        let tag_result = match rec.tag("Result") {
            None => None,
            Some(v) if v.trim() == "*" => None,
            Some(v) => {
                Some(RecordedResult::from_token(v.trim()).ok_or_else(|| RecordError::BadResultTag(v.to_string()))?)
            }
        };
        rec.result = match (tag_result, movetext_result) {
            (Some(t), Some(Some(m))) if t != m => {
                return Err(RecordError::ResultTagMismatch { tag: t.to_string(), movetext: m.to_string() });
            }
            (_, Some(Some(m))) => Some(m),
            (t, _) => t,
        };
        Ok(rec)
    }

    /// Reads a record file.
    pub fn from_file(path: &Path) -> Result<GameRecord, RecordError> {
        let text =
            std::fs::read_to_string(path).map_err(|error| RecordError::Io { path: path.to_path_buf(), error })?;
        GameRecord::parse(&text)
    }

    /// The value of a tag (the first one, if repeated; names compare case-insensitively).
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v.as_str())
    }

    /// The ruleset the tags select: the built-in `Ruleset`, on the `Board` if given.
    pub fn ruleset(&self) -> Result<Ruleset, RecordError> {
        let id = self.tag("Ruleset").ok_or(RecordError::MissingRuleset)?.trim();
        let rs = Ruleset::builtin(id).map_err(|e| match e {
            RulesetError::UnknownId { known, .. } => RecordError::UnknownRuleset { id: id.to_string(), known },
            other => RecordError::Ruleset(other),
        })?;
        match self.tag("Board") {
            None => Ok(rs),
            Some(b) => {
                let board: BoardSize = b.parse().map_err(|_| RecordError::BadBoard(b.to_string()))?;
                Ok(rs.with_board(board.width, board.height)?)
            }
        }
    }

    /// The starting position: the `FEN` tag if present, else the ruleset's start.
    pub fn start_position(&self, ruleset: &Ruleset) -> Result<Position, RecordError> {
        match self.tag("FEN") {
            None => Ok(Position::new(ruleset)),
            Some(f) => {
                let setup = Setup::from_fen(f).map_err(RecordError::Fen)?;
                Position::from_setup(ruleset, &setup).map_err(RecordError::Position)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::NotationWarning;
    use crate::replay::{ReplayOptions, ResultVerdict, replay};

    #[test]
    fn records_skip_nested_comments_and_read_tags() {
        let text = "[Event \"Test \\\"quoted\\\"\"]\n[Ruleset \"xxi\"]\n[Board \"10x8\"]\n[Result \"1-0\"]\n\n\
            1.e1-e6* {a (nested [mixed] comment) here} b8-b4\n\
            2. Df2-f7+ (Black's move is illegal [rule 16], but {both} missed it) g8-g7 (+) ; to the end\n\
            3.d1-d7# 1-0\n";
        let rec = GameRecord::parse(text).expect("parses");
        assert_eq!(rec.tag("event"), Some("Test \"quoted\""));
        assert_eq!(rec.result, Some(RecordedResult::WhiteWins));
        let toks: Vec<&str> = rec.moves.iter().map(|m| m.token.as_str()).collect();
        assert_eq!(toks, ["e1-e6*", "b8-b4", "Df2-f7+", "g8-g7(+)", "d1-d7#"]);
        assert_eq!(rec.moves[2].number, Some(2));
        assert_eq!(rec.moves[2].line, 7);
        assert_eq!(rec.moves[3].number, None);
        let report = replay(&rec, ReplayOptions::default()).expect("replays");
        assert!(report.is_ok());
        assert_eq!(report.warnings().count(), 0);
        assert_eq!(report.final_result(), ("1-0".to_string(), "immobilized".to_string()));

        // Black move numbers, draws.
        let rec = GameRecord::parse("[Ruleset \"xxi\"]\n1.e1-e6 18...b8-b4 ½-½").expect("parses");
        assert!(rec.moves[1].second_player);
        assert_eq!(rec.result, Some(RecordedResult::Draw));
        let report = replay(&rec, ReplayOptions::default()).expect("replays");
        assert_eq!(report.verdict, ResultVerdict::Agreement);
        assert!(report.moves[1].warnings.contains(&NotationWarning::MoveNumber { written: 18, expected: 1 }));

        for (bad, what) in [
            ("[Ruleset \"xxi\"]\n1.e1-e6 (open [close) b8-b4", "mismatched"),
            ("[Ruleset \"xxi\"]\n1.e1-e6 {never closed", "unclosed"),
            ("[Ruleset \"xxi\"]\n1.e1-e6 ) b8-b4", "unopened"),
            ("[Ruleset xxi]\n1.e1-e6", "bad tag"),
            ("[Ruleset \"xxi\"]\n1.e1-e6 1-0 b8-b4", "after result"),
            ("[Ruleset \"xxi\"]\n[Result \"0-1\"]\n1.e1-e6 1-0", "result mismatch"),
            ("[Ruleset \"xxi\"]\n12 e1-e6", "number"),
        ] {
            let e = GameRecord::parse(bad).expect_err(what);
            let ok = match what {
                "mismatched" => matches!(e, RecordError::MismatchedBracket { found: ')', opener: '[', line: 2, .. }),
                "unclosed" => matches!(e, RecordError::UnclosedComment { opener: '{', line: 2 }),
                "unopened" => matches!(e, RecordError::UnopenedComment { ch: ')', .. }),
                "bad tag" => matches!(e, RecordError::BadTag { line: 1, .. }),
                "after result" => matches!(e, RecordError::AfterResult { .. }),
                "result mismatch" => matches!(e, RecordError::ResultTagMismatch { .. }),
                _ => matches!(e, RecordError::BadToken { .. }),
            };
            assert!(ok, "{what}: got {e:?}");
        }
        let no_rs = GameRecord::parse("1.e1-e6").expect("parses");
        assert!(matches!(no_rs.ruleset(), Err(RecordError::MissingRuleset)));
        let unknown = GameRecord::parse("[Ruleset \"chess\"]\n1.e2-e4").expect("parses");
        assert!(matches!(unknown.ruleset(), Err(RecordError::UnknownRuleset { .. })));
        let bad_board = GameRecord::parse("[Ruleset \"xxi\"]\n[Board \"12by8\"]").expect("parses");
        assert!(matches!(bad_board.ruleset(), Err(RecordError::BadBoard(_))));
        let huge = GameRecord::parse("[Ruleset \"xxi\"]\n[Board \"17x8\"]").expect("parses");
        let e = huge.ruleset().unwrap_err();
        assert!(matches!(e, RecordError::Ruleset(_)), "{e:?}");
        assert!(e.to_string().contains("17x8") && e.to_string().contains("3 to 16"), "{e}");
        let wide = GameRecord::parse("[Ruleset \"xxi\"]\n[Board \"16x11\"]").expect("parses");
        assert_eq!(wide.ruleset().map(|rs| (rs.width, rs.height)).unwrap(), (16, 11));
    }
}
