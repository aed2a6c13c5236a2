#!/bin/bash
# two lanes in parallel: target (20 then 24) on port 18190, floor (20 then 24) on 18191
cd /tmp/jitattr
( PORT=18190 ./run.sh target 20 t20 3000 1000 && python3 attr.py out/t20 1000 > out/t20.txt; PORT=18190 ./run.sh target 24 t24 3000 1000 && python3 attr.py out/t24 1000 > out/t24.txt ) > out/laneA.log 2>&1 &
( PORT=18191 ./run.sh floor 20 f20 3000 1000 && python3 attr.py out/f20 1000 > out/f20.txt; PORT=18191 ./run.sh floor 24 f24 3000 1000 && python3 attr.py out/f24 1000 > out/f24.txt ) > out/laneB.log 2>&1 &
wait
