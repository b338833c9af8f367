//! Ruleset labels: the one language every command, configuration file and output uses
//! to name a ruleset.
//!
//! A label is a ruleset id (built in, or a file `<id>.toml` in a rules directory) or a
//! path to a ruleset TOML file, optionally `@WxH` for another board, then any number of
//! `+key=value` parameter changes:
//!
//! ```text
//! kowalski
//! xxi@12x8
//! kowalski+end.no_capture_limit=120
//! xxi@12x8+movement.diagonal=true+capture.corner="none"
//! my-rules/variant.toml@10x8
//! ```
//!
//! [`RulesetSpec`] is the typed value: its [`FromStr`] is the only parser of labels and
//! its [`Display`](fmt::Display) the only writer, so that every label an output writes
//! (the `ruleset` column of a games CSV, a survey's summary, a dataset's `meta.json`) is
//! read back by every command. [`BoardSize`] is the only parser of `WxH`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::ruleset::{Ruleset, RulesetError};

/// The directory of ruleset files that the command line consults before the built-in
/// rulesets (relative to the working directory), and so does the Python package.
pub const DEFAULT_RULES_DIR: &str = "configs/rulesets";

/// Errors in the text of a ruleset label or a board size; each names the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// A board size that is not `WxH` with two numbers.
    #[error("board '{board}' is not of the form WxH, e.g. 12x8")]
    BadBoard {
        /// The text given as a board.
        board: String,
    },
    /// Nothing names the ruleset before `@` or `+`.
    #[error("ruleset label '{label}' names no ruleset: give an id (see `latrunculi rules`) or a .toml file first")]
    NoRuleset {
        /// The label.
        label: String,
    },
    /// The ruleset name holds a character that a label cannot carry.
    #[error("ruleset label '{label}': '{name}' is neither a ruleset id nor a path (no spaces, '@' or '+' allowed)")]
    BadName {
        /// The label.
        label: String,
        /// The ruleset name read from it.
        name: String,
    },
    /// The board after `@` is not `WxH`.
    #[error("ruleset label '{label}': board '{board}' is not of the form WxH, e.g. 12x8")]
    BadLabelBoard {
        /// The label.
        label: String,
        /// The text after `@`.
        board: String,
    },
    /// A `+` part that is not `key=value`.
    #[error("ruleset label '{label}': '+{change}' is not a parameter change key=value")]
    BadChange {
        /// The label.
        label: String,
        /// The part after `+`.
        change: String,
    },
    /// A board given both in the label (`@WxH`) and separately.
    #[error("ruleset label '{label}' already has a board; a second board {board} is not allowed")]
    TwoBoards {
        /// The label.
        label: String,
        /// The board given besides it.
        board: BoardSize,
    },
}

/// A board size, written `WxH` (files by ranks, e.g. `12x8`). The only parser of that
/// form: labels, the `--board` option, training configurations and the `Board` tag of
/// game records all read it here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
}

impl FromStr for BoardSize {
    type Err = LabelError;

    /// Reads `WxH`; the `x` may be upper case and spaces around the numbers are allowed
    /// (`12x8`, `12X8`, ` 12 x 8 `). Whether the board is playable is the ruleset's
    /// business ([`Ruleset::with_board`]).
    fn from_str(text: &str) -> Result<BoardSize, LabelError> {
        let bad = || LabelError::BadBoard { board: text.to_string() };
        let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        Ok(BoardSize { width: w.trim().parse().map_err(|_| bad())?, height: h.trim().parse().map_err(|_| bad())? })
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// Where a label's ruleset comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RulesetBase {
    /// A ruleset id: `<id>.toml` in the rules directory if there is one, otherwise the
    /// built-in ruleset.
    Id(String),
    /// A ruleset TOML file (a name ending in `.toml` or holding a path separator).
    File(PathBuf),
}

impl fmt::Display for RulesetBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesetBase::Id(id) => f.write_str(id),
            RulesetBase::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// One `+key=value` change of a label: `key` a dotted parameter path of the ruleset
/// file (`end.no_capture_limit`), `value` a TOML value as written (`120`, `true`,
/// `"none"`, or a bare word read as a string). See [`Ruleset::with_param`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParamChange {
    /// The parameter, e.g. `end.no_capture_limit`.
    pub key: String,
    /// The value as written, e.g. `120`.
    pub value: String,
}

/// A ruleset label (see the [module documentation](self)): a ruleset by id or file, an
/// optional board and parameter changes. Read with [`FromStr`], written with
/// [`Display`](fmt::Display) (`parse` of the written label gives the same value back), turned
/// into a [`Ruleset`] by [`RulesetSpec::resolve`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesetSpec {
    /// The ruleset the label starts from.
    pub base: RulesetBase,
    /// Another board than the ruleset's own (`@WxH`).
    pub board: Option<BoardSize>,
    /// Parameter changes (`+key=value`), applied in order after the board.
    pub changes: Vec<ParamChange>,
}

impl RulesetSpec {
    /// The label of the ruleset `id` as it stands: no board, no changes.
    pub fn id(id: &str) -> RulesetSpec {
        RulesetSpec { base: RulesetBase::Id(id.to_string()), board: None, changes: Vec::new() }
    }

    /// This label with a board given apart from it (the `--board` option, a
    /// configuration's `board` key); `None` leaves it as it is. A label that already has
    /// an `@WxH` board is an error.
    pub fn with_board(mut self, board: Option<BoardSize>) -> Result<RulesetSpec, LabelError> {
        match (self.board, board) {
            (_, None) => Ok(self),
            (None, Some(b)) => {
                self.board = Some(b);
                Ok(self)
            }
            (Some(_), Some(b)) => Err(LabelError::TwoBoards { label: self.to_string(), board: b }),
        }
    }

    /// The ruleset of this label: a `File` is read; an `Id` is `<id>.toml` in
    /// `rules_dir` when that file exists, otherwise the built-in ruleset; then the board
    /// ([`Ruleset::with_board`]) and each change ([`Ruleset::with_param`]), every step
    /// validated.
    pub fn resolve(&self, rules_dir: Option<&Path>) -> Result<Ruleset, RulesetError> {
        let mut rs = match &self.base {
            RulesetBase::File(path) => Ruleset::from_file(path)?,
            RulesetBase::Id(id) => match rules_dir.map(|d| d.join(format!("{id}.toml"))) {
                Some(path) if path.is_file() => Ruleset::from_file(&path)?,
                _ => Ruleset::builtin(id)?,
            },
        };
        if let Some(b) = self.board {
            rs = rs.with_board(b.width, b.height)?;
        }
        for change in &self.changes {
            rs = rs.with_param(&change.key, &change.value)?;
        }
        Ok(rs)
    }

    /// The label that results write for `ruleset`, the ruleset this label resolved to:
    /// this label with the ruleset's own id in place of its id or file, so that a
    /// ruleset read from a file is named by its id (`variant.toml@10x8` is written
    /// `variant@10x8` when the file says `id = "variant"`).
    pub fn label_for(&self, ruleset: &Ruleset) -> RulesetSpec {
        RulesetSpec { base: RulesetBase::Id(ruleset.id.clone()), ..self.clone() }
    }
}

impl FromStr for RulesetSpec {
    type Err = LabelError;

    /// Reads a label. Spaces around the name and board are ignored, and so is every
    /// space inside a `+key=value` change (`+ end.no_capture_limit = 120` is
    /// `+end.no_capture_limit=120`). A name ending in `.toml` or holding `/` or `\` is a
    /// file, any other an id.
    fn from_str(label: &str) -> Result<RulesetSpec, LabelError> {
        let mut parts = label.split('+');
        let head = parts.next().unwrap_or_default().trim();
        let (name, board) = match head.rsplit_once('@') {
            Some((n, b)) => (n.trim(), Some(b.trim())),
            None => (head, None),
        };
        if name.is_empty() {
            return Err(LabelError::NoRuleset { label: label.to_string() });
        }
        if name.contains(|c: char| c.is_whitespace() || c == '@') {
            return Err(LabelError::BadName { label: label.to_string(), name: name.to_string() });
        }
        let base = if name.ends_with(".toml") || name.contains(['/', '\\']) {
            RulesetBase::File(PathBuf::from(name))
        } else {
            RulesetBase::Id(name.to_string())
        };
        let board = board
            .map(|b| {
                b.parse::<BoardSize>()
                    .map_err(|_| LabelError::BadLabelBoard { label: label.to_string(), board: b.to_string() })
            })
            .transpose()?;
        let changes = parts
            .map(|part| {
                let change: String = part.chars().filter(|c| !c.is_whitespace()).collect();
                match change.split_once('=') {
                    Some((k, v)) if !k.is_empty() && !v.is_empty() => {
                        Ok(ParamChange { key: k.to_string(), value: v.to_string() })
                    }
                    _ => Err(LabelError::BadChange { label: label.to_string(), change: part.to_string() }),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(RulesetSpec { base, board, changes })
    }
}

impl fmt::Display for RulesetSpec {
    /// Writes the label: `base`, then `@WxH` if a board is set, then `+key=value` for
    /// each change, without spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)?;
        if let Some(b) = self.board {
            write!(f, "@{b}")?;
        }
        for c in &self.changes {
            write!(f, "+{}={}", c.key, c.value)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::FastRng;
    use crate::ruleset::{CornerCapture, NoMoves};

    fn spec(label: &str) -> RulesetSpec {
        label.parse().unwrap_or_else(|e| panic!("{label}: {e}"))
    }

    fn resolve(label: &str) -> Result<Ruleset, RulesetError> {
        spec(label).resolve(None)
    }

    #[test]
    fn labels_read_into_their_parts_and_write_back() {
        let s = spec("xxi@12x8+end.no_capture_limit=200+capture.corner=\"none\"");
        assert_eq!(s.base, RulesetBase::Id("xxi".into()));
        assert_eq!(s.board, Some(BoardSize { width: 12, height: 8 }));
        assert_eq!(s.changes.len(), 2);
        assert_eq!((s.changes[1].key.as_str(), s.changes[1].value.as_str()), ("capture.corner", "\"none\""));
        assert_eq!(s.to_string(), "xxi@12x8+end.no_capture_limit=200+capture.corner=\"none\"");
        assert_eq!(spec("rules/v.toml@10x8").base, RulesetBase::File(PathBuf::from("rules/v.toml")));
        assert_eq!(spec("v.toml").base, RulesetBase::File(PathBuf::from("v.toml")));
        assert_eq!(spec("./v").base, RulesetBase::File(PathBuf::from("./v")));
        // Written labels are normalised: no spaces, a lower-case x.
        assert_eq!(spec(" xxi @ 12X8 + end.no_capture_limit = 200 ").to_string(), "xxi@12x8+end.no_capture_limit=200");
    }

    #[test]
    fn random_labels_round_trip_through_display() {
        let ids = ["kowalski", "xxi", "ludii-seega-11x16", "my_rules", "rules/variant.toml", "v.toml"];
        let keys = ["end.no_capture_limit", "capture.corner", "movement.diagonal", "width"];
        let values = ["120", "true", "\"none\"", "pass", "-1"];
        let mut rng = FastRng::new(7);
        for _ in 0..2000 {
            let mut label = ids[rng.below(ids.len())].to_string();
            if rng.below(2) == 0 {
                label += &format!("@{}x{}", rng.below(256), rng.below(256));
            }
            for _ in 0..rng.below(4) {
                label += &format!("+{}={}", keys[rng.below(keys.len())], values[rng.below(values.len())]);
            }
            let s = spec(&label);
            assert_eq!(s.to_string(), label);
            assert_eq!(spec(&s.to_string()), s);
        }
    }

    #[test]
    fn bad_labels_are_errors_naming_the_label_and_the_fault() {
        for (bad, says) in [
            ("", "names no ruleset"),
            ("@12x8", "names no ruleset"),
            ("+end.no_moves=pass", "names no ruleset"),
            ("kow alski", "neither a ruleset id"),
            ("a@b@12x8", "neither a ruleset id"),
            ("kowalski@12y8", "WxH"),
            ("kowalski@12x", "WxH"),
            ("kowalski@300x8", "WxH"),
            ("kowalski+end.no_capture_limit", "key=value"),
            ("kowalski+=3", "key=value"),
            ("kowalski+end.no_moves=", "key=value"),
            ("kowalski+", "key=value"),
        ] {
            let e = bad.parse::<RulesetSpec>().unwrap_err().to_string();
            assert!(e.contains(says) && e.contains(&format!("'{bad}'")), "{bad}: {e}");
        }
        let e = spec("xxi@12x8").with_board(Some("10x8".parse().unwrap())).unwrap_err().to_string();
        assert!(e.contains("xxi@12x8") && e.contains("10x8"), "{e}");
    }

    #[test]
    fn board_sizes_have_one_form() {
        for text in ["12x8", "12X8", " 12 x 8 "] {
            assert_eq!(text.parse::<BoardSize>(), Ok(BoardSize { width: 12, height: 8 }), "{text}");
        }
        for text in ["12", "12x", "x8", "12y8", "12x8x1", "-1x8", "1.5x8"] {
            let e = text.parse::<BoardSize>().unwrap_err().to_string();
            assert!(e.contains(&format!("'{text}'")) && e.contains("WxH"), "{text}: {e}");
        }
        assert_eq!(BoardSize { width: 16, height: 11 }.to_string(), "16x11");
    }

    #[test]
    fn labels_change_one_parameter_at_a_time() {
        let k = Ruleset::builtin("kowalski").unwrap();
        let l = resolve("kowalski+end.no_capture_limit=120").unwrap();
        assert_eq!(l.end.no_capture_limit, 120);
        assert_ne!(l.params_hash(), k.params_hash());
        let l = resolve("kowalski+end.no_moves=pass+capture.corner=\"none\"").unwrap();
        assert_eq!((l.end.no_moves, l.capture.corner), (NoMoves::Pass, CornerCapture::None));
        let l = resolve("xxi@12x8+movement.diagonal=true").unwrap();
        assert!((l.width, l.movement.diagonal) == (12, true));
        // Setting a parameter to its value changes nothing.
        assert_eq!(resolve("kowalski+end.no_capture_limit=60").unwrap().params_hash(), k.params_hash());
        for (bad, says) in [
            ("kowalski+end.no_such_key=1", "no_such_key"),
            ("kowalski+end.no_capture_limit=many", "no_capture_limit"),
            ("kowalski+end.no_moves=sometimes", "sometimes"),
            ("kowalski+name=x", "not a rule parameter"),
            ("kowalski+a.b.c=1", "not a parameter"),
            ("kowalski+width=2", "impossible"),
            ("kowalski@17x8", "3 to 16"),
            ("chess", "unknown ruleset 'chess'"),
            ("no/such/file.toml", "no/such/file.toml"),
        ] {
            let e = resolve(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn the_rules_directory_comes_before_the_built_in_rulesets() {
        let dir = std::env::temp_dir().join(format!("latrunculi-spec-dir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text =
            Ruleset::builtin("kowalski").unwrap().to_toml().replace("no_capture_limit = 60", "no_capture_limit = 77");
        std::fs::write(dir.join("kowalski.toml"), &text).unwrap();
        std::fs::write(dir.join("variant.toml"), text.replace("id = \"kowalski\"", "id = \"variant\"")).unwrap();
        let from_dir = spec("kowalski@10x8").resolve(Some(&dir)).unwrap();
        assert_eq!((from_dir.end.no_capture_limit, from_dir.width), (77, 10));
        assert_eq!(resolve("kowalski").unwrap().end.no_capture_limit, 60);
        // A file is named by its id in results.
        let file = format!("{}@10x8+end.no_moves=pass", dir.join("variant.toml").display());
        let s = spec(&file);
        let rs = s.resolve(None).unwrap();
        assert_eq!(s.label_for(&rs).to_string(), "variant@10x8+end.no_moves=pass");
        assert_eq!(s.label_for(&rs).resolve(Some(&dir)).unwrap(), rs);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
