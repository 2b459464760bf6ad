#!/usr/bin/env python3
"""Broken and refusing clients for nsh's protocol tests: python3 client.py MODE.
crash, hang, garbage, dimension, nan: answer the handshake and initialize properly and break
the protocol at step 2. refuse-options, refuse-initialize, refuse-step: keep the protocol and
refuse honestly with {"error": ...} at the handshake, at initialize, or at every step.
claims-without-ledger: claims_as a built-in spec without filling what its claims read.
still: keeps the state at every step (no gap goes down); event-driven: the same, declaring
resolves_every_impact; event-driven-text: declares it as the text "yes", a protocol violation."""
import json
import os
import sys
import time

MODE = sys.argv[1]
contacts = 1
for line in sys.stdin:
    message = json.loads(line)
    if "nsh" in message:
        reply = {"version": 1, "name": "bad-" + MODE, "smooth_order": 1,
                 "precisions": ["double"]}
        if MODE == "claims-without-ledger":
            reply["claims_as"] = "moreau-jean"
            reply["fills"] = ["index_set"]
        if MODE == "event-driven":
            reply["resolves_every_impact"] = True
        if MODE == "event-driven-text":
            reply["resolves_every_impact"] = "yes"
        if MODE == "refuse-options":
            reply = {"error": "theta must be in [0, 1]"}
    elif message["request"] == "initialize":
        reply = {"ok": True}
        contacts = len(message["case"]["w"])
        if MODE == "refuse-initialize":
            reply = {"error": "this client steps one degree of freedom only"}
    else:
        q, v = message["q"], message["v"]
        reply = {"q": q, "v": v, "impulse": ["0"] * contacts}
        if MODE == "refuse-step":
            reply = {"error": "the Newton iteration did not converge"}
        if message["step"] == 2:
            if MODE == "crash":
                os._exit(3)
            if MODE == "hang":
                time.sleep(1000)
            if MODE == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if MODE == "dimension":
                reply["q"] = q + q
            if MODE == "nan":
                reply["v"] = ["nan"] * len(v)

    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
