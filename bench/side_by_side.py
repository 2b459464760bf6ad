#!/usr/bin/python3
"""Side by side: `nsh simulate` and Siconos 4.4's MoreauJeanOSI on the impacting bar.

The bar of docs/benchmarks.md and issue 17 (L = E = rho = A = 1, N linear elements, lumped mass,
node 0 against a rigid wall at gap 0, every node moving at -1 towards it, e = 0), stepped by
Moreau-Jean with theta = 1/2 and Siconos' position index set (nsh:
`moreau-jean:theta=1/2,activation=position`, which reproduces MoreauJeanOSI to 1e-14). The
script writes both inputs from the same triplets: a sparse case file for nsh (JSON) and the
dense matrices for Siconos (.npz, read by this script's --siconos-worker mode, which builds a
LagrangianLinearTIDS with one LagrangianLinearTIR contact, as core/tests/siconos/
moreau_jean_reference.py does). Then it prints, in Markdown:

1. per-step CPU of both at N = 10, 100, 10^3, 2*10^3 (Siconos) and up to 10^6 (nsh), their
   ratio, and E(T)/E(0) of both on the same run (h = 1e-3, the Siconos step count);
2. `nsh simulate` at N = 10^3 with full output (CSV, HDF5) against the stepping alone;
3. Real50 / double per step;
4. every second-order scheme's step on the sparse bar at N = 10^3, 10^4, 10^5;
5. `nsh check --jobs` scaling: the wall time of one gate run at 1, 2, ... cores (up to nproc),
   and whether its standard output is the same as at --jobs 1.

Per-step CPU: Siconos times its stepping loop inside the worker (time.process_time, the first
step excluded: it assembles and factorizes the iteration matrix). nsh is timed as users run it,
a whole process (user + sys CPU of the child), at two step counts S1 < S2; the per-step figure
is the difference over S2 - S1, which cancels loading the case file and the factorization.
nsh's stepping alone is `--every 10^12 --columns none --out /dev/null` (rows 0 and the last).
nsh runs h = 1.5 / S2 (all steps inside the contact phase, which lasts until t = 2); the cost of
a step does not depend on h.

Usage:  /usr/bin/python3 bench/side_by_side.py [--nsh build/bench/cli/nsh] [--quick]
        [--max-n 1000000] [--work DIR]
Takes about 8 minutes on a 2-core machine, half of it the `nsh check --jobs` table (--quick:
about a minute, N <= 10^3). Needs
python3-siconos and python3-numpy (scripts/install-deps); without Siconos the nsh columns are
still printed.
"""

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEME = "moreau-jean:theta=1/2,activation=position"
H_SAME_RUN = 1e-3


# ----------------------------------------------------------------------------------------------
# The bar, once, as triplets.

def bar(N):
    """Lumped-mass bar of N elements: (n, M diagonal as (numerator, denominator) of 1/N units,
    K triplets with integer values). h_e = 1/N: M_ii = h_e (interior), h_e/2 (ends); K = N tridiag."""
    n = N + 1
    mass = [(1, 2 * N) if i in (0, N) else (1, N) for i in range(n)]
    stiffness = []
    for i in range(n):
        diagonal = N if i in (0, N) else 2 * N
        stiffness.append((i, i, diagonal))
        if i + 1 < n:
            stiffness.append((i, i + 1, -N))
            stiffness.append((i + 1, i, -N))
    return n, mass, stiffness


def write_nsh_case(path, N):
    n, mass, stiffness = bar(N)
    with open(path, "w") as f:
        f.write('{"name": "bench-bar-%d", "sparse": true,\n' % N)
        f.write('"description": "impacting bar, %d lumped elements, written by '
                'bench/side_by_side.py",\n' % N)
        f.write('"M": {"rows": %d, "cols": %d, "entries": [' % (n, n))
        f.write(",".join('[%d,%d,"%d/%d"]' % (i, i, p, q) for i, (p, q) in enumerate(mass)))
        f.write(']},\n"K": {"rows": %d, "cols": %d, "entries": [' % (n, n))
        f.write(",".join("[%d,%d,%d]" % t for t in stiffness))
        f.write(']},\n"G": {"rows": %d, "cols": 1, "entries": [[0, 0, 1]]},\n' % n)
        f.write('"w": [0], "e": 0,\n')
        f.write('"q0": [%s],\n' % ",".join(["0"] * n))
        f.write('"v0": [%s],\n' % ",".join(["-1"] * n))
        f.write('"T": 1}\n')


def write_siconos_input(path, N):
    import numpy as np
    n, mass, stiffness = bar(N)
    M = np.zeros((n, n))
    K = np.zeros((n, n))
    for i, (p, q) in enumerate(mass):
        M[i, i] = p / q
    for i, j, value in stiffness:
        K[i, j] += value
    np.savez(path, M=M, K=K, q0=np.zeros(n), v0=-np.ones(n))


# ----------------------------------------------------------------------------------------------
# Siconos, in a child process.

def siconos_worker(npz, h, steps):
    import numpy as np
    import siconos.kernel as sk
    import siconos.numerics as sn
    data = np.load(npz)
    M, K, q0, v0 = data["M"], data["K"], data["q0"], data["v0"]
    n = M.shape[0]
    ds = sk.LagrangianLinearTIDS(q0, v0, M, K, np.zeros((n, n)))
    nsds = sk.NonSmoothDynamicalSystem(0.0, h * steps)
    nsds.insertDynamicalSystem(ds)
    G = np.zeros((1, n))
    G[0, 0] = 1.0
    relation = sk.LagrangianLinearTIR(G, np.array([0.0]))
    nsds.link(sk.Interaction(sk.NewtonImpactNSL(0.0), relation), ds)
    simulation = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, h), sk.MoreauJeanOSI(0.5),
                                 sk.LCP(sn.SICONOS_LCP_LEMKE))
    energy = lambda q, v: 0.5 * v @ M @ v + 0.5 * q @ K @ q
    E0 = energy(q0, v0)
    taken = 0
    start = None
    while simulation.hasNextEvent() and taken < steps:
        simulation.computeOneStep()
        simulation.nextStep()
        taken += 1
        if taken == 1:
            start = time.process_time()
    stepping = time.process_time() - start
    q, v = np.array(ds.q()), np.array(ds.velocity())
    print(json.dumps({"steps": taken, "per_step": stepping / max(taken - 1, 1),
                      "E_ratio": energy(q, v) / E0}))


def run_siconos(npz, h, steps):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--siconos-worker", npz,
                          repr(h), str(steps)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("siconos worker failed: " + out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def have_siconos():
    try:
        import siconos.kernel  # noqa: F401
        import numpy  # noqa: F401
        return True
    except ImportError:
        return False


# ----------------------------------------------------------------------------------------------
# nsh, a whole process.

def child_cpu(command):
    """user + sys CPU seconds of one child process (and the completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The 10^6-dof bar's case file is about 100 MB, above nsh's default 64 MiB input limit
    # (docs/limits.md): this run means to read it.
    env = dict(os.environ, NSH_MAX_INPUT_BYTES=str(1 << 30))
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise RuntimeError(" ".join(command) + " failed: " + out.stderr[-2000:])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def nsh_run(nsh, case, h, steps, extra, out="/dev/null", scheme=SCHEME):
    """nsh simulate of `steps` steps of size h; out=None: the CSV on standard output."""
    command = [nsh, "simulate", case, "--scheme", scheme, "--h", repr(h), "--T",
               repr(h * steps)] + (["--out", out] if out else []) + extra
    return child_cpu(command)


def nsh_per_step(nsh, case, s1, s2, extra, out="/dev/null", repeat=3, scheme=SCHEME):
    """Median over `repeat` pairs of (cpu(S2) - cpu(S1)) / (S2 - S1), at h = 1.5 / S2."""
    h = 1.5 / s2
    figures = []
    for _ in range(repeat):
        c1, _ = nsh_run(nsh, case, h, s1, extra, out, scheme)
        c2, _ = nsh_run(nsh, case, h, s2, extra, out, scheme)
        figures.append(max(c2 - c1, 0.0) / (s2 - s1))
    figures.sort()
    return figures[len(figures) // 2]


STEPPING_ALONE = ["--every", "1000000000000", "--columns", "none"]


def nsh_energy_ratio(nsh, case, steps):
    """E(T)/E(0) of nsh on the same run as Siconos (h = 1e-3), from the CSV's E column."""
    _, out = nsh_run(nsh, case, H_SAME_RUN, steps, ["--columns", "E", "--every", str(steps)],
                     out=None)
    rows = [line.split(",") for line in out.stdout.strip().splitlines()[1:]]
    return float(rows[-1][2]) / float(rows[0][2])


def fmt_time(seconds):
    if seconds is None:
        return ""
    if seconds < 1e-3:
        return "%.3g µs" % (seconds * 1e6)
    if seconds < 1:
        return "%.3g ms" % (seconds * 1e3)
    return "%.3g s" % seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nsh", default=os.path.join(ROOT, "build", "bench", "cli", "nsh"))
    parser.add_argument("--quick", action="store_true", help="N <= 10^3, fewer repetitions")
    parser.add_argument("--max-n", type=int, default=10**6)
    parser.add_argument("--work", help="directory for the generated inputs (default: a temp dir)")
    parser.add_argument("--siconos-worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.siconos_worker:
        siconos_worker(args.siconos_worker[0], float(args.siconos_worker[1]),
                       int(args.siconos_worker[2]))
        return 0
    if not os.access(args.nsh, os.X_OK):
        print("side_by_side.py: no nsh at %s (cmake --preset bench && cmake --build build/bench "
              "--target nsh, or give --nsh)" % args.nsh, file=sys.stderr)
        return 2
    work = args.work or tempfile.mkdtemp(prefix="nsh_side_by_side_")
    os.makedirs(work, exist_ok=True)
    siconos = have_siconos()
    repeat = 1 if args.quick else 3
    max_n = min(args.max_n, 1000) if args.quick else args.max_n
    started = time.time()

    # N: (nsh S1, S2), Siconos steps (0: not run).
    plan = [(10, (2000, 200000), 600), (100, (2000, 100000), 600), (1000, (200, 20000), 100),
            (2000, (100, 10000), 30), (10**4, (20, 2000), 0), (10**5, (2, 200), 0),
            (10**6, (1, 41), 0)]
    plan = [p for p in plan if p[0] <= max_n]

    print("## Side by side: nsh simulate vs Siconos 4.4 MoreauJeanOSI (bench/side_by_side.py)\n")
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print("%s, %s, nproc = %d, CPU %s, load average %s; nsh %s\n" % (
        datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), platform.node() or "?",
        os.cpu_count(), cpu, " ".join("%.1f" % x for x in os.getloadavg()), args.nsh))
    print("Impacting bar, lumped mass, theta = 1/2, position index set, e = 0. Per-step CPU "
          "(nsh: stepping alone, `--every 10^12 --columns none`; median of %d). E(T)/E(0) on "
          "the same run, h = 1e-3, the Siconos step count.\n" % repeat)
    print("| N | dofs | nsh / step | Siconos / step | Siconos / nsh | nsh E(T)/E(0) | "
          "Siconos E(T)/E(0) |")
    print("|---|---|---|---|---|---|---|")
    nsh_at = {}
    for N, (s1, s2), siconos_steps in plan:
        case = os.path.join(work, "bar-%d.json" % N)
        write_nsh_case(case, N)
        # N = 10^6 loads a 100 MB case file (about 12 s, 1.5 GB) per run: one pair only.
        per_step = nsh_per_step(args.nsh, case, s1, s2, STEPPING_ALONE,
                                repeat=1 if N >= 10**6 else repeat)
        nsh_at[N] = (case, per_step)
        if N >= 10**5:
            os.remove(case)
        row = ["%d" % N, "%d" % (N + 1), fmt_time(per_step), "", "", "", ""]
        if siconos and siconos_steps:
            npz = os.path.join(work, "bar-%d.npz" % N)
            write_siconos_input(npz, N)
            result = run_siconos(npz, H_SAME_RUN, siconos_steps)
            row[3] = fmt_time(result["per_step"])
            row[4] = "%.0f×" % (result["per_step"] / per_step) if per_step > 0 else ""
            row[5] = "%.8f" % nsh_energy_ratio(args.nsh, case, siconos_steps)
            row[6] = "%.8f" % result["E_ratio"]
        print("| " + " | ".join(row) + " |")
        sys.stdout.flush()

    if 1000 in nsh_at:
        case, alone = nsh_at[1000]
        print("\n`nsh simulate` of the bar at N = 10^3 (1001 dofs) with output, per step "
              "(S1, S2 = 200, 5000 steps; a full row has 2008 numbers, 40 kB of CSV):\n")
        print("| output | per step | / stepping alone |")
        print("|---|---|---|")
        print("| stepping alone (`--every 10^12 --columns none`) | %s | 1.00 |" % fmt_time(alone))
        h5 = os.path.join(work, "bar-1000.h5")
        for label, extra, out in [
                ("full CSV to /dev/null", [], "/dev/null"),
                ("full CSV to a file", [], os.path.join(work, "bar-1000.csv")),
                ("full HDF5 (`--out bar.h5`)", [], h5),
                ("CSV `--every 100`", ["--every", "100"], "/dev/null"),
                ("CSV `--columns q0:9,E,W`", ["--columns", "q0:9,E,W"], "/dev/null")]:
            try:
                per_step = nsh_per_step(args.nsh, case, 200, 5000, extra, out=out, repeat=repeat)
                print("| %s | %s | %.2f |" % (label, fmt_time(per_step), per_step / alone))
            except RuntimeError as error:
                print("| %s | failed: %s | |" % (label, str(error).splitlines()[-1][:80]))
            sys.stdout.flush()
        for path in (h5, os.path.join(work, "bar-1000.csv")):
            if os.path.exists(path):
                os.remove(path)

    print("\nReal50 (`--precision 50`) / double, stepping alone:\n")
    print("| N | double / step | Real50 / step | Real50 / double |")
    print("|---|---|---|---|")
    for N, (s1, s2) in [(100, (20, 2000)), (1000, (10, 210))]:
        if N not in nsh_at:
            continue
        case, double = nsh_at[N]
        real50 = nsh_per_step(args.nsh, case, s1, s2, STEPPING_ALONE + ["--precision", "50"],
                              repeat=1)
        print("| %d | %s | %s | %.0f |" % (N, fmt_time(double), fmt_time(real50),
                                            real50 / double))

    # Every second-order scheme with a sparse path steps the bar's sparse model itself (the
    # Newmark family too, since 2026-12-07: no dense copy, so no 4096-dof limit).
    schemes = [SCHEME, "newmark", "hht", "gen-alpha", "krenk-hogsberg"]
    print("\nEvery second-order scheme on the sparse bar, stepping alone (per step, median of "
          "%d):\n" % repeat)
    print("| N | " + " | ".join("`%s`" % name for name in schemes) + " |")
    print("|---|" + "---|" * len(schemes))
    for N, (s1, s2) in [(1000, (200, 20000)), (10**4, (20, 2000)), (10**5, (2, 200))]:
        if N > max_n:
            continue
        case = os.path.join(work, "bar-%d.json" % N)
        if not os.path.exists(case):
            write_nsh_case(case, N)
        row = ["%d" % N]
        for name in schemes:
            row.append(fmt_time(nsh_per_step(args.nsh, case, s1, s2, STEPPING_ALONE,
                                             repeat=repeat, scheme=name)))
        print("| " + " | ".join(row) + " |")
        sys.stdout.flush()
        if N >= 10**5:
            os.remove(case)

    # The gate on every core: wall time, since that is what --jobs buys (the CPU stays the same).
    # At 60 cases the run is 8 s and one pair's few seconds bound it (no speed-up at all); at
    # 200, 214 s at --jobs 1 (docs/benchmarks.md). --quick shows the output's identity only.
    cases = 20 if args.quick else 200
    command = [args.nsh, "check", "--scheme", "all", "--cases", str(cases), "--seed", "5",
               "--quiet"]
    print("\n`nsh check --scheme all --cases %d --seed 5 --quiet --jobs J` (wall time):\n" % cases)
    print("| J | wall | speed-up | standard output |")
    print("|---|---|---|---|")
    first = None
    for jobs in range(1, (os.cpu_count() or 1) + 1):
        begin = time.monotonic()
        out = subprocess.run(command + ["--jobs", str(jobs)], capture_output=True, text=True)
        wall = time.monotonic() - begin
        if out.returncode not in (0, 1):
            print("| %d | failed: %s | | |" % (jobs, out.stderr.strip().splitlines()[-1][:80]))
            break
        if first is None:
            first = (wall, out.stdout)
        same = "the same as J = 1" if out.stdout == first[1] else "**differs from J = 1**"
        print("| %d | %.1f s | %.2f | %s |" % (jobs, wall, first[0] / wall, same))
        sys.stdout.flush()
    print("\n(whole script: %.0f s wall)" % (time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
