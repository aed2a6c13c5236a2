#!/bin/bash
# same as runall.sh with a 20,000-request warm-up (tags *L)
cd /tmp/jitattr
( PORT=18190 ./run.sh target 24 t24L 20000 1000 && python3 attr.py out/t24L 1000 > out/t24L.txt; PORT=18190 ./run.sh target 20 t20L 20000 1000 && python3 attr.py out/t20L 1000 > out/t20L.txt ) > out/laneA-L.log 2>&1 &
( PORT=18191 ./run.sh floor 24 f24L 20000 1000 && python3 attr.py out/f24L 1000 > out/f24L.txt; PORT=18191 ./run.sh floor 20 f20L 20000 1000 && python3 attr.py out/f20L 1000 > out/f20L.txt ) > out/laneB-L.log 2>&1 &
wait
