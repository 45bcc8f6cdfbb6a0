"""Verdicts of python-jsonschema (Draft 2020-12), the reference the C++ engines are compared with.

Reads JSON lines {"schema": FILE, "document": TEXT} on standard input and writes {"valid": BOOL} lines.
Debian does not package rfc3339-validator, so this reference does not assert `format: date-time`.
"""
import json
import sys

from jsonschema import Draft202012Validator

validators = {}
for line in sys.stdin:
    request = json.loads(line)
    path = request["schema"]
    if path not in validators:
        with open(path, encoding="utf-8") as f:
            validators[path] = Draft202012Validator(json.load(f))
    document = json.loads(request["document"])
    print(json.dumps({"valid": validators[path].is_valid(document)}))
