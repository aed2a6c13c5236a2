#!/usr/bin/env python3
"""Attribute callgrind self cost (Ir) of the main thread to JS functions via the V8 perf map.
usage: attr.py OUTDIR N  -> writes OUTDIR/attr.json
 - unknown-object ('???') instruction addresses are mapped to /tmp/perf-<pid>.map entries (copied as OUTDIR/perf.map;
   for overlapping entries, the one written last wins: --no-compact-code-space keeps code from moving, but freed
   code space can be reused)
 - known objects are summed per (object, function)."""
import sys, os, re, json, glob, bisect, collections
outdir, N = sys.argv[1], int(sys.argv[2])
files = sorted(f for f in glob.glob(os.path.join(outdir, 'callgrind.out.*-01')) if re.search(r'\.\d+-01$', f))
assert files, 'no main-thread dump'
fname = files[-1]
ob_names, fn_names = {}, {}
def comp(table, s):
    m = re.match(r'\((\d+)\)(?: (.*))?$', s)
    if not m: return s
    if m.group(2) is not None: table[m.group(1)] = m.group(2)
    return table[m.group(1)]
unknown = collections.Counter()   # addr -> Ir
known = collections.Counter()     # (ob, fn) -> Ir
ob = fn = None
skip_next = False
last = [0, 0]
total = 0
def pos(tok, i):
    if tok == '*': return last[i]
    if tok[0] in '+-': v = last[i] + int(tok, 16 if i == 0 else 10) if i else last[i] + int(tok, 16)
    elif i == 0: v = int(tok, 16)
    else: v = int(tok)
    last[i] = v
    return v
with open(fname) as fh:
    for line in fh:
        c = line[0]
        if c.isdigit() or c in '+-*':
            parts = line.split()
            a = pos(parts[0], 0); pos(parts[1], 1)
            if skip_next:
                skip_next = False; continue
            ir = int(parts[2]) if len(parts) > 2 else 0
            total += ir
            if ob == '???': unknown[a] += ir
            else: known[(ob, fn)] += ir
        elif line.startswith('ob='): ob = comp(ob_names, line[3:].strip())
        elif line.startswith('fn='): fn = comp(fn_names, line[3:].strip())
        elif line.startswith('calls='): skip_next = True
        elif line.startswith(('cob=', 'cfn=', 'cfi=', 'cfl=')):
            k = line[:3]
            if line.startswith('cob='): comp(ob_names, line[4:].strip())
            elif line.startswith('cfn='): comp(fn_names, line[4:].strip())
# perf map: painted per 4 KiB page bucket
entries = []
with open(os.path.join(outdir, 'perf.map')) as fh:
    for idx, line in enumerate(fh):
        p = line.rstrip('\n').split(' ', 2)
        if len(p) < 3: continue
        s, z = int(p[0], 16), int(p[1], 16)
        entries.append((s, s + z, idx, p[2]))
pages = collections.defaultdict(list)
for e in entries:
    for pg in range(e[0] >> 12, ((e[1] - 1) >> 12) + 1): pages[pg].append(e)
def lookup(a):
    best = None
    for e in pages.get(a >> 12, ()):
        if e[0] <= a < e[1] and (best is None or e[2] > best[2]): best = e
    return best
jit = collections.Counter(); unmapped = collections.Counter()
for a, ir in unknown.items():
    e = lookup(a)
    if e: jit[e[3]] += ir
    else: unmapped[hex(a >> 12 << 12)] += ir
res = {
    'file': fname, 'requests': N, 'total_per_req': total / N,
    'unknown_per_req': sum(unknown.values()) / N,
    'unmapped_per_req': sum(unmapped.values()) / N,
    'jit_by_name_per_req': {k: v / N for k, v in jit.most_common()},
    'unmapped_pages_per_req': {k: v / N for k, v in unmapped.most_common(20)},
    'known_by_fn_per_req': {f'{o} :: {f}': v / N for (o, f), v in known.most_common(400)},
}
json.dump(res, open(os.path.join(outdir, 'attr.json'), 'w'), indent=1)
print(f"{fname}: total/req {total/N:.0f}  ???/req {res['unknown_per_req']:.0f}  unmapped/req {res['unmapped_per_req']:.0f}")
for k, v in list(res['jit_by_name_per_req'].items())[:25]: print(f"{v:10.0f}  {k}")
