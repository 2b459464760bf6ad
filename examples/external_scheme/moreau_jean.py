#!/usr/bin/env python3
"""Reference client of nsh's step protocol (docs/external-protocol.md): the Moreau-Jean
theta-scheme with Newton restitution on the index set {alpha : g_k + h/2 U_k <= 0 and U_k <= 0}
(position-velocity activation) and an exact LCP on it by enumeration of the index subsets.
double (numpy) and rational (fractions.Fraction). Frictionless models only.

    nsh check --external 'python3 examples/external_scheme/moreau_jean.py'

--wrong-restitution: the deliberately wrong variant (U_{k+1} = +e U_k on the index set)
that the gate must reject.
"""
import itertools
import json
import sys
from fractions import Fraction

WRONG = "--wrong-restitution" in sys.argv[1:]


def number(text, exact):
    return Fraction(text) if exact else float(Fraction(text)) if "/" in text else float(text)


def text(x):
    return str(x) if isinstance(x, Fraction) else repr(float(x))


def matrix(rows, exact):
    return [[number(x, exact) for x in row] for row in rows]


def vector(xs, exact):
    return [number(x, exact) for x in xs]


def matvec(A, x):
    return [sum(a * b for a, b in zip(row, x)) for row in A]


def transpose(A, cols):
    return [[A[i][j] for i in range(len(A))] for j in range(cols)]


def solve(A, b):
    """Gaussian elimination with partial pivoting (exact in Fraction)."""
    n = len(b)
    M = [list(A[i]) + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        if M[p][c] == 0:
            raise ValueError("singular matrix")
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


class MoreauJean:
    def __init__(self, theta, exact, velocity_rule):
        self.theta, self.exact, self.velocity_rule = theta, exact, velocity_rule

    def initialize(self, case, h):
        ex = self.exact
        self.M = matrix(case["M"], ex)
        n = len(self.M)
        zero = [[0] * n for _ in range(n)]
        self.C = matrix(case.get("C", zero), ex)
        self.K = matrix(case.get("K", zero), ex)
        self.F = vector(case.get("F", [0] * n), ex)
        if case.get("F_amplitude") and any(number(x, ex) != 0 for x in case["F_amplitude"]):
            raise ValueError("harmonic forces are not supported by this client")
        G = matrix(case.get("G", []), ex) if case.get("G") else [[] for _ in range(n)]
        self.m = len(G[0]) if G and G[0] else 0
        self.Gt = transpose(G, self.m)  # rows: gradients of the gaps
        self.w = vector(case.get("w", [0] * self.m), ex)
        e = case.get("e", 0)
        self.e = [number(x, ex) for x in e] if isinstance(e, list) else [number(e, ex)] * self.m
        self.h = number(h, ex)
        t, h = self.theta, self.h
        # W = M + h theta C + h^2 theta^2 K
        self.W = [[self.M[i][j] + h * t * self.C[i][j] + h * h * t * t * self.K[i][j]
                   for j in range(n)] for i in range(n)]
        self.n = n

    def step(self, q, v):
        n, m, h, t = self.n, self.m, self.h, self.theta
        Kq, Cv, Kv = matvec(self.K, q), matvec(self.C, v), matvec(self.K, v)
        # M (v_free - v) = h (F - C v - K q - h theta K v)   (F constant)
        rhs = [h * (self.F[i] - Cv[i] - Kq[i] - h * t * Kv[i]) for i in range(n)]
        dv = solve(self.W, rhs)
        v_free = [v[i] + dv[i] for i in range(n)]
        U = [sum(g[i] * v[i] for i in range(n)) for g in self.Gt]
        gap = [sum(g[i] * q[i] for i in range(n)) + self.w[a] for a, g in enumerate(self.Gt)]
        index = [a for a in range(m) if gap[a] + h / 2 * U[a] <= 0 and (U[a] <= 0 or not self.velocity_rule)]
        P = [0] * m
        if index:
            WinvG = {a: solve(self.W, self.Gt[a]) for a in index}
            D = [[sum(self.Gt[a][i] * WinvG[b][i] for i in range(n)) for b in index] for a in index]
            sign = -1 if WRONG else 1
            b = [sum(self.Gt[a][i] * v_free[i] for i in range(n)) + sign * self.e[a] * U[a]
                 for a in index]
            z = lcp(D, b)
            for k, a in enumerate(index):
                P[a] = z[k]
        v_next = list(v_free)
        for a in range(m):
            if P[a] != 0:
                col = solve(self.W, self.Gt[a])
                v_next = [v_next[i] + col[i] * P[a] for i in range(n)]
        q_next = [q[i] + h * ((1 - t) * v[i] + t * v_next[i]) for i in range(n)]
        vt = [(1 - t) * v[i] + t * v_next[i] for i in range(n)]
        Ut = [sum(g[i] * vt[i] for i in range(n)) for g in self.Gt]
        W_ext = h * sum(vt[i] * self.F[i] for i in range(n))
        Cvt = matvec(self.C, vt)
        W_damp = -h * sum(vt[i] * Cvt[i] for i in range(n))
        W_contact = sum(Ut[a] * P[a] for a in range(m))
        dvv = [v_next[i] - v[i] for i in range(n)]
        dq = [q_next[i] - q[i] for i in range(n)]
        Mdv, Kdq = matvec(self.M, dvv), matvec(self.K, dq)
        D_num = (t - Fraction(1, 2) if self.exact else t - 0.5) * (
            sum(a * b for a, b in zip(dvv, Mdv)) + sum(a * b for a, b in zip(dq, Kdq)))
        return {
            "q": [text(x) for x in q_next], "v": [text(x) for x in v_next],
            "impulse": [text(x) for x in P], "index_set": index,
            "velocity_newton": [text(x) for x in U],
            "external_impulse": [text(h * f) for f in self.F],
            "W_ext": text(W_ext), "W_damp": text(W_damp), "W_contact": text(W_contact),
            "numerical_dissipation": text(D_num),
        }


def lcp(D, b):
    """0 <= z _|_ D z + b >= 0 by enumeration of the active sets (small index sets)."""
    k = len(b)
    if k > 12:
        raise ValueError("index set too large for enumeration")
    tol = 0 if isinstance(b[0], Fraction) else 1e-12 * (1 + max(abs(x) for x in b))
    for size in range(k + 1):
        for active in itertools.combinations(range(k), size):
            z = [0] * k
            if active:
                sub = solve([[D[i][j] for j in active] for i in active], [-b[i] for i in active])
                for i, val in zip(active, sub):
                    z[i] = val
            w = [sum(D[i][j] * z[j] for j in range(k)) + b[i] for i in range(k)]
            if all(x >= -tol for x in z) and all(x >= -tol for x in w):
                return [max(x, 0) for x in z]
    raise ValueError("the LCP has no solution")


def main():
    scheme = None
    for line in sys.stdin:
        message = json.loads(line)
        try:
            if "nsh" in message:
                options = message.get("options", {})
                theta = Fraction(options.get("theta", "1/2"))
                if not 0 <= theta <= 1:
                    raise ValueError("theta must be in [0, 1]")
                activation = options.get("activation", "position-velocity")
                if activation not in ("position", "position-velocity"):
                    raise ValueError("activation must be position or position-velocity")
                exact = message["precision"] == "rational"
                scheme = MoreauJean(theta if exact else float(theta), exact,
                                    activation == "position-velocity")
                name = "moreau_jean.py" + (" --wrong-restitution" if WRONG else "")
                reply = {
                    "version": 1, "name": name, "family": "moreau-jean",
                    "smooth_order": 2 if theta == Fraction(1, 2) else 1,
                    "precisions": ["double", "rational"],
                    "options": [{"key": "theta", "default": "1/2",
                                 "description": "a number in [0, 1]"},
                                {"key": "activation", "default": "position-velocity",
                                 "description": "index set rule",
                                 "choices": ["position", "position-velocity"]}],
                    "fills": ["index_set", "velocity_newton", "external_impulse", "W_ext",
                              "W_damp", "W_contact", "numerical_dissipation"],
                    "claims_as": "moreau-jean:activation=" + activation + ",theta=" + str(theta),
                    "parameters": {"theta": str(theta)},
                }
            elif message["request"] == "initialize":
                scheme.initialize(message["case"], message["h"])
                reply = {"ok": True}
            elif message["request"] == "step":
                ex = scheme.exact
                reply = scheme.step(vector(message["q"], ex), vector(message["v"], ex))
            else:
                reply = {"error": "unknown request"}
        except (ValueError, ZeroDivisionError) as error:
            reply = {"error": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
