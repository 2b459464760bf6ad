#!/usr/bin/python3
"""Reference trajectories from Siconos 4.4's MoreauJeanOSI + FrictionContact for nsh's
Moreau–Jean scheme with Coulomb friction (docs/friction.md, docs/theory.md §9.1).

Reads an nsh linear case file with friction (docs/case-files.md: M, C, K, F, G, w, e, G_T with
d = 1, mu, q0, v0, T, h; numbers as JSON numbers or strings such as "9.81" or "1/2", read with
Python's Fraction and then rounded once to a double, as nsh reads them in double) and runs it
through Siconos: a LagrangianLinearTIDS with the constant force, one Interaction per contact
(LagrangianLinearTIR with H = [G[:, a], G_T[:, a]]^T, b = [w[a], 0],
NewtonImpactFrictionNSL(e[a], 0, mu[a], 2)), MoreauJeanOSI(theta) with Siconos' default index
set (g_k + h/2 U_k <= 0), a FrictionContact(2) one-step problem solved by 2-D Lemke (exact
pivoting up to round-off) and a TimeStepping simulation. The trajectory is written as CSV:

    step,t,q0..,v0..,P0..,PT0..

(P, PT = the normal and tangential impulse lambda(1) of each contact), row 0 for the initial
state, every number with 17 significant digits (round-trips a double).

Usage:
    /usr/bin/python3 moreau_jean_friction_reference.py CASE.json [--out FILE] [--theta T]
                     [--h H] [--T T]
Exit status 0 on success, 2 on bad usage or a case outside this subset, 3 if siconos cannot
be imported.
"""

import argparse
import json
import sys
from fractions import Fraction


def number(x):
    return float(Fraction(str(x))) if isinstance(x, str) else float(x)


def matrix(rows):
    return [[number(x) for x in row] for row in rows]


def vector(xs, size=None):
    if not isinstance(xs, list):
        return [number(xs)] * size
    return [number(x) for x in xs]


def load_case(path):
    with open(path) as f:
        case = json.load(f)
    n = len(case["M"])
    zero = [[0.0] * n for _ in range(n)]
    G = matrix(case["G"])
    m = len(G[0]) if G else 0
    G_T = matrix(case.get("G_T", []))
    if m == 0 or not G_T or len(G_T[0]) != m:
        raise ValueError("expected m > 0 contacts and d = 1 tangent direction (G_T n x m)")
    return {
        "M": matrix(case["M"]), "K": matrix(case.get("K", zero)), "C": matrix(case.get("C", zero)),
        "F": vector(case.get("F", [0] * n)), "G": G, "G_T": G_T,
        "w": vector(case.get("w", [0] * m), m), "e": vector(case.get("e", 0), m),
        "mu": vector(case["mu"], m), "q0": vector(case["q0"]), "v0": vector(case["v0"]),
        "T": number(case["T"]), "h": number(case.get("h", "1/100")),
    }


def simulate(model, theta, h, T):
    import numpy as np
    import siconos.kernel as sk
    import siconos.numerics as sn

    M = np.array(model["M"])
    n = M.shape[0]
    G = np.array(model["G"]).reshape(n, -1)
    G_T = np.array(model["G_T"]).reshape(n, -1)
    m = G.shape[1]
    ds = sk.LagrangianLinearTIDS(np.array(model["q0"]), np.array(model["v0"]), M,
                                 np.array(model["K"]), np.array(model["C"]))
    ds.setFExtPtr(np.array(model["F"]))
    nsds = sk.NonSmoothDynamicalSystem(0.0, T)
    nsds.insertDynamicalSystem(ds)
    interactions = []
    for a in range(m):
        H = np.vstack([G[:, a], G_T[:, a]])
        relation = sk.LagrangianLinearTIR(H, np.array([model["w"][a], 0.0]))
        law = sk.NewtonImpactFrictionNSL(model["e"][a], 0.0, model["mu"][a], 2)
        inter = sk.Interaction(law, relation)
        nsds.link(inter, ds)
        interactions.append(inter)

    osi = sk.MoreauJeanOSI(theta)
    td = sk.TimeDiscretisation(0.0, h)
    osnspb = sk.FrictionContact(2, sn.SICONOS_FRICTION_2D_LEMKE)
    osnspb.numericsSolverOptions().dparam[0] = 1e-14
    sim = sk.TimeStepping(nsds, td, osi, osnspb)

    rows = [(0, 0.0, list(ds.q()), list(ds.velocity()), [0.0] * m, [0.0] * m)]
    k = 0
    while sim.hasNextEvent():
        sim.computeOneStep()
        k += 1
        P = [float(inter.lambda_(1)[0]) for inter in interactions]
        PT = [float(inter.lambda_(1)[1]) for inter in interactions]
        rows.append((k, sim.nextTime(), list(ds.q()), list(ds.velocity()), P, PT))
        sim.nextStep()
    return n, m, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", help="an nsh case file with friction (d = 1)")
    parser.add_argument("--out", help="CSV file (default: standard output)")
    parser.add_argument("--theta", type=float, default=1.0)
    parser.add_argument("--h", type=float)
    parser.add_argument("--T", type=float)
    args = parser.parse_args()
    try:
        model = load_case(args.case)
    except (OSError, ValueError, KeyError, ZeroDivisionError) as error:
        print(f"moreau_jean_friction_reference.py: case {args.case!r}: {error}", file=sys.stderr)
        return 2
    h = args.h if args.h is not None else model["h"]
    T = args.T if args.T is not None else model["T"]
    try:
        import siconos.kernel  # noqa: F401
    except ImportError as error:
        print(f"moreau_jean_friction_reference.py: cannot import siconos ({error}); install "
              "python3-siconos and run with /usr/bin/python3", file=sys.stderr)
        return 3
    n, m, rows = simulate(model, args.theta, h, T)
    header = (["step", "t"] + [f"q{i}" for i in range(n)] + [f"v{i}" for i in range(n)]
              + [f"P{a}" for a in range(m)] + [f"PT{a}" for a in range(m)])
    lines = [",".join(header)]
    for k, t, q, v, P, PT in rows:
        lines.append(",".join([str(k), repr(float(t))] + [f"{x:.17g}" for x in q + v + P + PT]))
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
