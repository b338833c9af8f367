"""Python's BatchSim against the Rust simulator, in the same run (issue 12's measure).

Both step 256 games of each ruleset with uniformly random legal actions for about
SECONDS: Rust chooses its actions in Rust (`latrunculi.rust_sim_plies_per_s`, what
`latrunculi bench` reports); Python reads `BatchSim.legal_actions()` and samples with
numpy, then calls `BatchSim.step`. Rounds alternate Rust and Python so that drift in
the machine's load hits both alike. Prints one CSV row per measurement and a summary
(median ratio per ruleset).

    python3 crates/latrunculi-py/bench/bench_batchsim.py [SECONDS] [ROUNDS] [RULESET...]
"""

import statistics
import sys
import time

import numpy as np

import latrunculi as lt


def python_plies_per_s(ruleset, batch, seconds, seed):
    sim = lt.BatchSim(ruleset, batch, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        actions, offsets = sim.legal_actions()
        counts = np.diff(offsets)
        pick = offsets[:-1] + (rng.random(batch) * counts).astype(np.int64)
        sim.step(actions[pick])
        steps += 1
    return steps * batch / (time.perf_counter() - t0)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rulesets = sys.argv[3:] or ["kowalski", "xxi", "schadler"]
    batch = 256
    print("round,ruleset,side,plies_per_s")
    ratios = {r: [] for r in rulesets}
    for rnd in range(1, rounds + 1):
        for r in rulesets:
            rust = lt.rust_sim_plies_per_s(r, batch=batch, seconds=seconds, seed=rnd)
            py = python_plies_per_s(r, batch, seconds, rnd)
            print(f"{rnd},{r},rust,{rust:.0f}")
            print(f"{rnd},{r},python,{py:.0f}")
            ratios[r].append(py / rust)
    print()
    print("ruleset,median_python_over_rust")
    for r in rulesets:
        print(f"{r},{statistics.median(ratios[r]):.3f}")


if __name__ == "__main__":
    main()
