//! The arena without its `az` feature depends on no burn crate: `cargo tree -p
//! latrunculi-arena --no-default-features` (normal dependencies) lists none.

use std::process::Command;

#[test]
fn the_arena_without_the_az_feature_depends_on_no_burn() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let tree = |features: &[&str]| {
        let out = Command::new(&cargo)
            .args(["tree", "--offline", "--manifest-path", manifest, "-p", "latrunculi-arena", "-e", "normal"])
            .args(["--prefix", "none", "--format", "{p}"])
            .args(features)
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let without = tree(&["--no-default-features"]);
    let burn: Vec<&str> = without.lines().filter(|l| l.starts_with("burn") || l.starts_with("latrunculi-az")).collect();
    assert!(burn.is_empty(), "burn crates without the az feature: {burn:?}");
    // The check can fail: with the feature, burn is there.
    let with = tree(&[]);
    assert!(with.lines().any(|l| l.starts_with("burn ")), "burn is a dependency of the az feature");
}
