//! Rule planes: one network for several rulesets of one board, told which rules it plays.
//!
//! A network trained on a *family* of rulesets (say xxi, classical, single-stone-xxi and
//! petteia-xxi on 10×8) reads, after its usual observation planes, one constant plane per
//! **rule feature**: a parameter setting, written `section.key=value` with the ruleset's
//! TOML keys and the value as JSON writes it (`capture.push_and_crush=true`,
//! `end.dux_immobilized="off"`), that some members of the family have and others not. A
//! plane is 1 where the game's ruleset has that setting and 0 elsewhere. The features are found once from the family
//! ([`rule_features`]) and stored with the network, so that the same planes are written
//! whichever ruleset it later plays ([`rule_values`]).

use latrunculi_rules::Ruleset;

/// Top-level keys that name or describe a ruleset without being a rule.
const NOT_RULES: [&str; 4] = ["id", "name", "source", "other_boards"];

/// Every rule parameter of a ruleset as `(section.key, value)`, read from its serialised
/// form (values as JSON writes them: `true`, `60`, `"any-blockers"`, `[]`; the id, name,
/// source and list of other boards left out). Sorted by key.
pub fn rule_entries(ruleset: &Ruleset) -> Vec<(String, String)> {
    fn flatten(prefix: &str, value: &serde_json::Value, out: &mut Vec<(String, String)>) {
        match value {
            serde_json::Value::Object(fields) => {
                for (key, v) in fields {
                    if prefix.is_empty() && NOT_RULES.contains(&key.as_str()) {
                        continue;
                    }
                    flatten(&format!("{prefix}{key}."), v, out);
                }
            }
            leaf => out.push((prefix.trim_end_matches('.').to_string(), leaf.to_string())),
        }
    }
    let mut out = Vec::new();
    // A ruleset is plain data: serialising it cannot fail.
    if let Ok(value) = serde_json::to_value(ruleset) {
        flatten("", &value, &mut out);
    }
    out.sort();
    out
}

/// The parameters (as `section.key`) whose values differ between two rulesets.
pub fn differing_parameters(a: &Ruleset, b: &Ruleset) -> Vec<String> {
    let (ea, eb) = (rule_entries(a), rule_entries(b));
    let value = |e: &[(String, String)], k: &str| e.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let mut keys: Vec<String> = Vec::new();
    for (k, v) in &ea {
        if value(&eb, k).as_ref() != Some(v) {
            keys.push(k.clone());
        }
    }
    for (k, _) in &eb {
        if value(&ea, k).is_none() {
            keys.push(k.clone());
        }
    }
    keys
}

/// The rule features of a family: for every parameter whose value is not the same in all
/// members, one feature `section.key=value` per value a member has (a `true`/`false`
/// parameter gives one feature, `=true`). Sorted, so that the order does not depend on
/// the order of the members. Empty for a single ruleset or a family of equal rules.
pub fn rule_features(family: &[Ruleset]) -> Vec<String> {
    let entries: Vec<Vec<(String, String)>> = family.iter().map(rule_entries).collect();
    let mut keys: Vec<&String> = entries.iter().flatten().map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let mut features = Vec::new();
    for key in keys {
        let mut values: Vec<Option<&String>> =
            entries.iter().map(|e| e.iter().find(|(k, _)| k == key).map(|(_, v)| v)).collect();
        values.sort();
        values.dedup();
        if values.len() < 2 {
            continue;
        }
        let present: Vec<&String> = values.into_iter().flatten().collect();
        if present.iter().all(|v| *v == "true" || *v == "false") {
            features.push(format!("{key}=true"));
        } else {
            features.extend(present.into_iter().map(|v| format!("{key}={v}")));
        }
    }
    features.sort();
    features
}

/// The value of each feature's plane for `ruleset`: 1 where its parameter has the
/// feature's value, else 0.
pub fn rule_values(features: &[String], ruleset: &Ruleset) -> Vec<f32> {
    let entries = rule_entries(ruleset);
    features
        .iter()
        .map(|f| {
            let hit = f.split_once('=').is_some_and(|(key, value)| entries.iter().any(|(k, v)| k == key && v == value));
            if hit { 1.0 } else { 0.0 }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family() -> Vec<Ruleset> {
        ["xxi", "classical", "single-stone-xxi", "petteia-xxi"]
            .iter()
            .map(|id| Ruleset::builtin(id).and_then(|r| r.with_board(10, 8)).expect("an XXI ruleset on 10x8"))
            .collect()
    }

    #[test]
    fn the_features_of_a_family_tell_every_member_apart() {
        let fam = family();
        let features = rule_features(&fam);
        assert!(!features.is_empty());
        assert!(features.iter().all(|f| f.contains('=') && !f.starts_with("id=") && !f.starts_with("name=")));
        let planes: Vec<Vec<f32>> = fam.iter().map(|r| rule_values(&features, r)).collect();
        for (i, a) in planes.iter().enumerate() {
            assert!(a.iter().all(|&v| v == 0.0 || v == 1.0));
            for (j, b) in planes.iter().enumerate().skip(i + 1) {
                assert_ne!(a, b, "{} and {} get the same planes", fam[i].id, fam[j].id);
            }
        }
        // The order of the members does not matter; one ruleset alone has no features.
        let mut reversed = fam.clone();
        reversed.reverse();
        assert_eq!(rule_features(&reversed), features);
        assert!(rule_features(&fam[..1]).is_empty());
        assert!(rule_features(&[fam[0].clone(), fam[0].clone()]).is_empty());
        // Every parameter that differs between two members is behind some feature.
        for key in differing_parameters(&fam[0], &fam[1]) {
            assert!(features.iter().any(|f| f.starts_with(&format!("{key}="))), "{key}");
        }
    }
}
