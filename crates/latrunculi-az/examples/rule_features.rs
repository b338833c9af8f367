//! Prints the rule features (one input plane each) of a family of rulesets on one board,
//! and each member's value of every plane.
//!
//!     cargo run -p latrunculi-az --example rule_features -- 10x8 xxi classical single-stone-xxi petteia-xxi

use latrunculi_rules::Ruleset;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some((w, h)) = args.next().and_then(|b| {
        let (w, h) = b.split_once('x')?;
        Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?))
    }) else {
        eprintln!("usage: rule_features WxH RULESET...");
        std::process::exit(2);
    };
    let mut family = Vec::new();
    for id in args {
        match Ruleset::builtin(&id).and_then(|r| r.with_board(w, h)) {
            Ok(r) => family.push(r),
            Err(e) => {
                eprintln!("{id}: {e}");
                std::process::exit(2);
            }
        }
    }
    let features = latrunculi_az::conditioning::rule_features(&family);
    let ids: Vec<&str> = family.iter().map(|r| r.id.as_str()).collect();
    println!("feature\t{}", ids.join("\t"));
    for f in &features {
        let values: Vec<String> = family
            .iter()
            .map(|r| latrunculi_az::conditioning::rule_values(std::slice::from_ref(f), r)[0].to_string())
            .collect();
        println!("{f}\t{}", values.join("\t"));
    }
}
