#!/usr/bin/env python3
"""Broken clients for nsh's protocol-error tests: python3 client.py MODE, MODE one of
crash, hang, garbage, dimension, nan. Each answers the handshake and initialize properly and
breaks the protocol at step 2."""
import json
import os
import sys
import time

MODE = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    if "nsh" in message:
        reply = {"version": 1, "name": "bad-" + MODE, "smooth_order": 1,
                 "precisions": ["double"]}
    elif message["request"] == "initialize":
        reply = {"ok": True}
    else:
        q, v = message["q"], message["v"]
        reply = {"q": q, "v": v, "impulse": ["0"] * 1}
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
