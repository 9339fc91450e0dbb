#!/usr/bin/env python3
# Validate vdsokit JSON documents against doc/json-schema (draft 2020-12).
#
# Usage: json_schema.py SCHEMA_DIR COMMAND FILE...
#   checks each FILE against SCHEMA_DIR/COMMAND.json, which refers to
#   envelope.json and its fellows by relative $ref; prints every error
#   with its place in the document. Exit status: 0 all valid, 1 not,
#   2 usage (so, with no arguments: jsonschema is there), 3 no jsonschema
#   module (the caller skips).
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(3)


def validator(schema_dir, command):
    schemas = {}
    for path in glob.glob(os.path.join(schema_dir, "*.json")):
        with open(path) as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        schemas[s["$id"]] = s
    root = next(s for s in schemas.values() if s["$id"].endswith("/" + command + ".json"))
    try:  # jsonschema 4.18 on (PyPI's): the referencing registry
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (i, Resource.from_contents(s)) for i, s in schemas.items())
        return jsonschema.Draft202012Validator(root, registry=registry)
    except ImportError:  # before it (Debian bookworm's 4.10): a resolver's store
        resolver = jsonschema.RefResolver.from_schema(root, store=schemas)
        return jsonschema.Draft202012Validator(root, resolver=resolver)


def main():
    if len(sys.argv) < 4:
        print("usage: json_schema.py SCHEMA_DIR COMMAND FILE...", file=sys.stderr)
        return 2
    v = validator(sys.argv[1], sys.argv[2])
    bad = 0
    for path in sys.argv[3:]:
        with open(path) as f:
            doc = json.load(f)
        for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "".join("[%r]" % p for p in e.absolute_path) or "(top)"
            # A failed oneOf repeats the whole value: its start says which.
            msg = e.message if len(e.message) < 300 else e.message[:240] + " ... " + e.message[-60:]
            print("%s: %s: %s" % (path, where, msg))
            bad = 1
    return bad


sys.exit(main())
