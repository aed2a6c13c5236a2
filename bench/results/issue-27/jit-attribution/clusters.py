#!/usr/bin/env python3
"""Per-request JIT instructions grouped into inlining clusters (callee bodies move in and out of callers
between versions, so single functions mislead) and by tier. usage: clusters.py OUTROOT tag..."""
import sys, json, re, collections
root, tags = sys.argv[1], sys.argv[2:]
CL = [('format-jsonapi resourceText+json-text', r'format-jsonapi/dist/(resource-object|json-text)\.js|attributesText'),
      ('format-jsonapi other', r'format-jsonapi/dist/'),
      ('server-koa create-api/stages', r'server-koa/dist/(create-api|stages/|answer-client|request-origin|jsonp|hooks|read-from)'),
      ('server-koa executor', r'server-koa/dist/executor/'),
      ('sql-compiler', r'sql-compiler/dist/'),
      ('other packages/*', r'/packages/'),
      ('floor-server.mjs', r'floor-server\.mjs|floor/lib/'),
      ('pg-protocol parser/reader', r'pg-protocol/dist/(parser|buffer-reader)'),
      ('pg / pg-pool / pg-protocol other', r'/(pg|pg-pool|pg-protocol|pg-types|postgres-[a-z]+)/'),
      ('knex / objection', r'/(knex|objection)/'),
      ('koa + @koa/router + deps', r'koa|on-finished|ee-first|parseurl|statuses|only|delegates|encodeurl|vary|accepts|negotiator|type-is|mime|content-type|fresh|cookies|http-errors|destroy'),
      ('node:http/net/streams/events', r'node:(_http|net|internal/streams|events|internal/stream_base|stream)'),
      ('node: other internals', r' node:'),
      ('RegExp', r'^RegExp'), ('Builtin (in ???)', r'^Builtin'), ('other', r'.')]
out = {}
for t in tags:
    a = json.load(open(f'{root}/{t}/attr.json'))
    c = collections.Counter(); tier = collections.Counter()
    for k, v in a['jit_by_name_per_req'].items():
        for name, rx in CL:
            if re.search(rx, k): c[name] += v; break
        m = re.match(r"JS:([*+^~]?)", k); tier[{'*': 'TurboFan', '+': 'Maglev', '^': 'Sparkplug'}.get(m.group(1), 'JS?') if m else 'non-JS'] += v
    c['(unmapped)'] += a['unmapped_per_req']
    out[t] = dict(clusters=c, tiers=tier, total=a['total_per_req'], unknown=a['unknown_per_req'])
print(f"{'cluster':40}" + ''.join(f"{t:>9}" for t in tags))
for name in [n for n, _ in CL] + ['(unmapped)']:
    print(f"{name:40}" + ''.join(f"{out[t]['clusters'][name]:9.0f}" for t in tags))
print(f"{'= all ??? (JIT) code':40}" + ''.join(f"{out[t]['unknown']:9.0f}" for t in tags))
for tr in ('TurboFan', 'Maglev', 'Sparkplug', 'non-JS'):
    print(f"{'  tier '+tr:40}" + ''.join(f"{out[t]['tiers'][tr]:9.0f}" for t in tags))
print(f"{'main-thread total instr/req':40}" + ''.join(f"{out[t]['total']:9.0f}" for t in tags))
