#!/usr/bin/env python3
"""Compare per-request JIT-code instructions by function: target (t20,t24) vs floor (f20,f24).
usage: compare.py OUTROOT [t20 t24 f20 f24]  -> prints tables, writes OUTROOT/compare.json"""
import sys, json, re, os, collections
root = sys.argv[1]
tags = sys.argv[2:6] if len(sys.argv) > 5 else ['t20', 't24', 'f20', 'f24']
def norm(name):
    tier = ''
    m = re.match(r"(JS|Script|Eval|Function|LazyCompile):([*+^~]?)'?(.*)$", name)
    if m:
        tier = m.group(2) or '?'
        rest = m.group(3)
        # function name, then location
        sp = rest.rsplit(' ', 1)
        fn, loc = (sp[0], sp[1]) if len(sp) == 2 else ('', sp[0])
        loc = re.sub(r'^file://', '', loc)
        loc = re.sub(r'.*/node_modules/(\.pnpm/[^/]+/node_modules/)?', '', loc)
        loc = re.sub(r'^/tmp/jitattr/(repo|floor)/', '', loc)
        if loc.startswith('node:') and fn: loc = re.sub(r':\d+:\d+$', '', loc)
        return f"{fn or '(anon)'} {loc}", tier
    m = re.match(r'(RegExp)[.:>]*\s*(?:src: )?(.*?)(?: flags: .*)?$', name)
    if m: return 'RegExp ' + m.group(2).strip("'"), 'R'
    return name, 'B'
def cat(key):
    if 'packages/' in key: return 'target-code'
    if 'floor-server' in key: return 'floor-code'
    if key.startswith('RegExp'): return 'regexp'
    if ' node:' in key: return 'node-internal'
    if key.startswith(('Builtin:', 'Stub:', 'BytecodeHandler', 'Handler', 'LoadIC', 'StoreIC', 'KeyedLoadIC', 'KeyedStoreIC')): return 'stub/builtin/IC'
    if '/' in key: return 'npm-lib'
    return 'other'
data, tiers = {}, collections.defaultdict(dict)
summary = {}
for t in tags:
    a = json.load(open(os.path.join(root, t, 'attr.json')))
    summary[t] = {k: round(a[k]) for k in ('total_per_req', 'unknown_per_req', 'unmapped_per_req')}
    d = collections.Counter()
    for name, v in a['jit_by_name_per_req'].items():
        k, tier = norm(name); d[k] += v
        tiers[k][t] = tiers[k].get(t, '') + ('' if tier in tiers[k].get(t, '') else tier)
    d['(unmapped ???)'] += a['unmapped_per_req']
    data[t] = d
t20, t24, f20, f24 = (data[t] for t in tags)
keys = set().union(*data.values())
rows = []
for k in keys:
    dt = t24[k] - t20[k]; df = f24[k] - f20[k]
    # for floor-only/target-only code the other side is 0
    rows.append(dict(key=k, cat=cat(k), t20=t20[k], t24=t24[k], f20=f20[k], f24=f24[k], dt=dt, df=df, excess=dt - df,
                     tiers={t: tiers[k].get(t, '') for t in tags}))
rows.sort(key=lambda r: -abs(r['excess']))
print('summary per request:', json.dumps(summary))
print('\nby category (JIT instr/request):')
cats = collections.defaultdict(lambda: collections.Counter())
for r in rows:
    for t in ('t20', 't24', 'f20', 'f24'): cats[r['cat']][t] += r[t]
print(f"{'category':18} {'t20':>8} {'t24':>8} {'dT':>8} {'f20':>8} {'f24':>8} {'dF':>8} {'dT-dF':>8}")
for c, v in sorted(cats.items(), key=lambda x: -abs((x[1]['t24'] - x[1]['t20']) - (x[1]['f24'] - x[1]['f20']))):
    dt = v['t24'] - v['t20']; df = v['f24'] - v['f20']
    print(f"{c:18} {v['t20']:8.0f} {v['t24']:8.0f} {dt:+8.0f} {v['f20']:8.0f} {v['f24']:8.0f} {df:+8.0f} {dt-df:+8.0f}")
tot = {t: sum(data[t].values()) for t in tags}
print(f"{'ALL ???':18} {tot[tags[0]]:8.0f} {tot[tags[1]]:8.0f} {tot[tags[1]]-tot[tags[0]]:+8.0f} {tot[tags[2]]:8.0f} {tot[tags[3]]:8.0f} {tot[tags[3]]-tot[tags[2]]:+8.0f} {(tot[tags[1]]-tot[tags[0]])-(tot[tags[3]]-tot[tags[2]]):+8.0f}")
n = int(os.environ.get('TOP', 40))
print(f"\ntop {n} by (target change - floor change), instr/request; tiers: *=TurboFan +=Maglev ^=Sparkplug ~=interp R=regexp B=builtin/stub")
print(f"{'t20':>7} {'t24':>7} {'dT':>7} | {'f20':>7} {'f24':>7} {'dF':>7} | {'dT-dF':>7}  tiers(t20/t24/f20/f24)  function")
for r in rows[:n]:
    tr = '/'.join(r['tiers'][t] or '-' for t in tags)
    print(f"{r['t20']:7.0f} {r['t24']:7.0f} {r['dt']:+7.0f} | {r['f20']:7.0f} {r['f24']:7.0f} {r['df']:+7.0f} | {r['excess']:+7.0f}  {tr:22} {r['key'][:110]}")
json.dump(dict(summary=summary, categories={c: dict(v) for c, v in cats.items()}, rows=rows[:300]), open(os.path.join(root, 'compare.json'), 'w'), indent=1)
