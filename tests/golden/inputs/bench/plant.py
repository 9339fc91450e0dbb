#!/usr/bin/env python3
# Make the bench files fixed inputs: round figures, a fixed time, and plant
# changes on the new side (scale: {(api, path): factor}, reference factor).
import json, sys
def rnd(x):
    if isinstance(x, float): return round(x, 3)
    if isinstance(x, list): return [rnd(v) for v in x]
    if isinstance(x, dict): return {k: rnd(v) for k, v in x.items()}
    return x
def scale(x, f):
    if isinstance(x, float): return x * f
    if isinstance(x, list): return [scale(v, f) for v in x]
    return x
src, dst, t, release = sys.argv[1:5]
plants = sys.argv[5:]
d = json.load(open(src))
d['time'] = t
d['kernel']['release'] = release
for p in plants:
    what, f = p.split('=')
    f = float(f)
    if what == 'reference':
        ref = d['reference']
        for k in ('ns_per_step', 'processes_ns'):
            ref[k] = scale(ref[k], f)
        continue
    api, path = what.split(':')
    for r in d['results']:
        if r['api'] == api and r['path'] == path:
            for k, v in r.items():
                if k.endswith('_ns'): r[k] = scale(v, f)
json.dump(rnd(d), open(dst, 'w'), indent=2)
open(dst, 'a').write('\n')
