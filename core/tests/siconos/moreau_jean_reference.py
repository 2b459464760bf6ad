#!/usr/bin/python3
"""Reference trajectories from Siconos 4.4's MoreauJeanOSI for nsh's Moreau–Jean scheme.

Runs a linear Lagrangian model with unilateral contacts (docs/theory.md §1)

    M q'' + C v + K q = F + G lambda,   g = G^T q + w,   Newton restitution e per contact

through Siconos: a LagrangianLinearTIDS with a constant external force, one Interaction per
contact (LagrangianLinearTIR with H = G[:, a]^T, b = w[a], NewtonImpactNSL(e[a])),
MoreauJeanOSI(theta) with Siconos' default index set (g_k + h/2 U_k <= 0, gamma unset), an LCP
one-step problem solved by Lemke, and a TimeStepping simulation. The trajectory is written as
CSV: step,t,q0..,v0..,P0..  (P = the impulse lambda(1) of each contact), one row per step and
row 0 for the initial state, every number with 17 significant digits (round-trips a double).

Usage:
    /usr/bin/python3 moreau_jean_reference.py MODEL [--out FILE] [--theta T] [--h H] [--T T]
MODEL is "bouncing-ball", "two-dof" (built-in models, printed with --show) or a JSON file with
keys M, K, C, F, G (n x m, column a = gradient of gap a), w, e, q0, v0 and optionally h, T,
theta (the subset of nsh's case-file format, numbers as JSON numbers).

Run it with Debian's /usr/bin/python3 (python3-siconos); another interpreter may not see the
package. Exit status 0 on success, 2 on bad usage, 3 if siconos cannot be imported.
"""

import argparse
import json
import sys

BUILTIN = {
    # A unit mass dropped from 1 on the ground q >= 0 under gravity, restitution 0.9.
    "bouncing-ball": {
        "M": [[1.0]], "K": [[0.0]], "C": [[0.0]], "F": [-9.81],
        "G": [[1.0]], "w": [0.0], "e": [0.9],
        "q0": [1.0], "v0": [0.0], "h": 1e-3, "T": 3.0, "theta": 0.5,
    },
    # Two masses coupled by springs, damped, pushed by a constant force, each against a stop:
    # gap 0 = q0 + 0.1 >= 0 (left stop), gap 1 = q1 - q0 + 0.05 >= 0 (the masses collide).
    "two-dof": {
        "M": [[1.0, 0.0], [0.0, 2.0]],
        "K": [[30.0, -10.0], [-10.0, 10.0]],
        "C": [[0.2, -0.1], [-0.1, 0.1]],
        "F": [-1.0, -4.0],
        "G": [[1.0, -1.0], [0.0, 1.0]],
        "w": [0.1, 0.05],
        "e": [0.5, 0.8],
        "q0": [0.0, 0.0], "v0": [-1.0, 0.5], "h": 1e-3, "T": 2.0, "theta": 0.5,
    },
}


def load_model(name):
    if name in BUILTIN:
        return dict(BUILTIN[name])
    with open(name) as f:
        return json.load(f)


def simulate(model, theta, h, T):
    import numpy as np
    import siconos.kernel as sk
    import siconos.numerics as sn

    M = np.array(model["M"], dtype=float)
    n = M.shape[0]
    K = np.array(model.get("K", np.zeros((n, n))), dtype=float)
    C = np.array(model.get("C", np.zeros((n, n))), dtype=float)
    F = np.array(model.get("F", np.zeros(n)), dtype=float)
    G = np.array(model["G"], dtype=float).reshape(n, -1)
    m = G.shape[1]
    w = np.array(model.get("w", np.zeros(m)), dtype=float)
    e = model.get("e", [0.0] * m)
    if not isinstance(e, list):
        e = [float(e)] * m
    q0 = np.array(model["q0"], dtype=float)
    v0 = np.array(model["v0"], dtype=float)

    ds = sk.LagrangianLinearTIDS(q0, v0, M, K, C)
    ds.setFExtPtr(F)
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ds)
    interactions = []
    for a in range(m):
        relation = sk.LagrangianLinearTIR(G[:, a].reshape(1, n), np.array([w[a]]))
        inter = sk.Interaction(sk.NewtonImpactNSL(float(e[a])), relation)
        nsds.link(inter, ds)
        interactions.append(inter)

    osi = sk.MoreauJeanOSI(theta)
    td = sk.TimeDiscretisation(0.0, h)
    lcp = sk.LCP(sn.SICONOS_LCP_LEMKE)
    sim = sk.TimeStepping(nsds, td, osi, lcp)

    rows = [(0, 0.0, list(q0), list(v0), [0.0] * m)]
    k = 0
    while sim.hasNextEvent():
        sim.computeOneStep()
        k += 1
        P = [float(inter.lambda_(1)[0]) for inter in interactions]
        rows.append((k, sim.nextTime(), list(ds.q()), list(ds.velocity()), P))
        sim.nextStep()
    return n, m, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="bouncing-ball, two-dof or a JSON model file")
    parser.add_argument("--out", help="CSV file (default: standard output)")
    parser.add_argument("--theta", type=float)
    parser.add_argument("--h", type=float)
    parser.add_argument("--T", type=float)
    parser.add_argument("--show", action="store_true", help="print the model as JSON and exit")
    args = parser.parse_args()
    try:
        model = load_model(args.model)
    except (OSError, ValueError) as error:
        print(f"moreau_jean_reference.py: model {args.model!r}: {error}", file=sys.stderr)
        return 2
    if args.show:
        print(json.dumps(model, indent=1))
        return 0
    theta = args.theta if args.theta is not None else float(model.get("theta", 0.5))
    h = args.h if args.h is not None else float(model.get("h", 1e-3))
    T = args.T if args.T is not None else float(model.get("T", 1.0))
    try:
        import siconos.kernel  # noqa: F401
    except ImportError as error:
        print(f"moreau_jean_reference.py: cannot import siconos ({error}); install "
              "python3-siconos and run with /usr/bin/python3", file=sys.stderr)
        return 3
    n, m, rows = simulate(model, theta, h, T)
    header = (["step", "t"] + [f"q{i}" for i in range(n)] + [f"v{i}" for i in range(n)]
              + [f"P{a}" for a in range(m)])
    lines = [",".join(header)]
    for k, t, q, v, P in rows:
        lines.append(",".join([str(k), repr(float(t))] + [f"{x:.17g}" for x in q + v + P]))
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
