#!/bin/sh
# A run of 1,000,000 Iconica matches split over 4 machines reached by ssh, with GNU parallel
# (each machine has deckwright and this checkout; `--return` brings each tally back):
#   seq 4 | parallel -S host1,host2,host3,host4 --return 'shard-{}.tally.json' --cleanup \
#     'cd deckwright && PARALLEL_SEQ={} sh examples/scale/sweep-parallel.sh'
#   deckwright merge shard-*.tally.json
# The shard's index comes from PARALLEL_SEQ (from 1).
set -eu
deckwright sim iconica examples/iconica/legal-legion-raiders.party.toml examples/iconica/legal-protectorate-wardens.party.toml --games 1000000 --seed 1 --shard auto/4 --out shard-$PARALLEL_SEQ.tally.json
