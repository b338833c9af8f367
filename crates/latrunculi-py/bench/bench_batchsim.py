"""Python's BatchSim against the Rust simulator, in the same run (issue 12's measure).

Both step 256 games of each ruleset with uniformly random legal actions for about
SECONDS: Rust chooses its actions in Rust (`latrunculi.rust_sim_plies_per_s`, what
`latrunculi bench` reports: a random index into each game's legal-move list). Python
does the same through the package in two ways:

- `python-index`: `legal_counts()`, random indices drawn by numpy,
  `legal_action_at(indices)`, then `step` (the Rust bench's choice, driven from numpy);
- `python-flat`: `legal_actions()` (every legal action of every game as one flat array
  with offsets), numpy picks one per game, then `step`.

Rounds alternate Rust and the two Python ways so that drift in the machine's load hits
all alike. Prints one CSV row per measurement and a summary (median ratio to Rust per
ruleset). RAYON_NUM_THREADS sets the threads of both.

    python3 crates/latrunculi-py/bench/bench_batchsim.py [SECONDS] [ROUNDS] [RULESET...]
"""

import statistics
import sys
import time

import numpy as np

import latrunculi as lt


def python_plies_per_s(ruleset, batch, seconds, seed, way):
    sim = lt.BatchSim(ruleset, batch, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        if way == "python-index":
            index = (rng.random(batch) * sim.legal_counts()).astype(np.int64)
            sim.step(sim.legal_action_at(index))
        else:
            actions, offsets = sim.legal_actions()
            counts = np.diff(offsets)
            pick = offsets[:-1] + (rng.random(batch) * counts).astype(np.int64)
            sim.step(actions[pick])
        steps += 1
    return steps * batch / (time.perf_counter() - t0)


WAYS = ["python-index", "python-flat"]


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rulesets = sys.argv[3:] or ["kowalski", "xxi", "schadler"]
    batch = 256
    print("round,ruleset,side,plies_per_s")
    ratios = {(r, w): [] for r in rulesets for w in WAYS}
    for rnd in range(1, rounds + 1):
        for r in rulesets:
            rust = lt.rust_sim_plies_per_s(r, batch=batch, seconds=seconds, seed=rnd)
            print(f"{rnd},{r},rust,{rust:.0f}", flush=True)
            for w in WAYS:
                py = python_plies_per_s(r, batch, seconds, rnd, w)
                print(f"{rnd},{r},{w},{py:.0f}", flush=True)
                ratios[(r, w)].append(py / rust)
    print()
    print("ruleset,way,median_ratio_to_rust,min_ratio,max_ratio")
    for (r, w), v in ratios.items():
        print(f"{r},{w},{statistics.median(v):.3f},{min(v):.3f},{max(v):.3f}")


if __name__ == "__main__":
    main()
