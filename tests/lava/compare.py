#!/usr/bin/env python3
"""compare.py [--script VDSOKIT.SH] [--definition NAME] LOG

Checks that what LAVA recorded from contrib/lava/vdsokit.yaml equals what
vdsokit reported in the same run. LOG is lava-run's output: one YAML
object a line, the guest's console lines at level "target" and each
result at level "results". The script's run prints vdsokit's KTAP to the
console, so LOG holds both sides:

- vdsokit's side: the KTAP from its "KTAP version 1" line to its last
  line, the top level's "# Totals:" (each block's Totals must count that
  block's results); every result at every depth, pass, fail, skip or
  unknown (KTAP's ERROR directive: vdsokit's own error, not the kernel's);
- LAVA's side: the results of the test definition (suite NAME, default
  0_vdsokit), which must all carry names LAVA accepts (one word of
  [A-Za-z0-9_.-], at most 100 characters: the dispatcher splits its
  signals on spaces and "=", the server's URLs and names keep to that),
  each name once.

The record must hold exactly the results that vdsokit.sh -k makes of that
KTAP (same names, results and measurements), none lost, none added, none
renamed, plus vdsokit-all; the counts of pass, fail, skip and unknown must be
vdsokit's; the job and the test definition must have ended as passes.

Exit status: 0 when they agree, 1 when they do not (each difference is
named), 2 on a usage error or a LOG that cannot be read.
"""

import collections
import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("compare.py: python3's yaml module is needed (Debian: python3-yaml)")

NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
RESULT_RE = re.compile(r"^( *)(not )?ok [0-9]+")
TOTALS_RE = re.compile(r"^( *)# Totals: pass:([0-9]+) fail:([0-9]+) xfail:[0-9]+ xpass:[0-9]+ skip:([0-9]+)(?: error:([0-9]+))?")
KINDS = ("pass", "fail", "skip", "unknown")
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_log(path):
    """The console's lines and the results, in order."""
    target, results = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if '"lvl": "target"' not in line and '"lvl": "results"' not in line:
                continue
            try:
                obj = yaml.load(line, Loader=LOADER)
            except yaml.YAMLError as exc:
                raise ValueError("line %d is not YAML: %s" % (n, exc))
            if not isinstance(obj, dict):
                continue
            if obj.get("lvl") == "target" and isinstance(obj.get("msg"), str):
                target.append(obj["msg"])
            elif obj.get("lvl") == "results" and isinstance(obj.get("msg"), dict):
                results.append(obj["msg"])
    return target, results


def kind(line):
    """pass, fail, skip or unknown (ERROR) of a KTAP result line, as vdsokit.sh reads it."""
    body = line.lstrip(" ")
    directive = body.split("#", 1)[1].strip().upper() if "#" in body else ""
    if directive.startswith("SKIP"):
        return "skip"
    if directive.startswith("ERROR"):
        return "unknown"
    return "fail" if body.startswith("not ") else "pass"


def extract_ktap(target):
    """vdsokit's KTAP document among the console's lines, or an error."""
    try:
        start = target.index("KTAP version 1")
    except ValueError:
        return None, "vdsokit's KTAP is not in the log (no line 'KTAP version 1')"
    for end in range(start + 1, len(target)):
        if target[end].startswith("# Totals: "):
            return target[start:end + 1], None
    return None, "vdsokit's KTAP in the log has no final '# Totals:' line: cut short"


def ktap_counts(ktap, problems):
    """Every result's kind at every depth; each block's Totals checked."""
    total = collections.Counter()
    block = {}
    for line in ktap:
        depth = len(line) - len(line.lstrip(" "))
        if line.strip() == "KTAP version 1":
            block[depth] = collections.Counter()
            continue
        if RESULT_RE.match(line):
            k = kind(line)
            total[k] += 1
            block.setdefault(depth, collections.Counter())[k] += 1
            continue
        m = TOTALS_RE.match(line)
        if m:
            said = dict(zip(KINDS, (int(g or 0) for g in m.group(2, 3, 4, 5))))
            got = block.get(depth, collections.Counter())
            if any(said[k] != got[k] for k in KINDS):
                problems.append("vdsokit's '%s' but that block has %s" % (line.strip(), fmt(got)))
    return total


def fmt(counts):
    """"pass 10, fail 2, skip 2", and unknown where there is any."""
    return ", ".join("%s %d" % (k, counts[k]) for k in KINDS if k != "unknown" or counts[k])


def expected_results(script, ktap):
    """The result lines vdsokit.sh -k makes of the KTAP: (name, (result, measurement, units))."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "vdsokit.ktap")
        with open(path, "w") as f:
            f.write("\n".join(ktap) + "\n")
        subprocess.run([script, "-k", path, "-o", tmp], check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(tmp, "result.txt")) as f:
            rows = [line.split() for line in f if line.strip()]
    return [(r[0], (r[1], float(r[2]), r[3]) if len(r) > 3 else (r[1], None, None)) for r in rows]


def top_status(ktap):
    """vdsokit-all's result: what vdsokit.sh makes of vdsokit's exit status."""
    top = [line for line in ktap if RESULT_RE.match(line) and not line.startswith(" ")]
    if any(kind(line) == "fail" for line in top):
        return "fail"
    if any(kind(line) == "unknown" for line in top):
        return "unknown"
    if top and all(kind(line) == "skip" for line in top):
        return "skip"
    return "pass"


def compare(log, script, definition):
    problems = []
    target, results = read_log(log)
    ended = {r.get("case"): r for r in results if r.get("definition") == "lava"}
    job = ended.get("job")
    if job is None:
        problems.append("the log has no result for the job: lava-run did not finish")
    elif job.get("result") != "pass":
        problems.append("the job ended %s: %s" % (job.get("result"), job.get("error_msg")))
    run = ended.get(definition)
    if run is None:
        problems.append("the test definition %s never ended (no result for it)" % definition)
    elif run.get("result") != "pass":
        problems.append("the test definition %s ended %s" % (definition, run.get("result")))

    ktap, why = extract_ktap(target)
    if why:
        return problems + [why], None
    counts = ktap_counts(ktap, problems)
    want = expected_results(script, ktap) + [("vdsokit-all", (top_status(ktap), None, None))]
    got = [(r.get("case"), (r.get("result"), r.get("measurement"), r.get("units")))
           for r in results if r.get("definition") == definition]

    names = collections.Counter(name for name, _ in got)
    for name, n in sorted(names.items()):
        if n > 1:
            problems.append("recorded %d times: %s" % (n, name))
        if not isinstance(name, str) or not NAME_RE.match(name):
            problems.append("a name LAVA does not accept: %r" % (name,))
    want_by = dict(want)
    got_by = dict(got)
    for name, _ in want:
        if name not in got_by:
            problems.append("lost: vdsokit's %s %s is not in LAVA's record" % (name, want_by[name][0]))
        elif got_by[name] != want_by[name]:
            problems.append("changed: %s is %s in vdsokit's KTAP, %s in LAVA's record"
                            % (name, show(want_by[name]), show(got_by[name])))
    for name, _ in got:
        if name not in want_by:
            problems.append("not vdsokit's: LAVA recorded %s %s, which its KTAP does not have"
                            % (name, got_by[name][0]))

    recorded = collections.Counter(value[0] for name, value in got if name != "vdsokit-all")
    if any(recorded[k] != counts[k] for k in KINDS) or sum(recorded.values()) != sum(counts.values()):
        problems.append("LAVA recorded %s; vdsokit's KTAP has %s" % (fmt(recorded), fmt(counts)))
    return problems, (counts, len(got))


def show(value):
    res, m, units = value
    return res if m is None else "%s %g %s" % (res, m, units)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "..", "..", "contrib", "lava", "vdsokit.sh")
    definition = "0_vdsokit"
    args = argv[1:]
    while len(args) > 1 and args[0] in ("--script", "--definition"):
        if args[0] == "--script":
            script = args[1]
        else:
            definition = args[1]
        args = args[2:]
    if len(args) != 1 or args[0].startswith("-"):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        problems, seen = compare(args[0], script, definition)
    except (OSError, ValueError, subprocess.CalledProcessError) as exc:
        print("compare.py: %s: %s" % (args[0], exc), file=sys.stderr)
        return 2
    for p in problems[:40]:
        print("not equal: " + p)
    if len(problems) > 40:
        print("not equal: ... and %d more" % (len(problems) - 40))
    if problems:
        return 1
    counts, n = seen
    print("equal: LAVA recorded %d results, vdsokit's %d (%s) and vdsokit-all, each name once"
          % (n, sum(counts.values()), fmt(counts)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
