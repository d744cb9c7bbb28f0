#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One round on the map: the cities, every core link, each clique's multicast
trees (or unicast paths) and the planned load of every core link direction.

Writes topology-<schedule>-round-<K>.csv (one row per core link direction:
streams n_e, load in Gbps, capacity, utilisation) and the same-named .png into
the output folder, and prints a one-line summary.  Cities sit at their
longitude and latitude, or on a circle when the topology gives none.

    python3 scripts/plot_topology.py
    python3 scripts/plot_topology.py --schedule all-to-all --hbmGB 32 --no-multicast
    python3 scripts/plot_topology.py --topology my.json --scheduleFile s.json --round 2
"""

import argparse
import math
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import write_csv  # noqa: E402  (no ns-3 loaded here)


def text(value):
    """A C++ string member as Python text (ns-3.37's cppyy gives bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def code(topo, city):
    """A city's code."""
    return text(topo.GetCity(city).code)


def model_error(error):
    """The one-line message of a std::invalid_argument thrown by the model."""
    found = re.findall(r"invalid_argument: (.*)", str(error))
    return found[-1] if found else str(error).strip().splitlines()[-1]


def check_ranges(args, fail):
    """The capability options against the module's input ranges
    (wantext::bounds, as the C++ programs check them)."""
    import cppyy
    from wan_training import ns

    cppyy.include("ns3/wan-training-text.h")
    bounds = ns.wantext.bounds
    for option, value, allowed in (("--hbmGB", args.hbm_gb, bounds.kHbmGB),
                                   ("--accessGbps", args.access_gbps, bounds.kRateGbps),
                                   ("--coreGbps", args.core_gbps, bounds.kRateGbps)):
        try:
            if value is not None:
                allowed.Check(value, option)
        except Exception as error:
            fail(model_error(error))


def load_plan(args, fail):
    """(planner's topology, schedule, round plan) from the options;
    fail(message) on bad input."""
    from wan_training import ns

    try:
        topo = ns.WanTopology.LoadFile(args.topology) if args.topology else \
            ns.WanTopology.NineCity()
    except Exception as error:  # the model's one-line std::invalid_argument
        fail("--topology: " + model_error(error))
    check_ranges(args, fail)
    config = ns.PlannerConfig()
    config.hbmBytes = args.hbm_gb * 1e9
    config.multicast = args.multicast
    config.aggregation = args.aggregation
    if args.access_gbps is not None:
        config.accessBps = args.access_gbps * 1e9
    if args.core_gbps is not None:
        config.coreCapacityBps = args.core_gbps * 1e9
    try:
        planner = ns.RoundPlanner(topo, config)
    except Exception as error:
        fail(model_error(error))
    topo = planner.GetTopology()
    try:
        schedule = ns.CliqueSchedule.LoadFile(args.schedule_file, topo) if args.schedule_file \
            else ns.CliqueScheduleBuiltins.Make(args.schedule, topo)
    except Exception as error:
        fail(("--scheduleFile: " if args.schedule_file else "--schedule: ") + model_error(error))
    rounds = int(schedule.GetNRounds())
    if not 1 <= args.round <= rounds:
        fail("--round %d is out of range: schedule %s has rounds 1 to %d"
             % (args.round, text(schedule.GetName()), rounds))
    return topo, schedule, planner.PlanRound(schedule.GetRound(args.round - 1))


def stream_hops(topo, members, multicast):
    """Per sender of a clique, the directed hops its stream takes: its
    multicast tree (WanTopology::GetMulticastTree), or without multicast the
    shortest path to each other member (one copy each), as the planner counts."""
    out = []
    for sender in members:
        if multicast:
            hops = [(int(h.first), int(h.second))
                    for h in topo.GetMulticastTree(sender, members)]
        else:
            hops = []
            for receiver in members:
                if receiver != sender:
                    path = [int(v) for v in topo.GetPath(sender, receiver)]
                    hops += list(zip(path, path[1:]))
        out.append((sender, hops))
    return out


def round_cliques(topo, plan, multicast):
    """The round's cliques of two or more: members, rate, and each sender's hops."""
    cliques = []
    for c in plan.cliques:
        members = [int(v) for v in c.members]
        if len(members) >= 2:
            cliques.append({"members": members, "rate_bps": float(c.rateBps),
                            "binding": text(c.rateBinding),
                            "streams": stream_hops(topo, members, multicast)})
    return cliques


def direction_loads(topo, plan, cliques):
    """One row per direction of every core link: the planner's streams n_e,
    the cliques on it, its load (each stream at its clique's rate) and
    utilisation.  The trees drawn must give the planner's n_e."""
    planned = {(int(getattr(l, "from")), int(l.to)): int(l.streams) for l in plan.links}
    counted, load, users = {}, {}, {}
    for number, clique in enumerate(cliques, 1):
        for _, hops in clique["streams"]:
            for hop in hops:
                counted[hop] = counted.get(hop, 0) + 1
                load[hop] = load.get(hop, 0.0) + clique["rate_bps"]
                users.setdefault(hop, set()).add(number)
    if counted != planned:
        wrong = sorted(set(counted.items()) ^ set(planned.items()))[0][0]
        raise RuntimeError("the trees drawn put %d streams on %s->%s, the planner %d" % (
            counted.get(wrong, 0), code(topo, wrong[0]), code(topo, wrong[1]),
            planned.get(wrong, 0)))
    rows = []
    for link in topo.GetLinks():
        for hop in ((int(link.a), int(link.b)), (int(link.b), int(link.a))):
            capacity = float(link.capacityBps)
            rows.append({
                "from": code(topo, hop[0]),
                "to": code(topo, hop[1]),
                "streams": planned.get(hop, 0),
                "cliques": ";".join(str(n) for n in sorted(users.get(hop, ()))),
                "load_gbps": load.get(hop, 0.0) / 1e9,
                "capacity_gbps": capacity / 1e9,
                "utilisation_percent": 100 * load.get(hop, 0.0) / capacity,
            })
    return rows


def city_positions(topo):
    """([(x, y)] per city, geographic): longitude and latitude when any city
    has them, else evenly on a unit circle in index order."""
    cities = list(topo.GetCities())
    if any(float(c.latitude) != 0 or float(c.longitude) != 0 for c in cities):
        return [(float(c.longitude), float(c.latitude)) for c in cities], True
    n = len(cities)
    return [(math.cos(math.pi / 2 - 2 * math.pi * i / n),
             math.sin(math.pi / 2 - 2 * math.pi * i / n)) for i in range(n)], False


def segment(positions, geographic, a, b):
    """The straight line from city a to city b; on a map, the other end moved
    by 360 degrees when the short way crosses the date line."""
    (xa, ya), (xb, yb) = positions[a], positions[b]
    if geographic and abs(xb - xa) > 180:
        xb += -360 if xb > xa else 360
    return (xa, ya), (xb, yb)


def copies(geographic, p, q):
    """The shifts (0, and a turn of the globe where a line leaves the map)
    at which a line from p to q is drawn."""
    shifts = [0]
    if geographic and max(p[0], q[0]) > 180:
        shifts.append(-360)
    if geographic and min(p[0], q[0]) < -180:
        shifts.append(360)
    return shifts


def draw_lanes(ax, positions, geographic, a, b, lanes):
    """Direction a->b beside the core link, on the right of travel: one lane
    per (colour, share of the capacity), 1 point plus 10 points per 100% wide,
    side by side, with an arrowhead half way."""
    from matplotlib.transforms import offset_copy

    p, q = segment(positions, geographic, a, b)
    (px, py), (qx, qy) = ax.transData.transform([p, q])
    length = math.hypot(qx - px, qy - py) or 1
    normal = ((qy - py) / length, -(qx - px) / length)
    edge = 1.0
    for colour, share in lanes:
        width = 1 + 10 * share
        centre, edge = edge + width / 2, edge + width + 0.5
        moved = offset_copy(ax.transData, fig=ax.figure, units="points",
                            x=centre * normal[0], y=centre * normal[1])
        for shift in copies(geographic, p, q):
            xs, ys = (p[0] + shift, q[0] + shift), (p[1], q[1])
            ax.plot(xs, ys, color=colour, linewidth=width, solid_capstyle="butt",
                    transform=moved, zorder=2)
            ax.annotate("", xy=(xs[0] + 0.56 * (xs[1] - xs[0]), ys[0] + 0.56 * (ys[1] - ys[0])),
                        xytext=(xs[0] + 0.5 * (xs[1] - xs[0]), ys[0] + 0.5 * (ys[1] - ys[0])),
                        xycoords=moved, textcoords=moved, annotation_clip=True, zorder=2,
                        arrowprops={"arrowstyle": "-|>", "color": "0.15", "linewidth": 0,
                                    "mutation_scale": 6 + width})


def frame(ax, positions, geographic, title):
    """Limits and labels of the map (before the lanes, which are placed in
    points on it)."""
    xs, ys = zip(*positions)
    if geographic:
        ax.set_xlim(-180, 180)
        ax.set_ylim(max(-90, min(ys) - 15), min(90, max(ys) + 15))
        ax.set_xlabel("longitude (degrees)")
        ax.set_ylabel("latitude (degrees)")
        ax.grid(alpha=0.2)
    else:
        ax.set_xlim(-1.3, 1.3)
        ax.set_ylim(-1.3, 1.3)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
    ax.set_title(title, fontsize=10)


def dense_cluster(topo, positions, geographic):
    """On a map, the largest group (two or more) of cities joined by core
    links shorter than 10 degrees, drawn again enlarged; else None."""
    if not geographic:
        return None
    group = list(range(topo.GetNCities()))

    def root(i):
        while group[i] != i:
            i = group[i]
        return i

    for link in topo.GetLinks():
        p, q = segment(positions, geographic, int(link.a), int(link.b))
        if math.hypot(q[0] - p[0], q[1] - p[1]) < 10:
            group[root(int(link.a))] = root(int(link.b))
    members = {}
    for i in range(topo.GetNCities()):
        members.setdefault(root(i), []).append(i)
    largest = max(members.values(), key=len)
    return largest if len(largest) >= 2 else None


def draw_network(ax, topo, positions, geographic, cliques, rows, colour):
    """Core links (grey), each loaded direction's lanes, and the cities
    (coloured by their clique)."""
    for link in topo.GetLinks():
        p, q = segment(positions, geographic, int(link.a), int(link.b))
        for shift in copies(geographic, p, q):
            ax.plot([p[0] + shift, q[0] + shift], [p[1], q[1]], color="0.75", linewidth=1,
                    zorder=1)
    index = {text(topo.GetCity(i).code): i for i in range(topo.GetNCities())}
    for row in rows:
        if row["streams"] > 0:
            a, b = index[row["from"]], index[row["to"]]
            capacity = row["capacity_gbps"] * 1e9
            draw_lanes(ax, positions, geographic, a, b, [
                (colour[n - 1], cliques[n - 1]["rate_bps"] / capacity * sum(
                    hop == (a, b) for _, hops in cliques[n - 1]["streams"] for hop in hops))
                for n in (int(n) for n in row["cliques"].split(";"))])
    member_of = {v: k for k, c in enumerate(cliques) for v in c["members"]}
    for i, (x, y) in enumerate(positions):
        ax.scatter([x], [y], s=60, color=colour[member_of[i]] if i in member_of else "0.5",
                   edgecolors="black", zorder=3)
        ax.annotate(code(topo, i), (x, y), textcoords="offset points", xytext=(0, 7),
                    ha="center", fontsize=9, fontweight="bold", zorder=4, annotation_clip=True)


def draw_table(table, rows, cliques, colour):
    """The loaded directions as text: streams, Gbps, utilisation (in the
    colour of the clique on it, black when several share it)."""
    table.set_axis_off()
    table.text(0, 1, "planned load per direction\n(streams, Gbps, % of capacity, cliques)",
               fontsize=9, va="top", transform=table.transAxes)
    loaded = [r for r in rows if r["streams"] > 0]
    step = min(0.04, max(0.3, 0.86 - 0.07 * len(cliques)) / max(len(loaded), 1))
    for k, row in enumerate(loaded):
        numbers = row["cliques"].split(";")
        table.text(0, 0.9 - k * step, "%s>%s %d, %g Gbps, %.0f%%, %s" % (
            row["from"], row["to"], row["streams"], row["load_gbps"],
            row["utilisation_percent"], ",".join(numbers)), fontsize=min(8, 200 * step), va="top",
            color=colour[int(numbers[0]) - 1] if len(numbers) == 1 else "black",
            family="monospace", transform=table.transAxes)


def plot(topo, cliques, rows, title, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    positions, geographic = city_positions(topo)
    colour = [plt.get_cmap("tab10").colors[k % 10] for k in range(len(cliques))]
    fig, (ax, table) = plt.subplots(1, 2, figsize=(13, 6.5),
                                    gridspec_kw={"width_ratios": [3.2, 1]})
    frame(ax, positions, geographic, title)
    draw_table(table, rows, cliques, colour)
    fig.tight_layout()
    draw_network(ax, topo, positions, geographic, cliques, rows, colour)
    cluster = dense_cluster(topo, positions, geographic)
    if cluster:
        # Cities close together, enlarged in the lower middle of the map.
        xs, ys = zip(*(positions[i] for i in cluster))
        half = max(max(xs) - min(xs), 2 * (max(ys) - min(ys)), 6) / 2 + 2
        middle = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        inset = ax.inset_axes([0.4, 0.03, 0.24, 0.4])
        inset.set_xlim(middle[0] - half, middle[0] + half)
        inset.set_ylim(middle[1] - half / 2, middle[1] + half / 2)
        inset.set_xticks([])
        inset.set_yticks([])
        draw_network(inset, topo, positions, geographic, cliques, rows, colour)
        ax.indicate_inset_zoom(inset, edgecolor="0.4")
    if cliques:
        # Below the table: each clique's colour, stream rate and what sets it.
        table.legend(handles=[Line2D([], [], color=colour[k], linewidth=3, label=textwrap.fill(
            "%d {%s}: %g Gbps per stream (%s)" % (
                k + 1, ",".join(code(topo, v) for v in c["members"]), c["rate_bps"] / 1e9,
                c["binding"]), 44)) for k, c in enumerate(cliques)],
            fontsize=7, loc="lower left", borderaxespad=0)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topology", metavar="FILE", default="",
                        help="topology file (.json, or a folder with cities.csv and "
                             "core-links.csv; default: the nine-city topology)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--schedule", default="triangles",
                        help="a built-in schedule (default triangles)")
    chosen.add_argument("--scheduleFile", dest="schedule_file", metavar="FILE",
                        help="a schedule file (JSON)")
    parser.add_argument("--round", metavar="K", type=int, default=1,
                        help="the round of the schedule's period, from 1 (default 1)")
    parser.add_argument("--hbmGB", dest="hbm_gb", metavar="GB", type=float, default=0,
                        help="FPGA memory per receiver, GB (default 0)")
    parser.add_argument("--accessGbps", dest="access_gbps", metavar="GBPS", type=float,
                        help="access rate of every island (default: the topology's)")
    parser.add_argument("--coreGbps", dest="core_gbps", metavar="GBPS", type=float,
                        help="capacity of every core link (default: the topology's)")
    parser.add_argument("--multicast", action=argparse.BooleanOptionalAction, default=True,
                        help="replicate inside the network (default); --no-multicast: "
                             "unicast copies from each sender")
    parser.add_argument("--aggregation", action=argparse.BooleanOptionalAction, default=True,
                        help="sum inbound streams on the edge FPGA (default)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)

    topo, schedule, plan = load_plan(args, parser.error)
    cliques = round_cliques(topo, plan, args.multicast)
    rows = direction_loads(topo, plan, cliques)

    name = text(schedule.GetName())
    stem = "topology-%s-round-%d" % (re.sub(r"[^A-Za-z0-9._-]+", "_", name), args.round)
    os.makedirs(args.output, exist_ok=True)
    csv_path = os.path.join(args.output, stem + ".csv")
    png_path = os.path.join(args.output, stem + ".png")
    write_csv(csv_path, rows)
    timing = ("T %.2f ms" % (float(plan.roundTime) * 1e3) if plan.feasible
              else "infeasible: %s" % text(plan.reason))
    title = "%s\n%s, FPGA memory %g GB" % (
        textwrap.fill("%s, round %d of %d: %s" % (name, args.round, schedule.GetNRounds(),
                                                  timing), 120),
        "multicast trees" if args.multicast else "unicast copies", args.hbm_gb)
    plot(topo, cliques, rows, title, png_path)

    busiest = max(rows, key=lambda r: (r["utilisation_percent"], r["streams"]))
    loaded = [r for r in rows if r["streams"] > 0]
    print("%s round %d/%d: %d clique%s, %d stream-hops on %d of %d core link directions, "
          "busiest %s->%s %g Gbps (%.0f%% of %g Gbps, n_e = %d), %s; written: %s, %s" % (
              name, args.round, schedule.GetNRounds(), len(cliques), "s"[:len(cliques) != 1],
              sum(r["streams"] for r in rows), len(loaded), len(rows), busiest["from"],
              busiest["to"], busiest["load_gbps"], busiest["utilisation_percent"],
              busiest["capacity_gbps"], busiest["streams"], timing, csv_path, png_path))
    return rows


if __name__ == "__main__":
    main()
