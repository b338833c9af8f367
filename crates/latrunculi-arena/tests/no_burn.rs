//! The arena depends on no burn crate and not on `latrunculi-az`, in any configuration:
//! `cargo tree -p latrunculi-arena --all-features -e normal,build,dev` lists none. The
//! `az` kind of agent is added to the player factory by the programs put together with
//! networks (the `latrunculi` command, the Python package), which hand it to the arena.

use std::process::Command;

#[test]
fn the_arena_depends_on_no_burn_in_any_configuration() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let tree = |package: &str, features: &[&str]| {
        let out = Command::new(&cargo)
            .args(["tree", "--offline", "--manifest-path", manifest, "-p", package])
            .args(features)
            .args(["-e", "normal,build,dev", "--prefix", "none", "--format", "{p}"])
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let arena = tree("latrunculi-arena", &["--all-features"]);
    let burn: Vec<&str> = arena.lines().filter(|l| l.starts_with("burn") || l.starts_with("latrunculi-az")).collect();
    assert!(burn.is_empty(), "burn crates under the arena: {burn:?}");
    // The check can fail: the command, which adds the az kind, has burn.
    let cli = tree("latrunculi-cli", &[]);
    assert!(cli.lines().any(|l| l.starts_with("burn ")), "burn is a dependency of the command");
    assert!(cli.lines().any(|l| l.starts_with("latrunculi-az ")), "latrunculi-az is a dependency of the command");
}
