//! Byte-mutation fuzzing of agent specs (`parse_agent`): no panic, every rejection an
//! error that names what is wrong, every accepted spec reported by its agent in the
//! canonical form, which reads back as the same spec. `LATRUNCULI_FUZZ_CASES` (default 3000) sets the cases, as in the rules
//! crate's fuzz tests.

use std::panic::{AssertUnwindSafe, catch_unwind};

use latrunculi_agents::{AgentSpec, parse_agent};
use latrunculi_rules::{FastRng, Position, Ruleset};

const SEEDS: &[&str] = &[
    "random",
    "greedy",
    "mcts:sims=8",
    "mcts:sims=8,depth=4,c=1.4",
    "alphabeta:depth=1",
    "alphabeta:depth=2,tt=1",
    " mcts : sims = 8 , depth = 0 ",
];

const DICT: &[&str] =
    &[":", ",", "=", " ", "sims", "depth", "c", "tt", "-1", "0", "1e9", "NaN", "inf", "4294967296", "65537", "é", "\n"];

fn mutate(rng: &mut FastRng, s: &str) -> String {
    let mut b = s.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(b.len() + 1);
        match rng.below(4) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.below(128) as u8;
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                b.remove(i);
            }
            2 => b.truncate(at),
            _ => {
                let w = DICT[rng.below(DICT.len())].as_bytes();
                b.splice(at..at, w.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn agent_specs() {
    let cases: u64 = std::env::var("LATRUNCULI_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    let mut rng = FastRng::new(std::env::var("LATRUNCULI_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1));
    // The seeds are accepted and play.
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(6, 6).unwrap();
    for spec in SEEDS {
        let mut agent = parse_agent(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        agent.new_game(1);
        let pos = Position::new(&rs);
        let mv = agent.select(&pos);
        assert!(pos.legal_move_list().contains(&mv), "{spec}");
    }
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut crashes = Vec::new();
    let (mut accepted, mut refused) = (0u64, 0u64);
    for _ in 0..cases {
        let seed = SEEDS[rng.below(SEEDS.len())];
        let spec = mutate(&mut rng, seed);
        let r = catch_unwind(AssertUnwindSafe(|| match parse_agent(&spec) {
            Ok(agent) => {
                let parsed: AgentSpec = spec.parse().expect("a spec that builds parses");
                assert_eq!(agent.spec(), parsed.to_string(), "the agent reports the canonical spec");
                assert_eq!(
                    parsed.to_string().parse::<AgentSpec>().as_ref(),
                    Ok(&parsed),
                    "the canonical form reads back"
                );
                true
            }
            Err(e) => {
                assert!(!e.to_string().trim().is_empty(), "an error without a message");
                false
            }
        }));
        match r {
            Ok(true) => accepted += 1,
            Ok(false) => refused += 1,
            Err(_) => crashes.push(spec),
        }
    }
    std::panic::set_hook(prev);
    eprintln!("agent specs: {cases} inputs, {accepted} accepted, {refused} refused, {} panics", crashes.len());
    assert!(crashes.is_empty(), "specs that panicked: {crashes:?}");
    assert!(accepted > 0 && refused > 0, "the mutations reach both sides");
}
