use latrunculi_rules::*;
fn main() {
    let mut seed = 99u64;
    let mut rnd = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for id in ["kowalski", "xxi", "schadler"] {
        let rs = Ruleset::builtin(id).unwrap();
        let (mut plies, mut moves) = (0u64, 0u64);
        for _ in 0..300 {
            let mut p = Position::new(&rs);
            let mut buf = Vec::new();
            while !p.is_over() {
                p.legal_moves(&mut buf);
                moves += buf.len() as u64;
                plies += 1;
                let m = buf[rnd(buf.len())];
                p.play(m);
            }
        }
        println!("{id}: {:.1} moves per ply", moves as f64 / plies as f64);
    }
}
