"""Verdicts of Python's datetime.fromisoformat on ATIF timestamps, as NeMo Gym checks them.

Reads JSON strings, one per line, and writes 1 (accepted) or 0 (rejected) per line.
"""
import json
import sys
from datetime import datetime

for line in sys.stdin:
    text = json.loads(line)
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
        print(1)
    except ValueError:
        print(0)
