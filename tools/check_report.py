#!/usr/bin/python3
"""Validates ssdsim JSON reports against docs/report.schema.json (JSON Schema 2020-12).

Usage: tools/check_report.py REPORT.json [REPORT.json ...]
Exit code 0 when every report is valid; 1 with one line per problem (file, key path, what is
wrong) otherwise; 2 when a file cannot be read. Needs Debian's python3-jsonschema.
"""
import json
import pathlib
import sys

import jsonschema

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "docs" / "report.schema.json"


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in paths:
        try:
            report = json.loads(pathlib.Path(path).read_text())
        except (OSError, json.JSONDecodeError) as e:
            print(f"{path}: cannot read a JSON report: {e}", file=sys.stderr)
            return 2
        for error in sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
            print(f"{path}: {where}: {error.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
