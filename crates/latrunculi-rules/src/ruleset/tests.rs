use super::*;

#[test]
fn every_builtin_ruleset_round_trips_through_its_toml() {
    // `latrunculi rules --verbose` prints `to_toml`; reading it back gives the same rules.
    for rs in Ruleset::all_builtin() {
        let back = Ruleset::from_toml_str(&rs.to_toml(), &rs.id).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
        assert_eq!(back, rs, "{}", rs.id);
        assert_eq!(back.params_hash(), rs.params_hash(), "{}", rs.id);
    }
}

#[test]
fn every_builtin_ruleset_loads_and_matches_its_id() {
    for (id, _) in BUILTIN {
        let rs = Ruleset::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(rs.id, id);
        assert!(!rs.name.is_empty() && !rs.source.is_empty(), "{id} lacks name or source");
    }
}

#[test]
fn builtin_files_match_the_configs_directory() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/rulesets");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".toml").to_string())
        .collect();
    on_disk.sort();
    let mut builtin: Vec<String> = Ruleset::builtin_ids().map(String::from).collect();
    builtin.sort();
    assert_eq!(on_disk, builtin);
}

#[test]
fn setups_have_the_documented_pieces() {
    let count = |id: &str| {
        let rs = Ruleset::builtin(id).unwrap();
        let p = rs.initial_pieces().unwrap();
        let n = |c: Color, k: PieceKind| p.iter().filter(|(pc, pk, _)| *pc == c && *pk == k).count();
        (
            n(Color::White, PieceKind::Soldier),
            n(Color::White, PieceKind::Dux),
            n(Color::Black, PieceKind::Soldier),
            n(Color::Black, PieceKind::Dux),
        )
    };
    assert_eq!(count("kowalski"), (12, 1, 12, 1));
    assert_eq!(count("kowalski-parcae"), (11, 1, 11, 1));
    assert_eq!(count("xxi"), (10, 1, 10, 1));
    assert_eq!(count("classical"), (10, 1, 10, 1));
    assert_eq!(count("common"), (12, 1, 12, 1));
    assert_eq!(count("single-stone-xxi"), (10, 0, 10, 0));
    assert_eq!(count("petteia-xxi"), (16, 0, 16, 0));
    assert_eq!(count("back-rank"), (12, 0, 12, 0));
    assert_eq!(count("savard"), (23, 1, 23, 1));
    assert_eq!(count("falkener"), (30, 0, 30, 0));
    assert_eq!(count("bell"), (0, 0, 0, 0));
    assert_eq!(count("schadler"), (0, 0, 0, 0));
}

#[test]
fn dux_squares_follow_rules_md() {
    let dux = |id: &str, w: u8, h: u8| {
        let rs = Ruleset::builtin(id).unwrap().with_board(w, h).unwrap();
        let p = rs.initial_pieces().unwrap();
        let find = |c| p.iter().find(|(pc, k, _)| *pc == c && *k == PieceKind::Dux).unwrap().2.to_string();
        (find(Color::White), find(Color::Black))
    };
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(dux("kowalski", 12, 8), s("f2", "f7"));
    assert_eq!(dux("kowalski-parcae", 12, 8), s("f1", "f8"));
    assert_eq!(dux("xxi", 10, 8), s("f2", "e7"));
    assert_eq!(dux("xxi", 12, 8), s("g2", "f7"));
    assert_eq!(dux("xxi", 8, 8), s("e2", "d7"));
    assert_eq!(dux("common", 12, 8), s("g2", "f7"));
    assert_eq!(dux("savard", 8, 8), s("d3", "d6"));
}

#[test]
fn unknown_key_is_an_error_naming_the_key() {
    let err = Ruleset::from_toml_str("id = \"x\"\n[capture]\ncustodail = true\n", "test.toml").unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("test.toml") && msg.contains("custodail"), "{msg}");
}

#[test]
fn wrong_type_is_an_error_naming_the_line() {
    let err = Ruleset::from_toml_str("id = \"x\"\nwidth = \"wide\"\n", "t.toml").unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("t.toml") && msg.contains("line 2"), "{msg}");
}

#[test]
fn impossible_boards_are_errors() {
    for (w, h) in [(17, 8), (12, 17), (17, 17), (2, 8), (0, 0)] {
        let text = format!("id = \"x\"\nwidth = {w}\nheight = {h}\n");
        let msg = Ruleset::from_toml_str(&text, "b.toml").unwrap_err().to_string();
        assert!(
            msg.contains("impossible") && msg.contains(&format!("{w}x{h}")) && msg.contains("3 to 16"),
            "{w}x{h}: {msg}"
        );
    }
    for (w, h) in [(16, 16), (16, 11), (13, 8)] {
        let text = format!("id = \"x\"\nwidth = {w}\nheight = {h}\n");
        assert!(Ruleset::from_toml_str(&text, "b.toml").is_ok(), "{w}x{h}");
    }
    let msg = Ruleset::builtin("kowalski").unwrap().with_board(17, 8).unwrap_err().to_string();
    assert!(msg.contains("17x8") && msg.contains("3 to 16"), "{msg}");
    let msg = Ruleset::builtin("petteia-xxi").unwrap().with_board(8, 3).unwrap_err().to_string();
    assert!(msg.contains("soldier_ranks"), "{msg}");
}

#[test]
fn unknown_id_lists_the_known_ones() {
    let msg = Ruleset::builtin("chess").unwrap_err().to_string();
    assert!(msg.contains("chess") && msg.contains("kowalski") && msg.contains("schadler"), "{msg}");
}

#[test]
fn params_hash_depends_on_parameters_only() {
    let a = Ruleset::builtin("xxi").unwrap();
    let mut b = a.clone();
    b.name = "renamed".into();
    assert_eq!(a.params_hash(), b.params_hash());
    b.end.no_capture_limit += 2;
    assert_ne!(a.params_hash(), b.params_hash());
}
