#!/usr/bin/env python3
"""Rewrites the section "The `all` part so far" of experiments/strength/README.md from the
files of `run.sh all`: run `python3 experiments/strength/summarise.py experiments/strength/all
> experiments/strength/all/table.csv` first. Marks pairings not yet in a ruleset's eval CSV
as "(running)" and counts the rulesets that meet the issue's bars. Standard library only.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from latrunculi_analysis import read_csv  # noqa: E402
root=Path(__file__).resolve().parent
base=str(root/'all')
p=str(root/'README.md'); s=open(p).read()
start_marker="## The `all` part so far (`all/`)"
next_marker="## Won positions that end drawn"
if start_marker in s:
    i=s.index(start_marker); j=s.index(next_marker)
    s=s[:i]+s[j:]
rows=list(read_csv(base+'/table.csv'))
finished=set()
for f in os.listdir(base):
    if f.endswith('.csv') and not f.endswith('-games.csv') and f!='table.csv':
        for r in read_csv(os.path.join(base,f)):
            # eval rewrites a running pairing's row after every round: finished means
            # decided by the SPRT or at the 100-game cap.
            if r.get('sprt') in ('H0','H1') or int(r['games'])>=100:
                finished.add((r['ruleset'], r['opponent']))
cells={}
for r in rows: cells.setdefault(r['ruleset'],{})[r['opponent']]=r
# Pairings played on to 30 games (`run.sh topup`): their tally replaces the SPRT's, and
# they are finished at 30 games.
topped=set()
tp=root/'all-topup'/'table.csv'
if tp.exists():
    for r in read_csv(tp):
        key=(r['ruleset'], r['opponent'])
        cells.setdefault(r['ruleset'],{})[r['opponent']]=r
        topped.add(key)
        finished.discard(key)
        if int(r['games'])>=30: finished.add(key)
order=[]
for r in rows:
    if r['ruleset'] not in order: order.append(r['ruleset'])
def cell(r):
    if r is None: return '–', ''
    t=f"{r['wins']}-{r['draws']}-{r['losses']} {float(r['score']):.2f} [{float(r['score_lo']):.2f}, {float(r['score_hi']):.2f}]"
    if (r['ruleset'], r['opponent']) in topped: t+=" †"
    if (r['ruleset'], r['opponent']) not in finished: t+=" (running)"
    return t, r['reasons']
depth={}
dp=root/'depth-all.csv'
if dp.exists():
    for r in read_csv(dp): depth[r['ruleset']]=r
def speed(k):
    r=depth.get(k)
    return (f"{float(r['mean_depth']):.2f}", f"{int(r['nodes_per_s']):,}") if r else ('–','–')

def below_section():
    """The pairings under the bar (score below 0.75 or lower bound at or below 0.6), with
    how their drawn games stood at the end: the player ahead, level or behind in pieces."""
    out=["Pairings under the bar (score below 0.75, or the lower bound at 0.6 or below), and",
         "where their drawn games ended (`draws_ahead`, `draws_level`, `draws_behind` of",
         "`table.csv`: the player's pieces on the board at the end against its opponent's):",
         "",
         "| ruleset | opponent | W-D-L, score [95%] | draws: player ahead / level / behind | ended by |",
         "|---|---|---|---|---|"]
    for k in order:
        for o in ('alphabeta:depth=3','greedy'):
            r=cells[k].get(o)
            if r is None or (float(r['score'])>=0.75 and float(r['score_lo'])>0.6): continue
            t,reasons=cell(r)
            dal=f"{r.get('draws_ahead','?')} / {r.get('draws_level','?')} / {r.get('draws_behind','?')}"
            out.append(f"| {k} | `{o}` | {t} | {dal} | {reasons} |")
    return "\n".join(out)+"\n"
lines=["| ruleset | mean depth | nodes/s | vs `alphabeta:depth=3`: W-D-L, score [95%] | ended by | vs `greedy` | ended by |","|---|---|---|---|---|---|---|"]
good=below=0
for k in order:
    a,ar=cell(cells[k].get('alphabeta:depth=3')); g,gr=cell(cells[k].get('greedy'))
    d,n=speed(k)
    lines.append(f"| {k} | {d} | {n} | {a} | {ar} | {g} | {gr} |")
fin=[k for k in order if (k,'alphabeta:depth=3') in finished and (k,'greedy') in finished]
strong=[k for k in fin if all(float(cells[k][o]['score'])>=0.75 and float(cells[k][o]['score_lo'])>0.6 for o in ('alphabeta:depth=3','greedy'))]
above=[k for k in fin if all(float(cells[k][o]['score_lo'])>0.5 for o in ('alphabeta:depth=3','greedy'))]
notabove=[k for k in fin if k not in above]
sec=start_marker+f'''

`bash experiments/strength/run.sh all` (`nodes=10000` against `alphabeta:depth=3` and
`greedy`, `eval --sprt 0,200`, at most 100 games a pairing, colours alternated, seed 1,
1,000-ply cap; 2 threads on this machine, started 2026-11-26 12:35; resumable: the same
command goes on where it stopped). The binary of that start still carried the first
fitted weights of all 42 rulesets (built before commit e95d2c1 removed 18 of them): of the
rulesets played so far that changed only savard's and bell's player, so their games were
deleted and replayed at 13:45 with a binary of commit 5c7b15a (the weights as shipped);
on the other rulesets the two binaries play the same games (checked: games 0 and 1 of
kowalski and schadler replayed move for move). The pairings of ludii-seega-6x7, -9x10 and
-11x12 were replayed from 20:35 the same day, after the fix of the weights lookup (see
"Which weights ship"), with default weights, and those of ludii-seega-6x6, classical,
kowalski-parcae, ludii-bell-8x8 and the Seega boards 6x8, 7x8, 8x8, 8x9 and 10x10 from
2026-11-27, after their files lost the weights A/B, and those of kowalski, petteia-xxi,
back-rank, ludii-piso, ludii-schadler-1994, -2001 and ludii-seneca after theirs lost the
head-to-head (binary of the commit that removed them; the fitted player's games are in
`ab-default/`, `NAME-fitted-games.csv`). Where the default player had played the weights
A/B, the first 8 games of the replay against `alphabeta:depth=3` are those games move
for move (checked on all nine: `ab-default/NAME-games.csv` against `all/NAME-games.csv`,
same seeds and colours), so the replays ran with the default weights. Each pairing's row of
`all/<ruleset>.csv` is as `eval` writes it, every game is in `all/<ruleset>-games.csv`,
and `all/table.csv` tallies them with the end reasons and, of the drawn games, how many
the player ended ahead, level or behind in pieces (`summarise.py`); "(running)" marks
the pairing that was still going when these results were committed (its games so far).
Mean depth (of the last finished iteration) and nodes per second are those of one
self-play game of the player per ruleset, 120 plies (`depth-all.csv`, from
`cargo run --release -p latrunculi-agents --example search_speed -- 10000 120 1 RULESET...`
over all 42, 2026-11-26): the depth is the same on any machine at a node budget; the
rates were measured with two games of the `pursuit` part running on the 2 cores: on ten
seed rulesets they are 0.73 to 0.92 times those of `speed.csv` (measured idle, an earlier
binary, the same depths), on bell and schadler 1.5 and 1.6 times, so read them as rough;
the rows of ludii-seega-6x7, -9x10 and -11x12 were measured again with their default
weights (2026-11-26 22:05, four games running beside it), and those of ludii-seega-6x6,
classical, kowalski-parcae, ludii-bell-8x8 and the Seega boards 6x8, 7x8, 8x8 and 10x10
on 2026-11-27 after their files were removed, as were those of ludii-seega-8x9, kowalski,
petteia-xxi, back-rank, ludii-piso, ludii-schadler-1994, -2001 and ludii-seneca (at
`nice -15` beside eight runs at `nice 5`).
This section is written by `all_table.py` from those files.

† A pairing that the SPRT stopped in the player's favour (H1) with the lower bound of the
score at 0.6 or below (the SPRT decides between 0 and 200 Elo, which it can do before the
interval clears 0.6) is played on without the SPRT to 30 games, a rule fixed before any
extra game was played (`bash experiments/strength/run.sh topup`, `topup.py`): its games
are in `all-topup/` (the first ones copied from `all/`, the same games), its row here is
their tally (`python3 experiments/strength/summarise.py experiments/strength/all-topup >
experiments/strength/all-topup/table.csv`).

Of the {len(fin)} rulesets with both pairings finished, {len(strong)} score at least 0.75 with
the lower bound above 0.6 against both opponents, and {len(above)} have the lower bound above
0.5 against both; not yet above 0.5 against both: {", ".join(notabove) if notabove else "none"}.

'''+"\n".join(lines)+"\n\n"+below_section()+"\n"
i=s.index(next_marker)
s=s[:i]+sec+s[i:]
open(p,'w').write(s)
print(len(fin), len(strong), len(above), notabove)
