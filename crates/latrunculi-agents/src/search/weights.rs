//! Evaluation weights: one file per ruleset (`configs/eval/<ruleset>.toml`), fitted from
//! game results by `latrunculi tune-eval`, built into the binary, loaded by the search
//! player for the ruleset it plays; [`EvalWeights::default_weights`] for a ruleset
//! without a file.
//!
//! A file names its ruleset and gives one weight per feature of
//! [`super::features::FEATURE_NAMES`] (in logits of the side to move's expected score
//! per unit of the feature); an unknown or missing feature, or a file for another
//! ruleset, is refused with an error naming the file.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use latrunculi_rules::{Rules, Ruleset};
use serde::{Deserialize, Serialize};

use super::features::{FEATURE_NAMES, Features, NUM_FEATURES, idx};

/// The weights files built into the binary: `(ruleset id, file text)`.
pub const BUILTIN_WEIGHTS: &[(&str, &str)] = &include!("builtin_weights.in");

/// Errors reading a weights file. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML of the expected shape.
    #[error("{file}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// The parser's message (with line and column).
        message: String,
    },
    /// A weight for a feature the evaluation does not have.
    #[error("{file}: unknown feature '{feature}' (features: {})", FEATURE_NAMES.join(", "))]
    UnknownFeature {
        /// The file.
        file: String,
        /// The feature named.
        feature: String,
    },
    /// A feature without a weight.
    #[error("{file}: no weight for feature '{feature}' (every feature needs one: {})", FEATURE_NAMES.join(", "))]
    MissingFeature {
        /// The file.
        file: String,
        /// The feature.
        feature: &'static str,
    },
    /// A weight that is not a finite number.
    #[error("{file}: the weight of '{feature}' is not a finite number")]
    NotFinite {
        /// The file.
        file: String,
        /// The feature.
        feature: String,
    },
    /// The file is for another ruleset than the one played.
    #[error("{file}: the weights are for ruleset '{found}', not '{expected}'")]
    WrongRuleset {
        /// The file.
        file: String,
        /// The ruleset the file names.
        found: String,
        /// The ruleset played.
        expected: String,
    },
}

/// How a weights file was fitted (information only; written by the tuner).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitInfo {
    /// Games the positions came from.
    pub games: u64,
    /// Positions fitted.
    pub positions: u64,
    /// Held-out positions.
    pub held_out: u64,
    /// Held-out mean log-loss of these weights.
    pub log_loss: f64,
    /// Held-out mean log-loss of a material-only fit on the same positions.
    pub log_loss_material: f64,
    /// Held-out mean log-loss of predicting the training positions' mean score.
    pub log_loss_constant: f64,
    /// The command that wrote the file.
    pub command: String,
    /// The games files read.
    pub sources: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeightsFile {
    ruleset: String,
    weights: BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fit: Option<FitInfo>,
}

/// The evaluation's weights for one ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// The ruleset id these weights are for (`default` for the built-in default).
    pub ruleset: String,
    /// One weight per feature, in the order of [`FEATURE_NAMES`] (logits per unit).
    pub weights: Features,
    /// How they were fitted, if they were.
    pub fit: Option<FitInfo>,
}

impl EvalWeights {
    /// Weights for a ruleset without a fitted file: a soldier is worth 0.5 logit, a
    /// trapped soldier a quarter of that, a Dux two soldiers, with small terms for
    /// threats, mobility and the Dux's surroundings.
    pub fn default_weights() -> EvalWeights {
        let mut w = [0.0; NUM_FEATURES];
        w[idx::SOLDIERS] = 0.5;
        w[idx::TRAPPED] = 0.125;
        w[idx::DUX] = 1.0;
        w[idx::THREAT] = 0.2;
        w[idx::HANGING] = -0.2;
        w[idx::MOBILITY] = 0.05;
        w[idx::DUX_LIBERTIES] = 0.1;
        w[idx::DUX_ATTACKERS] = 0.1;
        w[idx::SUPPORTED] = 0.02;
        w[idx::COUNT_RACE] = 0.5;
        w[idx::TEMPO] = 0.05;
        EvalWeights { ruleset: "default".to_string(), weights: w, fit: None }
    }

    /// Material only: the old `alphabeta` player's count of pieces (a trapped piece
    /// counts as a free one), 0.5 logit a piece.
    pub fn material_only() -> EvalWeights {
        let mut w = [0.0; NUM_FEATURES];
        w[idx::SOLDIERS] = 0.5;
        w[idx::TRAPPED] = 0.5;
        w[idx::DUX] = 0.5;
        EvalWeights { ruleset: "material".to_string(), weights: w, fit: None }
    }

    /// Parses a weights file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<EvalWeights, WeightsError> {
        let raw: WeightsFile = toml::from_str(text)
            .map_err(|e| WeightsError::Syntax { file: file.to_string(), message: e.to_string() })?;
        let mut w = [f64::NAN; NUM_FEATURES];
        for (name, value) in &raw.weights {
            let Some(i) = FEATURE_NAMES.iter().position(|n| n == name) else {
                return Err(WeightsError::UnknownFeature { file: file.to_string(), feature: name.clone() });
            };
            if !value.is_finite() {
                return Err(WeightsError::NotFinite { file: file.to_string(), feature: name.clone() });
            }
            w[i] = *value;
        }
        if let Some(i) = w.iter().position(|x| x.is_nan()) {
            return Err(WeightsError::MissingFeature { file: file.to_string(), feature: FEATURE_NAMES[i] });
        }
        Ok(EvalWeights { ruleset: raw.ruleset, weights: w, fit: raw.fit })
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<EvalWeights, WeightsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| WeightsError::Io { file: file.clone(), source })?;
        Self::parse(&text, &file)
    }

    /// Reads a weights file and checks that it is for `ruleset_id`.
    pub fn load_for(path: &Path, ruleset_id: &str) -> Result<EvalWeights, WeightsError> {
        let w = Self::load(path)?;
        w.check_ruleset(ruleset_id, &path.display().to_string())?;
        Ok(w)
    }

    /// An error unless these weights are for `ruleset_id`.
    pub fn check_ruleset(&self, ruleset_id: &str, file: &str) -> Result<(), WeightsError> {
        if self.ruleset != ruleset_id {
            return Err(WeightsError::WrongRuleset {
                file: file.to_string(),
                found: self.ruleset.clone(),
                expected: ruleset_id.to_string(),
            });
        }
        Ok(())
    }

    /// The file's text: the ruleset, one weight per feature with what it measures, and
    /// the fit's figures.
    pub fn to_toml(&self) -> String {
        use super::features::FEATURE_DOCS;
        let mut s = String::new();
        s.push_str("# Evaluation weights of the search player (alphabeta with nodes= or ms=): logits of the\n");
        s.push_str("# side to move's expected score per unit of each feature. Written by `latrunculi tune-eval`.\n");
        s.push_str(&format!("ruleset = {:?}\n\n[weights]\n", self.ruleset));
        for i in 0..NUM_FEATURES {
            s.push_str(&format!("# {}\n{} = {}\n", FEATURE_DOCS[i], FEATURE_NAMES[i], round6(self.weights[i])));
        }
        if let Some(fit) = &self.fit {
            s.push('\n');
            let table = toml::to_string(&FitOnly { fit: fit.clone() }).unwrap_or_default();
            s.push_str(&table);
        }
        s
    }

    /// The built-in weights for a ruleset's rules: the file whose ruleset has exactly
    /// these rules; else, for rules that are no built-in ruleset's (a ruleset of the
    /// user's, or a built-in one on another board), one whose rules differ only in board
    /// size (of several, the one whose board has the nearest number of squares, then the
    /// first by ruleset id; petteia-xxi and single-stone-xxi differ only in size); else
    /// `None`. A built-in ruleset without a file of its own thus plays the
    /// default weights, even where another board of the same rules has a file (the
    /// Seega boards differ only in size and the pieces in hand, which the play rules do
    /// not hold).
    pub fn builtin_for(rules: &Rules) -> Option<&'static EvalWeights> {
        let table = builtin_table();
        if let Some((_, w)) = table.iter().find(|(r, _)| r == rules) {
            return Some(w);
        }
        if builtin_rules().contains(rules) {
            return None;
        }
        let same_but_size = |a: &Rules| Rules { width: rules.width, height: rules.height, ..*a } == *rules;
        let squares = |r: &Rules| r.width as i64 * r.height as i64;
        table
            .iter()
            .filter(|(r, _)| same_but_size(r))
            .min_by_key(|(r, w)| ((squares(r) - squares(rules)).abs(), w.ruleset.clone()))
            .map(|(_, w)| w)
    }

    /// The weights the search player uses for `rules`: the built-in file for them, or
    /// the default.
    pub fn for_rules(rules: &Rules) -> EvalWeights {
        Self::builtin_for(rules).cloned().unwrap_or_else(Self::default_weights)
    }
}

#[derive(Serialize)]
struct FitOnly {
    fit: FitInfo,
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The rules of every built-in ruleset.
fn builtin_rules() -> &'static [Rules] {
    static RULES: OnceLock<Vec<Rules>> = OnceLock::new();
    RULES.get_or_init(|| Ruleset::all_builtin().iter().map(Ruleset::rules).collect())
}

/// The built-in weights with the rules of their rulesets (files that fail to parse or
/// name an unknown ruleset are left out; a unit test checks there are none).
fn builtin_table() -> &'static [(Rules, EvalWeights)] {
    static TABLE: OnceLock<Vec<(Rules, EvalWeights)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        BUILTIN_WEIGHTS
            .iter()
            .filter_map(|(id, text)| {
                let w = EvalWeights::parse(text, &format!("configs/eval/{id}.toml")).ok()?;
                let rs = Ruleset::builtin(&w.ruleset).ok()?;
                Some((rs.rules(), w))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with(extra: &str, ruleset: &str) -> String {
        let mut s = format!("ruleset = \"{ruleset}\"\n[weights]\n");
        for n in FEATURE_NAMES {
            s.push_str(&format!("{n} = 0.25\n"));
        }
        s.push_str(extra);
        s
    }

    #[test]
    fn a_written_file_reads_back() {
        let mut w = EvalWeights::default_weights();
        w.ruleset = "kowalski".into();
        w.fit = Some(FitInfo { games: 3, positions: 10, command: "x".into(), ..FitInfo::default() });
        let back = EvalWeights::parse(&w.to_toml(), "t.toml").unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn an_unknown_feature_is_refused_naming_it_and_the_file() {
        let e = EvalWeights::parse(&file_with("material_squared = 1.0\n", "kowalski"), "w.toml").unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, WeightsError::UnknownFeature { .. }), "{msg}");
        assert!(msg.contains("w.toml") && msg.contains("material_squared"), "{msg}");
    }

    #[test]
    fn a_missing_feature_is_refused() {
        let text = file_with("", "kowalski").replace("tempo = 0.25\n", "");
        let e = EvalWeights::parse(&text, "w.toml").unwrap_err();
        assert!(matches!(e, WeightsError::MissingFeature { feature: "tempo", .. }), "{e}");
    }

    #[test]
    fn weights_for_another_ruleset_are_refused() {
        let dir = std::env::temp_dir().join(format!("latrunculi-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("xxi.toml");
        std::fs::write(&path, file_with("", "xxi")).unwrap();
        assert!(EvalWeights::load_for(&path, "xxi").is_ok());
        let e = EvalWeights::load_for(&path, "kowalski").unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, WeightsError::WrongRuleset { .. }), "{msg}");
        assert!(msg.contains("xxi.toml") && msg.contains("'xxi'") && msg.contains("'kowalski'"), "{msg}");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn every_builtin_file_parses_and_names_its_own_builtin_ruleset() {
        for (id, text) in BUILTIN_WEIGHTS {
            let w = EvalWeights::parse(text, id).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(w.ruleset, *id);
            let rs = Ruleset::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(EvalWeights::builtin_for(&rs.rules()).map(|w| w.ruleset.as_str()), Some(*id));
        }
    }

    #[test]
    fn a_builtin_ruleset_without_a_file_plays_the_default_weights() {
        let with_file: Vec<&str> = BUILTIN_WEIGHTS.iter().map(|(id, _)| *id).collect();
        let all = Ruleset::all_builtin();
        let mut without = 0;
        for rs in &all {
            if !with_file.contains(&rs.id.as_str()) {
                without += 1;
                let got = EvalWeights::builtin_for(&rs.rules()).map(|w| w.ruleset.clone());
                assert_eq!(got, None, "{} would play the weights of {got:?}", rs.id);
                assert_eq!(EvalWeights::for_rules(&rs.rules()), EvalWeights::default_weights());
            }
        }
        assert!(without > 0);
        // The case this guards: a ruleset without a file whose rules are those of a ruleset
        // with a file on another board (the Seega boards differ only in size and the
        // pieces in hand). If the weights A/B ever removes every such file, pick another
        // guard.
        let same_rules_elsewhere = all.iter().any(|a| {
            !with_file.contains(&a.id.as_str())
                && all.iter().any(|b| {
                    let (mut ra, rb) = (a.rules(), b.rules());
                    (ra.width, ra.height) = (rb.width, rb.height);
                    with_file.contains(&b.id.as_str()) && a.id != b.id && ra == rb
                })
        });
        assert!(same_rules_elsewhere, "no ruleset without a file shares its rules with one that has a file");
    }

    #[test]
    fn a_builtin_ruleset_on_another_board_plays_its_file() {
        // Every ruleset with a file, on a board no built-in ruleset uses: it plays the file
        // of its rules on the board nearest in squares (its own, where no other file has
        // its rules).
        let all = Ruleset::all_builtin();
        let with_file: Vec<Rules> =
            BUILTIN_WEIGHTS.iter().map(|(id, _)| Ruleset::builtin(id).unwrap().rules()).collect();
        let squares = |r: &Rules| r.width as i64 * r.height as i64;
        for (id, _) in BUILTIN_WEIGHTS {
            let own = Ruleset::builtin(id).unwrap().rules();
            let rules = Rules { width: 15, height: 5, ..own };
            assert!(all.iter().all(|rs| rs.rules() != rules), "{id} on 15x5 is a built-in ruleset");
            let got = EvalWeights::builtin_for(&rules).unwrap_or_else(|| panic!("{id} on 15x5 plays no file"));
            let got_rules = Ruleset::builtin(&got.ruleset).unwrap().rules();
            assert_eq!(Rules { width: 15, height: 5, ..got_rules }, rules, "{id} on 15x5 plays {}", got.ruleset);
            let nearest = with_file
                .iter()
                .filter(|r| Rules { width: 15, height: 5, ..**r } == rules)
                .map(|r| (squares(r) - 75).abs())
                .min();
            assert_eq!(Some((squares(&got_rules) - 75).abs()), nearest, "{id} on 15x5 plays {}", got.ruleset);
        }
    }
}
