//! A ruleset's parameters in words, for people: each key of the ruleset file with its
//! value and what both mean, taken from the doc comments of the parameter types in
//! `params.rs` (and of [`Ruleset`]'s own fields), so that the words cannot drift from
//! the engine's definitions.

use super::Ruleset;

/// The sources the descriptions are read from (the engine's own doc comments).
const SOURCES: [&str; 2] = [include_str!("params.rs"), include_str!("mod.rs")];

/// The tables of a ruleset file and the types that hold them, in file order; `""` is the
/// top level.
const TABLES: [(&str, &str); 6] = [
    ("", "Ruleset"),
    ("setup", "SetupSpec"),
    ("movement", "Movement"),
    ("capture", "Capture"),
    ("combat", "Combat"),
    ("end", "End"),
];

/// Top-level keys that name the ruleset rather than a rule.
const NOT_RULES: [&str; 3] = ["id", "name", "source"];

/// One parameter of a ruleset in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDescription {
    /// The table of the ruleset file (`movement`, `capture`, …; empty for the top level).
    pub table: String,
    /// The dotted key, as `+key=value` changes name it (`end.no_capture_limit`).
    pub key: String,
    /// The value, as TOML text (`"slide"`, `true`, `100`).
    pub value: String,
    /// What the parameter means (its doc comment).
    pub meaning: String,
    /// What the chosen value means, for parameters with named values (the doc comment of
    /// the value), e.g. `Any number of empty squares along a line (a rook move)`.
    pub value_meaning: Option<String>,
}

/// A documented item of the sources: a field of a struct or a variant of an enum.
struct Doc {
    owner: String,
    name: String,
    ty: Option<String>,
    text: String,
}

/// Reads the doc comments of every field and variant of the sources.
fn docs() -> Vec<Doc> {
    let mut out = Vec::new();
    for source in SOURCES {
        let mut owner: Option<String> = None;
        let mut doc: Vec<String> = Vec::new();
        for line in source.lines() {
            let t = line.trim();
            if let Some(d) = t.strip_prefix("///") {
                doc.push(d.trim().to_string());
                continue;
            }
            if t.starts_with("#[") {
                continue;
            }
            if let Some(rest) = t.strip_prefix("pub struct ").or_else(|| t.strip_prefix("pub enum ")) {
                owner = rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().map(str::to_string);
            } else if line.starts_with('}') {
                owner = None;
            } else if let Some(o) = &owner
                && line.starts_with("    ")
                && !line.starts_with("     ")
            {
                let field = t.strip_prefix("pub ").and_then(|f| f.split_once(':'));
                let variant = t.strip_suffix(',').filter(|v| v.chars().all(|c| c.is_alphanumeric()));
                let entry = match (field, variant) {
                    (Some((name, ty)), _) => Some((name.trim(), Some(ty.trim().trim_end_matches(',').to_string()))),
                    (None, Some(v)) => Some((v, None)),
                    _ => None,
                };
                if let Some((name, ty)) = entry
                    && !doc.is_empty()
                {
                    out.push(Doc { owner: o.clone(), name: name.to_string(), ty, text: doc.join(" ") });
                }
            }
            doc.clear();
        }
    }
    out
}

/// `SoldierMove::StepForwardSideways` as its TOML value: `step-forward-sideways`.
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('-');
        }
        out.extend(c.to_lowercase());
    }
    out
}

impl Ruleset {
    /// Every rule parameter of this ruleset in words, table by table in the order of a
    /// ruleset file (board and first player, setup, movement, capture, combat, end):
    /// the key, its value and what both mean, from the engine's own descriptions.
    /// Parameters the canonical TOML leaves out (switches added later, off by default)
    /// are listed with their default value.
    pub fn describe(&self) -> Vec<ParamDescription> {
        let docs = docs();
        let table: toml::Table = toml::from_str(&self.to_toml()).unwrap_or_default();
        let mut out = Vec::new();
        for (name, ty) in TABLES {
            let values = if name.is_empty() { Some(&table) } else { table.get(name).and_then(|v| v.as_table()) };
            for field in docs.iter().filter(|d| d.owner == ty) {
                if name.is_empty() && (NOT_RULES.contains(&field.name.as_str()) || field.ty.as_deref() == Some(ty)) {
                    continue;
                }
                let field_ty = field.ty.clone().unwrap_or_default();
                // Tables of the top level are described one by one below.
                if name.is_empty() && TABLES.iter().any(|(_, t)| *t == field_ty) {
                    continue;
                }
                let value = match values.and_then(|v| v.get(&field.name)) {
                    Some(v) => v.to_string(),
                    None if field_ty == "bool" => "false".to_string(),
                    None if field_ty == "MaterialTie" => "\"draw\"".to_string(),
                    None if field_ty == "Adjudication" => "\"count\"".to_string(),
                    None => continue,
                };
                let plain = value.trim_matches('"');
                let value_meaning = docs
                    .iter()
                    .find(|d| d.owner == field_ty && d.ty.is_none() && kebab(&d.name) == plain)
                    .map(|d| d.text.clone());
                let key = if name.is_empty() { field.name.clone() } else { format!("{name}.{}", field.name) };
                out.push(ParamDescription {
                    table: name.to_string(),
                    key,
                    value,
                    meaning: field.text.clone(),
                    value_meaning,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_of_a_ruleset_is_described_with_its_value() {
        let rs = Ruleset::builtin("xxi").expect("builtin");
        let d = rs.describe();
        let get = |k: &str| d.iter().find(|p| p.key == k).unwrap_or_else(|| panic!("{k} missing: {d:?}"));
        assert_eq!(get("width").value, "10");
        assert_eq!(get("movement.soldier").value, "\"slide\"");
        assert!(get("movement.soldier").meaning.contains("How soldiers move"));
        assert!(get("movement.soldier").value_meaning.as_deref().unwrap_or("").contains("rook move"));
        assert_eq!(
            get("end.repetition").value_meaning.as_deref(),
            Some("The ply that creates the n-th occurrence loses for the mover (`repetition`).")
        );
        assert_eq!(get("capture.capture_grants_ply").value, "false");
        assert!(get("combat.dux_limits").meaning.contains("Rules 16"));
        assert!(d.iter().all(|p| !p.meaning.is_empty() && p.key != "id" && p.key != "movement"));
        // Every key of every ruleset file is described.
        for rs in Ruleset::all_builtin() {
            let table: toml::Table = toml::from_str(&rs.to_toml()).expect("toml");
            let d = rs.describe();
            for (k, v) in &table {
                match v.as_table() {
                    Some(t) => {
                        for k2 in t.keys() {
                            assert!(d.iter().any(|p| p.key == format!("{k}.{k2}")), "{}: {k}.{k2}", rs.id);
                        }
                    }
                    None if NOT_RULES.contains(&k.as_str()) => {}
                    None => assert!(d.iter().any(|p| &p.key == k), "{}: {k}", rs.id),
                }
            }
        }
    }

    #[test]
    fn values_are_named_in_kebab_case() {
        assert_eq!(kebab("StepForwardSideways"), "step-forward-sideways");
        assert_eq!(kebab("Slide"), "slide");
    }
}
