//! Search with a uniform network: tactics found by terminal values alone, tree reuse,
//! batching across games, and the self-play value targets.

use latrunculi_az::model::Evaluation;
use latrunculi_az::search::{Evaluator, SearchConfig, Tree, search};
use latrunculi_az::selfplay::{SelfPlayConfig, self_play};
use latrunculi_az::{AzError, BoardTables, UniformEvaluator};
use latrunculi_rules::{Color, Move, Position, Ruleset, Setup, Square};
use latrunculi_sim::observation::WHITE_TO_MOVE;

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn pos(ruleset: &str, fen: &str) -> Position {
    let rs = Ruleset::builtin(ruleset).unwrap();
    Position::from_setup(&rs, &Setup::from_fen(fen).unwrap()).unwrap()
}

/// The moves of `p` that end the game at once with a win for the mover.
fn winning_moves(p: &Position) -> Vec<Move> {
    p.legal_move_list()
        .into_iter()
        .filter(|&m| {
            let mut q = p.clone();
            q.play(m);
            q.outcome().is_some_and(|o| o.winner == Some(p.side_to_move()))
        })
        .collect()
}

fn best_move(ruleset: &str, p: &Position, sims: u32, seed: u64) -> Move {
    let rs = Ruleset::builtin(ruleset).unwrap();
    let tables = BoardTables::new(&rs);
    let eval = UniformEvaluator { actions: tables.actions() };
    let cfg = SearchConfig { sims, ..SearchConfig::default() };
    let mut trees = vec![Tree::new(p.clone(), seed, false)];
    search(&mut trees, &eval, &cfg, &tables).unwrap();
    assert!(trees[0].root_visits() >= sims);
    trees[0].choose(0.0).unwrap()
}

/// A network with fixed, unequal logits (the same for every position) and value 0.
struct SkewedEvaluator {
    actions: usize,
}

impl Evaluator for SkewedEvaluator {
    fn evaluate(&self, _obs: Vec<f32>, batch: usize, _shape: [usize; 3]) -> Result<Evaluation, AzError> {
        let logits: Vec<f32> =
            (0..batch * self.actions).map(|i| ((i % self.actions) * 7919 % 101) as f32 / 10.0).collect();
        Ok(Evaluation { logits, values: vec![0.0; batch], scores: Vec::new() })
    }
}

#[test]
fn one_simulation_plays_the_networks_highest_prior_move() {
    // With one simulation no root child is visited: the move must be the prior's choice,
    // whatever the tree's seed (it was a random legal move).
    let rs = Ruleset::builtin("kowalski").unwrap();
    let tables = BoardTables::new(&rs);
    let eval = SkewedEvaluator { actions: tables.actions() };
    let cfg = SearchConfig { sims: 1, ..SearchConfig::default() };
    let start = Position::new(&rs);
    for seed in 0..6 {
        let mut trees = vec![Tree::new(start.clone(), seed, false)];
        search(&mut trees, &eval, &cfg, &tables).unwrap();
        let children = trees[0].root_children();
        assert!(children.iter().all(|c| c.visits == 0), "one simulation visits no child");
        let top = children.iter().map(|c| c.prior).fold(f32::NEG_INFINITY, f32::max);
        let best: Vec<Move> = children.iter().filter(|c| c.prior == top).map(|c| c.mv).collect();
        assert!(best.len() < children.len(), "the priors must differ for this test to mean anything");
        let mv = trees[0].choose(0.0).unwrap();
        assert!(best.contains(&mv), "seed {seed}: {mv:?} is not a highest-prior move {best:?}");
    }
}

#[test]
fn uniform_network_finds_mate_in_one() {
    // Kowalski: c7-a7 shuts the black Dux on a8 in; it is the only winning move.
    let p = pos("kowalski", "dS10/2S9/12/11s/12/12/12/11D w");
    let mate = Move::movement(sq("c7"), sq("a7"));
    assert_eq!(winning_moves(&p), vec![mate]);
    for seed in 0..3 {
        assert_eq!(best_move("kowalski", &p, 800, seed), mate, "seed {seed}");
    }
}

#[test]
fn uniform_network_finds_a_winning_capture() {
    // XXI: d1-d4 captures Black's last soldier (e4, against f4) and wins (bare Dux).
    let p = pos("xxi", "5d4/10/10/10/4sS4/10/10/3S5D w");
    let capture = Move::movement(sq("d1"), sq("d4"));
    assert_eq!(winning_moves(&p), vec![capture]);
    let mut q = p.clone();
    assert_eq!(q.play(capture).captured(), vec![sq("e4")]);
    for seed in 0..3 {
        assert_eq!(best_move("xxi", &p, 800, seed), capture, "seed {seed}");
    }
}

#[test]
fn batched_search_equals_search_alone_and_reuse_keeps_the_subtree() {
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(6, 6).unwrap();
    let tables = BoardTables::new(&rs);
    let eval = UniformEvaluator { actions: tables.actions() };
    let cfg = SearchConfig { sims: 120, leaves_per_round: 4, ..SearchConfig::default() };
    let start = Position::new(&rs);
    let mut together: Vec<Tree> = (0..3).map(|s| Tree::new(start.clone(), s, false)).collect();
    search(&mut together, &eval, &cfg, &tables).unwrap();
    for (s, t) in together.iter().enumerate() {
        let mut alone = vec![Tree::new(start.clone(), s as u64, false)];
        search(&mut alone, &eval, &cfg, &tables).unwrap();
        assert_eq!(alone[0].root_children(), t.root_children(), "tree {s}");
    }
    // Reuse: after a move, the new root keeps the visits its node had.
    let mut tree = together.pop().unwrap();
    let mv = tree.choose(0.0).unwrap();
    let visits = tree.root_children().iter().find(|c| c.mv == mv).unwrap().visits;
    let before = tree.len();
    tree.advance(mv, &cfg);
    assert_eq!(tree.root_visits(), visits);
    assert!(tree.len() < before);
    let mut after = start.clone();
    after.play(mv);
    assert_eq!(tree.root().hash(), after.hash());
    // Searching on tops the reused tree up to the budget again.
    search(std::slice::from_mut(&mut tree), &eval, &cfg, &tables).unwrap();
    assert!(tree.root_visits() >= cfg.sims);
}

#[test]
fn self_play_value_targets_have_the_right_sign_for_both_colours() {
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let tables = BoardTables::new(&rs);
    let eval = UniformEvaluator { actions: tables.actions() };
    let cfg = SelfPlayConfig {
        games: 12,
        parallel: 6,
        search: SearchConfig { sims: 16, dirichlet_frac: 0.25, ..SearchConfig::default() },
        temperature_plies: 200,
        ply_cap: 150,
        seed: 3,
        draw_material: 0.0,
        full_search_prob: 1.0,
        fast_sims: 1,
    };
    let out = self_play(&eval, &rs, &tables, &cfg, None).unwrap();
    assert_eq!(out.games.len(), 12);
    let plane = tables.shape[1] * tables.shape[2];
    let mut decisive = [0; 2];
    for (summary, samples) in &out.games {
        assert_eq!(samples.len() as u32, summary.plies);
        for s in samples {
            let white_to_move = s.obs[WHITE_TO_MOVE * plane] == 1.0;
            let mover = if white_to_move { Color::White } else { Color::Black };
            let expected = match summary.winner {
                Some(w) if w == mover => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
            assert_eq!(s.value, expected, "ply {}", s.ply);
            let total: f32 = s.policy.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-4);
        }
        if let Some(w) = summary.winner {
            decisive[w.index()] += 1;
        }
    }
    // Both colours won some game, so both signs were checked for both colours.
    assert!(decisive[0] > 0 && decisive[1] > 0, "wins by colour: {decisive:?}");
}

#[test]
fn draw_material_targets_reward_the_side_with_more_pieces() {
    use latrunculi_az::selfplay::target_value;
    // White: Dux + 2 soldiers (3); Black: Dux + 1 soldier (2). xxi starts with 11 a side.
    let end = pos("xxi", "5d4/10/10/10/4s5/10/10/3S1S3D w");
    let start = 11;
    // Plain target: a draw is 0 for both.
    assert_eq!(target_value(&end, None, Color::White, 0.0, start), 0.0);
    assert_eq!(target_value(&end, None, Color::Black, 0.0, start), 0.0);
    // Shaped: ±2·1/11, opposite signs for the two sides.
    let w = target_value(&end, None, Color::White, 2.0, start);
    assert!((w - 2.0 / 11.0).abs() < 1e-6, "{w}");
    assert_eq!(target_value(&end, None, Color::Black, 2.0, start), -w);
    // Clamped to ±1, and a decided game keeps ±1 whatever the material.
    assert_eq!(target_value(&end, None, Color::White, 10.0, 1), 1.0);
    assert_eq!(target_value(&end, Some(Color::Black), Color::White, 2.0, start), -1.0);
    assert_eq!(target_value(&end, Some(Color::Black), Color::Black, 2.0, start), 1.0);
}

#[test]
fn gumbel_search_finds_the_mate_and_its_improved_policy_sums_to_one() {
    use latrunculi_az::gumbel::GumbelConfig;
    let rs = Ruleset::builtin("kowalski").unwrap();
    let p = pos("kowalski", "dS10/2S9/12/11s/12/12/12/11D w");
    let mate = Move::movement(sq("c7"), sq("a7"));
    let legal = p.legal_move_list();
    let tables = BoardTables::new(&rs);
    let eval = UniformEvaluator { actions: tables.outputs() };
    // Every move considered, 4 visits each on average: sequential halving keeps the mate.
    let g = GumbelConfig { considered: 1024, ..GumbelConfig::default() };
    let cfg = SearchConfig { sims: 4 * legal.len() as u32, gumbel: Some(g), ..SearchConfig::default() };
    for seed in 0..3 {
        let mut trees = vec![Tree::new(p.clone(), seed, false)];
        search(&mut trees, &eval, &cfg, &tables).unwrap();
        let policy = trees[0].improved_policy(&g).unwrap();
        assert_eq!(policy.len(), legal.len());
        assert!(policy.iter().all(|(m, p)| legal.contains(m) && *p >= 0.0));
        let total: f32 = policy.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-4, "sums to {total}");
        let best = policy.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
        assert_eq!(best, mate, "seed {seed}: the improved policy favours the mate");
        assert_eq!(trees[0].choose(0.0), Some(mate), "seed {seed}");
    }
}

/// A reused root under the Gumbel search keeps the network's priors: root noise belongs
/// to PUCT at the root only, and the improved-policy targets are computed from the priors
/// (a tree made with noise and one made without must agree, before and after `advance`).
#[test]
fn a_reused_gumbel_root_gets_no_dirichlet_noise() {
    use latrunculi_az::gumbel::GumbelConfig;
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(6, 6).unwrap();
    let tables = BoardTables::new(&rs);
    let eval = SkewedEvaluator { actions: tables.outputs() };
    let g = GumbelConfig::default();
    let cfg = SearchConfig { sims: 64, dirichlet_frac: 0.25, gumbel: Some(g), ..SearchConfig::default() };
    let start = Position::new(&rs);
    let mut noised = vec![Tree::new(start.clone(), 7, true)];
    let mut plain = vec![Tree::new(start.clone(), 7, false)];
    search(&mut noised, &eval, &cfg, &tables).unwrap();
    search(&mut plain, &eval, &cfg, &tables).unwrap();
    assert_eq!(noised[0].root_children(), plain[0].root_children(), "no noise at the first root");
    // Advance along the most visited child that was itself expanded, so that the new
    // root keeps its children (the case where noise used to be mixed in).
    let mv = plain[0]
        .root_children()
        .into_iter()
        .filter(|c| c.visits >= 2)
        .max_by_key(|c| c.visits)
        .expect("a child visited twice has children")
        .mv;
    noised[0].advance(mv, &cfg);
    plain[0].advance(mv, &cfg);
    let kept = plain[0].root_children();
    assert!(!kept.is_empty(), "the reused root has children");
    assert_eq!(noised[0].root_children(), kept, "the reused Gumbel root's priors are the network's");
    // Under PUCT the same reuse does mix noise in (so the comparison above can fail).
    let puct = SearchConfig { gumbel: None, ..cfg };
    let mut noised = vec![Tree::new(start.clone(), 7, true)];
    let mut plain = vec![Tree::new(start, 7, false)];
    search(&mut noised, &eval, &puct, &tables).unwrap();
    search(&mut plain, &eval, &puct, &tables).unwrap();
    let expanded_in = |t: &Tree, mv: Move| t.root_children().iter().any(|c| c.mv == mv && c.visits >= 2);
    let mv = plain[0]
        .root_children()
        .into_iter()
        .map(|c| c.mv)
        .find(|&mv| expanded_in(&plain[0], mv) && expanded_in(&noised[0], mv))
        .expect("a child expanded in both trees");
    noised[0].advance(mv, &puct);
    plain[0].advance(mv, &puct);
    let prior = |t: &Tree| t.root_children().iter().map(|c| c.prior).collect::<Vec<f32>>();
    assert_ne!(prior(&noised[0]), prior(&plain[0]), "PUCT reuse mixes root noise in");
}

#[test]
fn win_check_plays_a_win_the_root_search_would_miss() {
    use latrunculi_az::gumbel::GumbelConfig;
    let rs = Ruleset::builtin("kowalski").unwrap();
    let p = pos("kowalski", "dS10/2S9/12/11s/12/12/12/11D w");
    let mate = Move::movement(sq("c7"), sq("a7"));
    let tables = BoardTables::new(&rs);
    let eval = UniformEvaluator { actions: tables.outputs() };
    // Two moves considered out of ~50 and 8 visits: the Gumbel root rarely samples the mate.
    let g = GumbelConfig { considered: 2, ..GumbelConfig::default() };
    let run = |win_check: bool, seed: u64| {
        let cfg = SearchConfig { sims: 8, gumbel: Some(g), win_check, ..SearchConfig::default() };
        let mut trees = vec![Tree::new(p.clone(), seed, false)];
        search(&mut trees, &eval, &cfg, &tables).unwrap();
        trees[0].choose(0.0).unwrap()
    };
    let misses = (0..6).filter(|&seed| run(false, seed) != mate).count();
    assert!(misses > 0, "without the check the mate is missed for some seed");
    for seed in 0..6 {
        assert_eq!(run(true, seed), mate, "seed {seed}");
    }
}

#[test]
fn win_check_values_a_move_that_allows_a_win_as_lost_at_its_first_visit() {
    // Black to move; White threatens c7-a7, shutting the black Dux in on a8.
    let rs = Ruleset::builtin("kowalski").unwrap();
    let p = pos("kowalski", "dS10/2S9/12/11s/12/12/12/11D b");
    let legal = p.legal_move_list();
    let allows_mate = |m: Move| {
        let mut q = p.clone();
        q.play(m);
        !winning_moves(&q).is_empty()
    };
    let blunders: Vec<Move> = legal.iter().copied().filter(|&m| allows_mate(m)).collect();
    assert!(!blunders.is_empty() && blunders.len() < legal.len(), "{} of {}", blunders.len(), legal.len());
    let tables = BoardTables::new(&rs);
    let eval = UniformEvaluator { actions: tables.outputs() };
    let sims = 3 * legal.len() as u32;
    let mut evaluations = [0u64; 2];
    for (k, win_check) in [false, true].into_iter().enumerate() {
        let cfg = SearchConfig { sims, leaves_per_round: 1, win_check, ..SearchConfig::default() };
        let mut trees = vec![Tree::new(p.clone(), 7, false)];
        evaluations[k] = search(&mut trees, &eval, &cfg, &tables).unwrap().evaluations;
        if win_check {
            for c in trees[0].root_children() {
                if blunders.contains(&c.mv) && c.visits > 0 {
                    assert_eq!(c.q, -1.0, "{:?} lets White win: lost, exactly", c.mv);
                }
            }
            let chosen = trees[0].choose(0.0).unwrap();
            assert!(!blunders.contains(&chosen), "the search plays {chosen:?}, which allows the mate");
        }
    }
    // Proven leaves are not sent to the network.
    assert!(evaluations[1] < evaluations[0], "{evaluations:?}");
}
