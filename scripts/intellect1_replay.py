#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A replay of a published cross-region all-reduce: INTELLECT-1 (Jaghouar et
al., "INTELLECT-1 Technical Report", arXiv:2412.01152, 2024), whose nodes
all-reduced about 10 GB of int8 pseudo-gradients per sync over TCP across the
Internet, with 0.5 to 4 Gbit/s between nodes, and reported median all-reduce
times of about 103 s (nodes in the United States), 382 s (the United States
and Europe) and 469 s (three continents).

Each setting places --nodes islands on data-centre cities of its region(s)
(the report names neither the cities nor the node count of each setting:
the placements below are assumed), joined by a full mesh of core links of
--coreGbps whose one-way latency is the great circle times a route factor of
1.4 at 200 000 km/s, at least 0.5 ms (as WanTopologyGenerator's), and the
Internet's MTU (1500 bytes).  Every node's access runs at each rate of
--rateGbps, so the ring all-reduce over ns-3's TCP (WanCollectiveExperiment,
CUBIC, the ring order from the topology) is bound by it.  Lossless and
deterministic: one run per setting and rate.

Written into the output folder: intellect1-replay-runs.csv and
intellect1-replay.csv (one row per setting and rate: the simulated sync, the
closed form 2(N-1)/N x D / R + 2(N-1) x the slowest step's latency, the
reported median, the per-node rate that median implies, and the random loss
rate at which one CUBIC connection over the ring's slowest step carries just
that rate by RFC 9438's average window), and intellect1-replay.png.

    python3 scripts/intellect1_replay.py
    python3 scripts/intellect1_replay.py --rateGbps 0.5 1 2 4 --scale 1000 --jobs 2
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import run_tasks, write_tables  # noqa: E402  (no ns-3 loaded here)

# The report's median all-reduce per setting, seconds.
REPORTED_S = {"us": 103.0, "us-eu": 382.0, "global": 469.0}
SEGMENT_BYTES = 1448  # the Internet's 1500-byte MTU less IPv4 and TCP headers with timestamps

# Data-centre cities (code, latitude, longitude), in the order a setting takes them.
US = [("IAD", 39.04, -77.49), ("SJC", 37.34, -121.89), ("ORD", 41.88, -87.63),
      ("DFW", 32.78, -96.80), ("SEA", 47.61, -122.33), ("ATL", 33.75, -84.39),
      ("LAX", 34.05, -118.24), ("NYC", 40.71, -74.01), ("DEN", 39.74, -104.99),
      ("PHX", 33.45, -112.07), ("MIA", 25.76, -80.19), ("SLC", 40.76, -111.89),
      ("MCI", 39.10, -94.58), ("PDX", 45.52, -122.68)]
EU = [("FRA", 50.11, 8.68), ("AMS", 52.37, 4.90), ("LON", 51.51, -0.13),
      ("PAR", 48.86, 2.35), ("HEL", 60.17, 24.94), ("WAW", 52.23, 21.01),
      ("MAD", 40.42, -3.70)]
ASIA = [("SIN", 1.35, 103.82), ("TYO", 35.68, 139.69), ("BOM", 19.08, 72.88),
        ("SEL", 37.57, 126.98)]
# Each setting's regions and the share of its nodes in each (the rest in the first).
SETTINGS = {"us": [(US, 1.0)], "us-eu": [(US, 0.5), (EU, 0.5)],
            "global": [(US, 0.4), (EU, 0.35), (ASIA, 0.25)]}


def placement(setting, nodes):
    """The cities of a setting's `nodes` islands: each region's share, in order."""
    regions = SETTINGS[setting]
    counts = [int(round(nodes * share)) for _, share in regions]
    counts[0] = nodes - sum(counts[1:])
    cities = []
    for (region, _), n in zip(regions, counts):
        if n > len(region):
            raise ValueError("%s: %d nodes in a region of %d cities" % (setting, n, len(region)))
        cities += region[:n]
    return cities


def distance_km(a, b):
    """Great-circle distance between two (code, lat, lon) cities."""
    la1, lo1, la2, lo2 = map(math.radians, (a[1], a[2], b[1], b[2]))
    h = (math.sin((la2 - la1) / 2) ** 2
         + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2)
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def one_way(a, b):
    """A core link's one-way latency, s: 1.4 x the great circle at 200 000 km/s."""
    return max(distance_km(a, b) * 1.4 / 200000.0, 0.5e-3)


def topology(setting, nodes, rate_bps, core_bps):
    """A setting's WAN: its cities with access `rate_bps`, a full mesh of core links."""
    from wan_training import ns

    cities = placement(setting, nodes)
    topo = ns.WanTopology()
    for code, lat, lon in cities:
        city = ns.WanCity()
        city.code = code
        city.name = code
        city.region = setting
        city.latitude = lat
        city.longitude = lon
        city.ingressBps = rate_bps
        city.egressBps = rate_bps
        topo.AddCity(city)
    for i, a in enumerate(cities):
        for b in cities[i + 1:]:
            topo.AddLink(a[0], b[0], one_way(a, b), core_bps)
    topo.Validate()
    return topo


def loss_for_rate(rate_bps, rtt):
    """The random loss rate at which one CUBIC connection's average window
    (RFC 9438, WanTcpModel) carries `rate_bps` over `rtt`: bisection on log p."""
    from wan_training import ns

    def rate(p):
        return float(ns.WanTcpModel.Rate(ns.WanTcpModel.CubicWindow(rtt, p), SEGMENT_BYTES, rtt))

    lo, hi = math.log(1e-12), math.log(0.5)  # rate(lo) is the largest
    if rate(math.exp(lo)) < rate_bps:
        return 0.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if rate(math.exp(mid)) >= rate_bps:
            lo = mid
        else:
            hi = mid
    return math.exp(lo)


def run_one(setting, nodes, rate_gbps, payload_gb, scale, core_gbps, buffer_products):
    """One lossless sync of the ring all-reduce over TCP."""
    from wan_training import ns

    rate = rate_gbps * 1e9
    topo = topology(setting, nodes, rate, core_gbps * 1e9)
    order = [int(c) for c in ns.WanRingAllReduceHelper.ChooseOrder(topo, list(range(nodes)))]
    slowest = max(float(topo.GetPathDelay(order[k], order[(k + 1) % nodes]))
                  for k in range(nodes))
    experiment = ns.WanCollectiveExperiment(topo)
    experiment.SetScale(scale)
    experiment.SetPayload(payload_gb * 1e9)
    experiment.SetMtu(1500)
    experiment.SetTimeLimit(3600)
    if buffer_products > 0:
        # Send buffers of that many idle products of the slowest step (the
        # receive buffers follow them), as an autotuned host's grow.
        product = rate / scale / 8 * 2 * slowest
        experiment.SetAttribute("SendBuffer",
                                ns.UintegerValue(int(math.ceil(buffer_products * product))))
    r = experiment.Run(ns.WanCollectiveExperiment.RING)
    d_bits = payload_gb * 8e9
    closed = 2 * (nodes - 1) / nodes * d_bits / rate + 2 * (nodes - 1) * slowest
    reported = REPORTED_S[setting]
    implied = 2 * (nodes - 1) / nodes * d_bits / reported
    return {
        "setting": setting, "nodes": nodes, "rate_gbps": rate_gbps, "payload_gb": payload_gb,
        "scale": scale, "send_buffer_products": buffer_products,
        "ring": "-".join(str(topo.GetCity(c).code) for c in order),
        "slowest_step_ms": slowest * 1e3, "seconds": float(r.seconds) if r.complete else math.inf,
        "closed_form_s": closed, "ratio": (float(r.seconds) / closed) if r.complete else math.inf,
        "reported_s": reported, "implied_gbps": implied / 1e9,
        "loss_for_implied": loss_for_rate(implied, 2 * slowest),
        "exact": bool(r.complete and r.exact), "retransmissions": int(r.retransmissions),
        "events": int(r.events),
    }


def plot(summary, path):
    """The simulated sync against the nodes' rate, the reported medians as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.4))
    for k, setting in enumerate(s for s in SETTINGS if any(r["setting"] == s for r in summary)):
        rows = sorted((r for r in summary if r["setting"] == setting), key=lambda r: r["rate_gbps"])
        colour = "C%d" % k
        ax.plot([r["rate_gbps"] for r in rows], [r["seconds"] for r in rows], "o-", color=colour,
                label="%s: ring over TCP, %d nodes (simulated)" % (setting, rows[0]["nodes"]))
        ax.axhline(REPORTED_S[setting], color=colour, linestyle="--", linewidth=1,
                   label="%s: INTELLECT-1's median (%g s)" % (setting, REPORTED_S[setting]))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("every node's access rate, Gbit/s")
    ax.set_ylabel("all-reduce of 10 GB, s")
    ax.set_title("INTELLECT-1's all-reduce replayed (lossless, one run each)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--settings", nargs="+", choices=list(SETTINGS), default=list(SETTINGS),
                        help="the report's settings (default all three)")
    parser.add_argument("--nodes", type=int, default=14,
                        help="nodes per setting, 2 to 14 (default 14, the report's most)")
    parser.add_argument("--rateGbps", dest="rates", metavar="GBPS", nargs="+", type=float,
                        default=[0.5, 1, 2, 4], help="the nodes' access rates (default 0.5 1 2 4)")
    parser.add_argument("--payloadGB", dest="payload_gb", type=float, default=10,
                        help="D, GB a node all-reduces (default 10)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--coreGbps", dest="core_gbps", type=float, default=100,
                        help="the core links' rate (default 100)")
    parser.add_argument("--sendBufferProducts", dest="buffer_products", type=float, default=4,
                        help="send buffers of this many idle bandwidth-delay products of the "
                             "ring's slowest step (default 4; 0: the helper's, twice each path's)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if not 2 <= args.nodes <= 14:
        parser.error("--nodes must be from 2 to 14")
    if min(args.rates) <= 0 or args.payload_gb <= 0 or args.core_gbps <= 0:
        parser.error("--rateGbps, --payloadGB and --coreGbps must be above 0")
    if args.scale < 1:
        parser.error("--scale must be at least 1")
    for setting in args.settings:
        try:
            placement(setting, args.nodes)
        except ValueError as e:
            parser.error(str(e))
    os.makedirs(args.output, exist_ok=True)

    tasks = [(s, args.nodes, rate, args.payload_gb, args.scale, args.core_gbps,
              args.buffer_products)
             for s in args.settings for rate in args.rates]
    rows = run_tasks(run_one, tasks, args.jobs)
    paths = write_tables(args.output, "intellect1-replay", rows, rows, plot)
    for r in rows:
        print("%-6s %2d nodes at %4g Gbit/s: %8.1f s (closed form %8.1f, %.3f; exact %s, "
              "%d retransmissions); reported %g s: %.3f Gbit/s a node, one CUBIC connection "
              "over the slowest step (%.1f ms) at p = %.2g" % (
                  r["setting"], r["nodes"], r["rate_gbps"], r["seconds"], r["closed_form_s"],
                  r["ratio"], r["exact"], r["retransmissions"], r["reported_s"],
                  r["implied_gbps"], r["slowest_step_ms"], r["loss_for_implied"]))
    print("written: %s" % ", ".join(paths))


if __name__ == "__main__":
    main()
