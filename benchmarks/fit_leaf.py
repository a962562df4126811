"""Fit the search leaf's constants to game outcomes (a lab script: benchmarks/README.md, "A leaf
fitted to game outcomes", has what it printed).

    cd core && cargo run --release --example leaf_lab -- DECKS.json search REPS SEED /tmp/a.jsonl
    python benchmarks/fit_leaf.py /tmp/a.jsonl [/tmp/b.jsonl ...]

Re-implements `evaluate::value_from_parts` with its constants as parameters and fits them by
maximum likelihood of the winner (Nelder-Mead) on 70% of the games, reporting log-loss, Brier
score and accuracy on the other 30% (a game's states stay together). Per-round arrays (scale,
board weight) are indexed by rounds still to score minus one: index 0 is a leaf at the start of
round 4. A few minutes on 26,000 states."""
import json, sys, hashlib
import numpy as np
from scipy.optimize import minimize

rows = []
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        r["src"] = path
        rows.append(r)
N = len(rows)
M = 5
mis = np.zeros((N, M, 8)); mask = np.zeros((N, M))
for k, r in enumerate(rows):
    for i, m in enumerate(r["missions"][:M]):
        mis[k, i] = m; mask[k, i] = 1
score = np.array([r["score"] for r in rows], float)
edge = np.array([1.0 if r["edge"] else -1.0 for r in rows])
rf = np.array([r["rounds"] for r in rows], float)
rnd = np.array([r["round"] for r in rows])
hand = np.array([r["hand"][0] - r["hand"][1] for r in rows], float)
chak = np.array([r["chakra"][0] - r["chakra"][1] for r in rows], float)
y = np.array([1.0 if r["winner"] == 0 else 0.0 for r in rows])
gid = [r["src"] + r["game"] for r in rows]
test = np.array([int(hashlib.md5(g.encode()).hexdigest(), 16) % 10 < 3 for g in gid])
print(f"{N} states from {len(set(gid))} games; held out {test.sum()} states ({len(set(g for g,t in zip(gid,test) if t))} games)")

def margin(p, per_round=False):
    s, e, h, w, t = p["spread"], p["edge_m"], p["hidden"], p["later"], p["tie"]
    pw0 = mis[:, :, 0] + h * mis[:, :, 2]
    pw1 = mis[:, :, 1] + h * mis[:, :, 3]
    contested = ((pw0 != 0) | (pw1 != 0)) * mask
    diff = pw0 - pw1 + e * edge[:, None]
    pwin = 1 / (1 + np.exp(-diff / s))
    worth = mis[:, :, 6] + p.get("mscore", 1.0) * mis[:, :, 7]
    xw = p.get("xscore", 1.0)
    mine = (worth + xw * mis[:, :, 4]) * pwin
    theirs = (worth + xw * mis[:, :, 5]) * (1 - pwin)
    board = ((mine - theirs) * contested).sum(1)
    if "board" in p:  # per-round board weight (rounds to score 3, 2, 1)
        bw = np.choose(np.clip(rf.astype(int) - 1, 0, 2), [p["board"][0], p["board"][1], p["board"][2]])
    else:
        bw = 1 + w * (rf - 1)
    m = score + board * bw + t * edge + p.get("hand", 0.0) * hand + p.get("chakra", 0.0) * chak
    return m

def value(p):
    m = margin(p)
    if "scale" in p and np.ndim(p["scale"]) > 0:
        c = np.choose(np.clip(rf.astype(int) - 1, 0, 2), list(p["scale"]))
    else:
        c = p.get("scale", 8.0)
    return 1 / (1 + np.exp(-m / c))

OLD = dict(spread=2.5, edge_m=0.5, hidden=0.5, later=0.6, tie=0.5, scale=8.0)

def metrics(p, sel):
    v = np.clip(value(p)[sel], 1e-6, 1 - 1e-6)
    ll = -np.mean(y[sel] * np.log(v) + (1 - y[sel]) * np.log(1 - v))
    br = np.mean((v - y[sel]) ** 2)
    acc = np.mean((v > 0.5) == (y[sel] > 0.5))
    return ll, br, acc

def report(name, p):
    out = [name]
    for r in (2, 3, 4, None):
        sel = test & ((rnd == r) if r else True)
        ll, br, acc = metrics(p, sel)
        out.append(f"r{r or 'all'}: ll {ll:.4f} brier {br:.4f} acc {acc:.3f}")
    print("  " + " | ".join(out))

def fit(keys, start, fixed=None, per_round_scale=False, board=False):
    fixed = dict(fixed or {})
    names = list(keys)
    x0 = [start[k] for k in names]
    if per_round_scale:
        x0 += [8.0, 8.0, 8.0]
    if board:
        x0 += [2.2, 1.6, 1.0]
    def unpack(x):
        p = dict(OLD); p.update(fixed)
        for k, v in zip(names, x):
            p[k] = v
        j = len(names)
        if per_round_scale:
            p["scale"] = tuple(np.abs(x[j:j + 3]) + 1e-3); j += 3
        if board:
            p["board"] = tuple(x[j:j + 3]); j += 3
        p["spread"] = abs(p["spread"]) + 1e-3
        if not per_round_scale:
            p["scale"] = abs(p["scale"]) + 1e-3
        return p
    train = ~test
    def loss(x):
        v = np.clip(value(unpack(x))[train], 1e-9, 1 - 1e-9)
        return -np.mean(y[train] * np.log(v) + (1 - y[train]) * np.log(1 - v))
    res = minimize(loss, np.array(x0, float), method="Nelder-Mead", options=dict(maxiter=20000, maxfev=20000, xatol=1e-4, fatol=1e-7))
    res = minimize(loss, res.x, method="Nelder-Mead", options=dict(maxiter=20000, maxfev=20000, xatol=1e-4, fatol=1e-7))
    return unpack(res.x), res.fun

def show(p):
    return {k: (np.round(v, 3).tolist() if np.ndim(v) else round(float(v), 3)) for k, v in p.items()}

print("base rate seat 0 wins", y.mean().round(3), " states per round", {r: int((rnd == r).sum()) for r in (2, 3, 4)})
report("old (hand-tuned)", OLD)
# the same form, only the overall scale refitted (calibration only)
p, f = fit(["scale"], OLD); print("A scale only", show(p)); report("A", p)
p, f = fit(["spread", "edge_m", "hidden", "later", "tie", "scale"], OLD); print("B all six", show(p)); report("B", p); B = p
p, f = fit(["spread", "edge_m", "hidden", "later", "tie"], OLD, per_round_scale=True); print("C six, scale per round (leaf=1)", show(p)); report("C", p); C = p
p, f = fit(["spread", "edge_m", "hidden", "later", "tie", "hand", "chakra"], dict(OLD, hand=0.0, chakra=0.0), per_round_scale=True); print("E C + hand, chakra (leaf=2)", show(p)); report("E", p); E = p
p, f = fit(["spread", "hidden", "later", "hand", "chakra"], dict(OLD, hand=0.0, chakra=0.0), per_round_scale=True); print("H E with the Edge fixed at old", show(p)); report("H", p)
