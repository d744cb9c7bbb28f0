#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only

# A list of C++ examples to run in order to ensure that they remain
# buildable and runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# See test.py for more information.
cpp_examples = [
    ("wan-first-round", "True", "True"),
    ("wan-first-round --schedule=all-to-all --hbmGB=32", "True", "False"),
    ("nine-city-cliques", "True", "True"),
    ("nine-city-cliques --schedule=pairs,all-to-all --hbmGB=0,8,32 --multicast=false --packetLevel=false", "True", "False"),
    ("nine-city-cliques --packetSchedule=all-to-all:32 --scale=1000 --hbmGB=32", "True", "False"),
    ("wan-training-plan --schedule=all-to-all --hbmGB=32 --json", "True", "False"),
    ("wan-udp-baseline --scale=1000", "True", "False"),
    ("wan-udp-baseline --scale=1000 --multicast", "True", "False"),
    ("wan-training-optimise --evaluations=2000 --sweepDimension=hbm_gb --sweepValues=0,32", "True", "False"),
    ("wan-training-optimise --synthetic=6 --regions=2 --maxPeriod=2 --coreGbps=50", "True", "False"),
    ("wan-impairments --schedule=triangles --lossRate=0.01 --jitterMs=1 --rounds=1", "True", "False"),
    ("wan-impairments --schedule=all-to-all --lossRate=0.01 --jitterMs=none --recovery=accept,early --rounds=1 --quiet", "True", "False"),
    ("wan-impairments --schedule=triangles --lossRate=none --jitterMs=1 --jitterModel=correlated,independent --rounds=1 --quiet", "True", "False"),
    ("wan-training-plan --schedule=triangles --hbmGB=0.01 --jitterAllowanceMs=1", "True", "False"),
    ("wan-training-plan --schedule=triangles --multicast=false --lineRateWindowUs=5.8", "True", "False"),
    ("wan-impairments --schedule=triangles --lossRate=none --jitterMs=none --crossTraffic=0.3 --coreReserve=0.3 --rounds=1 --quiet", "True", "False"),
    ("nine-city-cliques --packetLevel=true --baselines=false --lossRate=0.01 --lossLinks=core,access,post --recovery=rerequest --scale=1000 --rounds=1", "True", "False"),
    ("nine-city-cliques --packetLevel=true --baselines=false --packetSchedule=pairs --scale=1000 --lossRate=0.01 --roundGuard=0.05 --training=logistic --trainingPolicy=quorum --trainingRounds=30", "True", "False"),
    ("nine-city-cliques --packetLevel=true --baselines=false --scale=1000 --rounds=3 --recovery=early --faultDetection=bfd --linkFaults=NYC-LON@0.9-2 --fpgaFaults=TYO@1.5", "True", "False"),
    ("nine-city-cliques --packetLevel=true --baselines=false --scale=1000 --rounds=3 --recovery=early --treeBuilding=pim --faultDetection=bfd --linkFaults=NYC-LON@0.9-2", "True", "False"),
    ("wan-impairments --schedule=triangles --lossRate=0.001 --jitterMs=none --recovery=coded,coded+early --rounds=1 --quiet", "True", "False"),
]

# A list of Python examples to run in order to ensure that they remain
# runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run).
#
# See test.py for more information.
python_examples = []
