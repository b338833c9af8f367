use latrunculi_rules::*;
fn main() {
    let mut seed = 12345u64;
    let mut rnd = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for rs in Ruleset::all_builtin() {
        let mut stats = std::collections::BTreeMap::new();
        let mut plies = 0;
        let t = std::time::Instant::now();
        for _ in 0..200 {
            let mut p = Position::new(&rs);
            let mut buf = Vec::new();
            while p.outcome().is_none() {
                p.legal_moves(&mut buf);
                assert!(!buf.is_empty());
                let m = buf[rnd(buf.len())];
                p.play(m);
                plies += 1;
            }
            let o = p.outcome().unwrap();
            *stats.entry(format!("{} {}", o.winner_text(), o.reason)).or_insert(0) += 1;
        }
        println!(
            "{:18} {:8.0} plies/s avg {:5.1} {:?}",
            rs.id,
            plies as f64 / t.elapsed().as_secs_f64(),
            plies as f64 / 200.0,
            stats
        );
    }
}
