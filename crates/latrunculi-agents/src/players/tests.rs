use std::sync::Arc;

use latrunculi_rules::{Position, Ruleset};

use super::*;
use crate::search::{EvalChoice, EvalWeights};

fn spec(text: &str) -> AgentSpec {
    Players::baseline().parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn usage_strings_come_from_the_options() {
    assert_eq!(MCTS.usage(), "mcts:sims=N[,depth=D][,c=C]");
    assert!(
        ALPHABETA.usage().starts_with("alphabeta:depth=N[,tt=MB] | alphabeta:nodes=N|ms=MS"),
        "{}",
        ALPHABETA.usage()
    );
    assert_eq!(RANDOM.usage(), "random");
    assert!(
        Players::baseline()
            .valid_agents()
            .starts_with("random, greedy, mcts:sims=N[,depth=D][,c=C], alphabeta:depth=N[,tt=MB] | alphabeta:nodes=N")
    );
}

#[test]
fn the_canonical_form_drops_spaces_and_keeps_the_order() {
    assert_eq!(spec(" mcts : depth = 3 , sims = 5 ,").to_string(), "mcts:depth=3,sims=5");
    assert_eq!(spec("random:").to_string(), "random");
    for text in ["random", "greedy", "mcts:sims=200", "mcts:sims=10,depth=5,c=0.7", "alphabeta:depth=2,tt=1"] {
        let s = spec(text);
        assert_eq!(s.to_string(), text);
        assert_eq!(spec(&s.to_string()), s, "the canonical form reads back as the same spec");
    }
}

#[test]
fn options_are_read_into_typed_values_when_parsed() {
    assert!(matches!("mcts:sims=0".parse::<AgentSpec>(), Err(AgentError::BadValue { .. })));
    assert!(matches!("alphabeta:depth=65".parse::<AgentSpec>(), Err(AgentError::BadValue { .. })));
    assert!(matches!("alphabeta:tt=1".parse::<AgentSpec>(), Err(AgentError::MissingKey { key: "depth", .. })));
    assert!(matches!("nope".parse::<AgentSpec>(), Err(AgentError::UnknownAgent { .. })));
    assert_eq!(spec("mcts:sims=5,c=0.5").get("c"), Some("0.5"));
    match spec("mcts:sims=5,c=0.5").player() {
        PlayerSpec::Mcts(cfg) => assert_eq!((cfg.sims, cfg.rollout_depth, cfg.c), (5, 40, 0.5)),
        other => panic!("{other:?}"),
    }
    match spec("alphabeta:depth=3").player() {
        PlayerSpec::AlphaBeta(cfg) => assert_eq!((cfg.depth, cfg.tt_mb), (3, 16)),
        other => panic!("{other:?}"),
    }
    match spec("alphabeta:nodes=500,depth=7,qs=0,noise=0").player() {
        PlayerSpec::Search(s) => {
            assert_eq!((s.limits.nodes, s.limits.ms, s.limits.max_depth), (Some(500), None, 7));
            assert_eq!((s.options.quiescence, s.options.noise), (false, 0));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn lists_join_options_to_the_spec_before_them() {
    let players = Players::baseline();
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let specs = players.parse_list(&v(&["greedy,mcts:sims=1000,depth=20,alphabeta:depth=2", "random"])).unwrap();
    let texts: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    assert_eq!(texts, v(&["greedy", "mcts:sims=1000,depth=20", "alphabeta:depth=2", "random"]));
    assert!(matches!(players.parse_list(&v(&["sims=3,greedy"])), Err(AgentError::OptionWithoutAgent { .. })));
    assert!(matches!(players.parse_list(&v(&["greedy,,random"])), Err(AgentError::EmptyInList { .. })));
    assert!(players.parse_list(&v(&["mcts:sims=3", "depth=2"])).is_err(), "options do not cross lists");
}

/// A kind of another crate, for the tests of [`Players::with`].
struct Other(&'static AgentKind);

#[derive(Debug)]
struct OtherSpec(u32);

impl KindSpec for OtherSpec {
    fn build(&self, spec: &str, _: Option<&Ruleset>) -> Result<Box<dyn crate::Agent>, AgentError> {
        Ok(Box::new(crate::RandomAgent::new(spec)))
    }
    fn simulations(&self) -> Option<u32> {
        Some(self.0)
    }
}

impl PlayerKind for Other {
    fn kind(&self) -> &AgentKind {
        self.0
    }
    fn parse(&self, raw: &RawSpec) -> Result<Arc<dyn KindSpec>, AgentError> {
        Ok(Arc::new(OtherSpec(raw.positive("sims")?.unwrap_or(1))))
    }
}

static TWIN: AgentKind =
    AgentKind { name: "random", summary: "another kind of the same name", usage_text: None, options: &[] };
static EXTRA: AgentKind = AgentKind {
    name: "extra",
    summary: "a kind of another crate",
    usage_text: None,
    options: &[AgentOption { key: "sims", value: "N", required: false, meaning: "simulations" }],
};

#[test]
fn kinds_of_other_crates_are_added_to_a_factory_not_to_a_global_list() {
    assert!(matches!(Players::baseline().with(Arc::new(Other(&TWIN))), Err(AgentError::NameTaken { .. })));
    let players = Players::baseline().with(Arc::new(Other(&EXTRA))).expect("a new name");
    assert!(players.valid_agents().ends_with(", extra[:sims=N]"), "{}", players.valid_agents());
    let s = players.parse("extra: sims = 7").expect("a spec of the added kind");
    assert_eq!(s.to_string(), "extra:sims=7");
    match s.player() {
        PlayerSpec::Other(o) => assert_eq!(o.simulations(), Some(7)),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.build(None).expect("built").spec(), "extra:sims=7");
    assert!(players.parse("extra:sims=0").is_err());
    let e = Players::baseline().parse("extra").expect_err("another factory has no such kind");
    assert!(matches!(&e, AgentError::UnknownAgent { name, .. } if name == "extra"), "{e}");
    assert!(!e.to_string().contains("extra["), "the baseline factory lists its own kinds: {e}");
}

#[test]
fn a_built_agent_reports_the_canonical_spec() {
    let s = spec("alphabeta: depth=1 ");
    assert_eq!(s.build(None).unwrap().spec(), "alphabeta:depth=1");
}

#[test]
fn a_weights_file_is_read_once_when_parsed_and_shared_by_every_agent() {
    let dir = std::env::temp_dir().join(format!("latrunculi-weights-once-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("w.toml");
    let weights = EvalWeights { ruleset: "kowalski".to_string(), ..EvalWeights::material_only() };
    std::fs::write(&path, weights.to_toml()).expect("write weights");
    let s = spec(&format!("alphabeta:nodes=300,eval={}", path.display()));
    std::fs::remove_file(&path).expect("remove weights");
    std::fs::remove_dir_all(&dir).ok();
    let PlayerSpec::Search(search) = s.player() else { panic!("the search player: {s:?}") };
    let EvalChoice::File(_, weights) = &search.options.eval else { panic!("a weights file: {search:?}") };
    let before = Arc::strong_count(weights);
    let rs = Ruleset::builtin("kowalski").expect("kowalski");
    let pos = Position::new(&rs);
    for seed in 0..4 {
        let mut agent = s.build(Some(&rs)).expect("built without the file, which is gone");
        agent.new_game(seed);
        assert!(pos.legal_move_list().contains(&agent.select(&pos)));
    }
    assert_eq!(Arc::strong_count(weights), before, "the agents are gone; the spec still holds the weights");
    let shared = s.clone();
    assert_eq!(Arc::strong_count(weights), before + 1, "a copy of the spec shares the weights, not a new read");
    drop(shared);
}

#[test]
fn a_factory_without_weight_files_refuses_eval_path_and_keeps_the_rest() {
    let players = Players::baseline().without_weight_files();
    let e = players.parse("alphabeta:ms=10,eval=/etc/x.toml").expect_err("a file");
    assert!(matches!(e, AgentError::Refused { .. }), "{e}");
    assert!(e.to_string().contains("eval=PATH"), "{e}");
    assert!(players.parse("alphabeta:ms=10,eval=material").is_ok());
}

#[test]
fn the_time_cap_bounds_the_typed_limits_and_the_text() {
    let mut s = spec("alphabeta:ms=999999,depth=3");
    s.cap_ms(3000);
    assert_eq!(s.to_string(), "alphabeta:depth=3,ms=3000");
    let mut s = spec("alphabeta:nodes=5000");
    s.cap_ms(3000);
    assert_eq!(s.to_string(), "alphabeta:nodes=5000,ms=3000");
    let PlayerSpec::Search(search) = s.player() else { panic!("{s:?}") };
    assert_eq!((search.limits.nodes, search.limits.ms), (Some(5000), Some(3000)));
    let mut s = spec("alphabeta:ms=20");
    s.cap_ms(3000);
    assert_eq!(s.to_string(), "alphabeta:ms=20");
    let mut s = spec("mcts:sims=5");
    s.cap_ms(3000);
    assert_eq!(s.to_string(), "mcts:sims=5", "no change for other kinds");
}
