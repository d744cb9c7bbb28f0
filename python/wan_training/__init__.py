# SPDX-License-Identifier: GPL-2.0-only
"""Python access to the wan-training ns-3 module through ns-3's cppyy bindings.

    from wan_training import ns
    topo = ns.WanTopology.NineCity()
    helper = ns.CliqueScheduleHelper()
    evaluation = helper.Evaluate(helper.Builtin("triangles"))
    print(evaluation.roundTimeMs, evaluation.disagreement, evaluation.objective)

The first use of ``ns`` loads ns-3's cppyy bindings and this module's library
and headers into them (the one place that knows how):

- in a Python with PyPI's ``ns3`` package (the virtual environment that
  ``scripts/setup-pypi.sh`` prepares), that package's ns-3 modules this module
  builds on, and the module built against it in the setup's cache folder (or
  in ``NS3_DIR``);
- otherwise ns-3's own bindings (``from ns import ns``) of the ns-3 tree that
  ``scripts/setup.sh`` prepared (or the one ``NS3_DIR`` names), and the module
  where that tree's loader does not load contributed modules (ns-3.37).

Both give ``ns.X`` for ns-3's and this module's ``ns3::X``.
The helpers ``run_tasks``, ``write_csv``, ``mean_ci`` and
``parse_schedule_memory`` do not load ns-3, so a script's parent process stays
light while its workers simulate.
"""

import concurrent.futures
import csv
import glob
import importlib.util
import json
import math
import multiprocessing
import os
import subprocess
import sys
import sysconfig

__all__ = [
    "ns",
    "ns3_dir",
    "builtin_schedules",
    "model_facts",
    "experiment_rows",
    "evaluation_dict",
    "packet_run",
    "read_packet_output",
    "write_packet_output",
    "run_tasks",
    "write_csv",
    "mean_ci",
    "parse_schedule_memory",
]


def installed_ns3():
    """The folder of PyPI's ns3 package in this Python (with lib64/ and
    include/), or None."""
    spec = importlib.util.find_spec("ns3")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if os.path.isdir(os.path.join(folder, "lib64")):
            return folder
    return None


def ns3_dir():
    """The folder whose ./ns3 builds and runs this module's programs: $NS3_DIR;
    else, with PyPI's ns3 package, the module's build against it in the setup's
    cache folder; else the newest ns-3.* tree there."""
    if os.environ.get("NS3_DIR"):
        return os.path.abspath(os.environ["NS3_DIR"])
    cache = os.environ.get("WAN_TRAINING_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "wan-training"
    )
    if installed_ns3():
        return os.path.join(cache, "pypi-build")
    trees = sorted(glob.glob(os.path.join(cache, "ns-3.*")))
    if not trees:
        raise ImportError(
            "wan_training: no ns-3 tree found in %s (run scripts/setup.sh, or set NS3_DIR)" % cache
        )
    return trees[-1]


def _runtime_library_dirs():
    """Directories of the C++ runtime and of Python's own library.

    ns-3.37's loader looks for the libraries its modules link against on
    LD_LIBRARY_PATH; cppyy has loaded the C++ runtime by then, so its
    directory is read from this process's memory map.
    """
    import cppyy  # noqa: F401  (loads the C++ runtime)

    dirs = [sysconfig.get_config_var("LIBDIR")]
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if "libstdc++" in path and path.startswith("/"):
                dirs.append(os.path.dirname(path))
                break
    return [d for d in dirs if d]


# The ns-3 modules this module's library links against (CMakeLists.txt).
_NS3_MODULES = ("core", "network", "internet", "point-to-point")


def _load_with_installed_ns3():
    """PyPI's ns3 package (ns-3.42 and later), and this module built against
    it (cmake/standalone.cmake: lib/, include/ and ns3-include/ in the build
    folder).

    ns-3's own loader (``from ns import ns``) parses the headers of all the
    package's 45 modules, 10 s in every process, and looks for ns-3 libraries
    under the working folder; this loads the modules this one builds on (3 s),
    with the loader's cppyy set-up (Ptr<> as a smart pointer).  After ``from
    ns import ns``, its bindings are used instead.
    """
    import cppyy

    build = ns3_dir()
    library = glob.glob(os.path.join(build, "lib", "libns3*-wan-training.so"))
    if not library:
        raise ImportError(
            "wan_training: the module is not built in %s (run scripts/setup-pypi.sh)" % build
        )
    if "ns" not in sys.modules:
        import libcppyy

        libcppyy.AddSmartPtrType("Ptr")
        cppyy.add_include_path(os.path.join(build, "ns3-include"))
        for module in _NS3_MODULES:
            cppyy.include("ns3/%s-module.h" % module)
            cppyy.load_library(
                glob.glob(os.path.join(installed_ns3(), "lib64", "libns3*-%s.so" % module))[0]
            )
    if not hasattr(cppyy.gbl.ns3, "WanTopology"):
        cppyy.add_include_path(os.path.join(build, "include"))
        cppyy.include("ns3/wan-training-module.h")
        cppyy.load_library(library[0])
    return cppyy.gbl.ns3


def _mpi_include_dirs():
    """The MPI headers' folders, as Open MPI's mpicc gives them: ns-3-dev's
    bindings include mpi-module.h when ns-3 is built with MPI, whose mpi.h
    they do not find on their own (ns-3.37's load no MPI header)."""
    try:
        done = subprocess.run(["mpicc", "--showme:incdirs"], capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    return [d for d in done.stdout.split() if os.path.isdir(d)] if done.returncode == 0 else []


def _load():
    if installed_ns3():
        return _load_with_installed_ns3()
    tree = ns3_dir()
    bindings = os.path.join(tree, "build", "bindings", "python")
    if not os.path.isdir(bindings):
        raise ImportError(
            "wan_training: %s has no Python bindings (configure ns-3 with "
            "--enable-python-bindings; scripts/setup.sh does)" % tree
        )
    if bindings not in sys.path:
        sys.path.insert(0, bindings)
    paths = os.environ.get("LD_LIBRARY_PATH", "").split(":")
    os.environ["LD_LIBRARY_PATH"] = ":".join(
        [p for p in _runtime_library_dirs() if p not in paths] + [p for p in paths if p]
    )
    import cppyy

    for folder in _mpi_include_dirs():
        cppyy.add_include_path(folder)
    from ns import ns as bindings_ns

    if not hasattr(bindings_ns, "WanTopology"):
        libraries = glob.glob(os.path.join(tree, "build", "lib", "libns3*-wan-training-*.so"))
        libraries = [lib for lib in libraries if "-test-" not in lib]
        if not libraries:
            raise ImportError("wan_training: the module's library is not built in %s" % tree)
        cppyy.include("ns3/wan-training-module.h")
        cppyy.load_library(libraries[0])
    return bindings_ns


_ns = None


def __getattr__(name):
    # "from wan_training import ns" loads ns-3 on first use only.
    global _ns
    if name == "ns":
        if _ns is None:
            _ns = _load()
        return _ns
    raise AttributeError("module 'wan_training' has no attribute %r" % name)


def run_tasks(function, tasks, jobs):
    """function(*task) for every task, in order; with jobs > 1 in that many
    spawned processes (independent simulations).  Progress goes to stderr."""
    if jobs == 1:
        results = []
        for k, task in enumerate(tasks, 1):
            results.append(function(*task))
            print("  %d/%d done" % (k, len(tasks)), file=sys.stderr)
        return results
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [pool.submit(function, *task) for task in tasks]
        for k, _ in enumerate(concurrent.futures.as_completed(futures), 1):
            print("  %d/%d done" % (k, len(tasks)), file=sys.stderr)
        return [f.result() for f in futures]


def warn_unused_options(parser, args, rules):
    """A script's options table: each rule is (option, dest, applies, needs).  An
    option set to other than its default that no run of the script uses is
    warned of on standard error, one line each, as the programs do."""
    for option, dest, applies, needs in rules:
        if getattr(args, dest) != parser.get_default(dest) and not applies:
            print("%s: warning: %s does nothing here: it needs %s" % (parser.prog, option, needs),
                  file=sys.stderr)


def mean_ci(values):
    """Mean and the half-width of its 95% confidence interval (Student's t;
    0 for a single value, infinite when a value is)."""
    from scipy import stats

    n = len(values)
    mean = sum(values) / n
    if n < 2 or not all(math.isfinite(v) for v in values):
        return mean, 0.0 if n < 2 else math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)


def _facts_here():
    """What the scripts take from the model (loads ns-3 in this process)."""
    from wan_training import ns

    def names(tid, attribute):
        return [str(n) for n in ns.wancompat.EnumNames(tid, attribute)]

    experiment = ns.CliqueExperimentHelper.GetTypeId()
    schedules = [str(name) for name in ns.CliqueScheduleBuiltins.Names()]
    recovery = names(experiment, "Recovery")
    # A policy's lossless baseline: the repair policy under its parity.
    baseline = {p: str(ns.CliqueExperimentHelper.RepairPolicy(p)) for p in recovery}
    return {
        "schedules": schedules,
        "memory_gb": {n: ns.CliqueScheduleBuiltins.GetDefaultMemory(n) / 1e9 for n in schedules},
        "recovery": recovery,
        # A coded policy's repair policy under its parity.
        "uncoded": {p: baseline[p] for p in recovery if ns.CliqueExperimentHelper.IsCoded(p)},
        "baseline": baseline,
        "recovery_default": str(ns.wancompat.AttributeDefaultText(experiment, "Recovery")),
        "repairs": [p for p in recovery if ns.CliqueExperimentHelper.Repairs(p)],
        "fault_detection": names(experiment, "FaultDetection"),
        "tree_building": names(experiment, "TreeBuilding"),
        "tree_building_default": str(ns.wancompat.AttributeDefaultText(experiment, "TreeBuilding")),
        "jitter_models": names(ns.WanJitterChannel.GetTypeId(), "Model"),
        "link_classes": [str(item.first) for item in ns.WanNetworkHelper.GetLinkClassNames()],
        "parity_block": int(ns.WanIslandApplication.GetDefaultParityBlock()),
        "parity_chunks": int(ns.WanIslandApplication.GetDefaultParityChunks()),
        "bfd_multiplier": int(ns.WanBfdApplication.GetDefaultMultiplier()),
        "generated_kinds": [str(ns.WanTopologyGenerator.KindName(k))
                            for k in ns.WanTopologyGenerator.Kinds()],
    }


_facts = None


def model_facts():
    """The names, lists and defaults the scripts offer, as the model has them
    (one place each: the attributes' checkers and defaults,
    CliqueScheduleBuiltins): schedules, memory_gb (per built-in, where none is
    named), recovery (policies) and recovery_default, uncoded (coded policy ->
    its repair policy), baseline (every policy -> its repair policy),
    repairs (policies that ask for missing contributions), fault_detection,
    tree_building (and tree_building_default), jitter_models, link_classes (names of
    WanNetworkHelper::ParseLinkClass), parity_block, parity_chunks,
    bfd_multiplier, generated_kinds (WanTopologyGenerator's).  Where ns-3 is not loaded yet, one spawned process asks,
    once, so that a script's parent process stays light."""
    global _facts
    if _facts is None:
        if _ns is not None:
            _facts = _facts_here()
        else:
            context = multiprocessing.get_context("spawn")
            with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
                _facts = pool.submit(_facts_here).result()
    return _facts


def parse_schedule_memory(text):
    """"NAME" or "NAME:GB" as (name, GB); without GB the schedule's default
    memory (CliqueScheduleBuiltins::GetDefaultMemory: all-to-all 32, the others 0)."""
    name, _, gb = text.partition(":")
    return name, float(gb) if gb else model_facts()["memory_gb"].get(name, 0.0)


def builtin_schedules():
    """The model's built-in schedule names, in its order (the one list:
    CliqueScheduleBuiltins::Names)."""
    return model_facts()["schedules"]


def write_csv(path, rows):
    """Writes dicts with the same keys as CSV, a header line first."""
    with open(path, "w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)


def evaluation_dict(evaluation):
    """A ScheduleEvaluation as a dict of Python numbers and text."""
    return {
        "feasible": bool(evaluation.feasible),
        "round_time_ms": float(evaluation.roundTimeMs),
        "disagreement": float(evaluation.disagreement),
        "objective": float(evaluation.objective),
        "binding": str(evaluation.binding),
        "required_memory_bytes": float(evaluation.requiredMemoryBytes),
    }


PACKET_OUTPUT_SCHEMA = "wan-training-packet-output"
PACKET_OUTPUT_VERSION = 1  # WanResultWriter's; a test checks that they agree
# Metrics of a packet-output CSV that are text, not numbers.
_TEXT_METRICS = {"schedule", "reason", "note", "scale_warning"}


def packet_run(result, topo, label="", parameters=None, trainings=()):
    """A WanExperimentResult as one run of the packet-output document (the
    dict that WanResultWriter writes as JSON: see the doc's schema), with
    the trainings over its rounds (WanTrainingRunResult) in "training"."""
    from wan_training import ns

    writer = ns.WanResultWriter(topo)
    import cppyy

    settings = cppyy.gbl.std.map[cppyy.gbl.std.string, cppyy.gbl.std.string]()
    for key, value in (parameters or {}).items():
        settings[str(key)] = str(value)
    writer.Add(label, result, settings)
    for training in trainings:
        writer.AddTraining(training)
    return json.loads(str(writer.ToJson()))["runs"][0]


def _csv_value(metric, text):
    """A CSV cell of a packet-output table as the JSON value it came from."""
    if metric in _TEXT_METRICS or metric.startswith("parameters."):
        return text
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        return float(text)


def _set_dotted(target, metric, value):
    """target["a"]["b"] = value for the metric "a.b"."""
    *path, last = metric.split(".")
    for key in path:
        target = target.setdefault(key, {})
    target[last] = value


def _read_packet_csv(path):
    """The packet-output document that a CSV table (WanResultWriter) holds."""
    runs = {}
    with open(path, newline="") as table:
        for row in csv.DictReader(table):
            run = runs.setdefault(row["run"], {"label": row["label"], "parameters": {},
                                               "evictions": {}, "route_changes": [],
                                               "rounds": [], "training": []})
            value = _csv_value(row["metric"], row["value"])
            if row["scope"] == "run":
                _set_dotted(run, row["metric"], value)
                continue
            if row["scope"] == "training":
                # One training's summary, its figures in a row each.
                trainings = run.setdefault("training", [])
                if not trainings or row["metric"] in trainings[-1]:
                    workload, _, policy = row["subject"].partition("/")
                    trainings.append({"workload": workload, "policy": policy, "history": []})
                _set_dotted(trainings[-1], row["metric"], value)
                continue
            if row["scope"] == "training_round":
                history = run["training"][-1]["history"]
                if not history or history[-1]["round"] != int(row["round"]):
                    history.append({"round": int(row["round"])})
                history[-1][row["metric"]] = value
                continue
            if row["scope"] == "route_change":
                # One change per link event, its figures in a row each.
                changes = run["route_changes"]
                if not changes or row["metric"] in changes[-1]:
                    changes.append({"link": row["subject"]})
                changes[-1][row["metric"]] = value
                continue
            rounds = run["rounds"]
            if not rounds or rounds[-1]["round"] != int(row["round"]):
                rounds.append({"round": int(row["round"]), "evictions": {}, "islands": [],
                               "core_links": []})
            target = rounds[-1]
            if row["scope"] in ("island", "core_link"):
                items = target[row["scope"] + "s"]
                if not items or items[-1]["_subject"] != row["subject"]:
                    items.append({"_subject": row["subject"]})
                target = items[-1]
            _set_dotted(target, row["metric"], value)
    for run in runs.values():
        for r in run["rounds"]:
            for island in r["islands"]:
                island["city"] = island.pop("_subject")
            for link in r["core_links"]:
                link["from"], link["to"] = link.pop("_subject").split(">")
    return {"runs": list(runs.values())}


def read_packet_output(path):
    """The document a --packetOutput file holds (.json, or the .csv table of
    the same figures) as a dict: {"runs": [{"label", ..., "rounds": [...]}]}."""
    if path.endswith(".json"):
        with open(path) as document:
            data = json.load(document)
        if data.get("schema") != PACKET_OUTPUT_SCHEMA:
            raise ValueError("%s: not a packet-output document (schema %r)"
                             % (path, data.get("schema")))
        return data
    if path.endswith(".csv"):
        return _read_packet_csv(path)
    raise ValueError("%s: a packet output ends in .json or .csv" % path)


def write_packet_output(path, runs):
    """Writes packet-output runs (packet_run) as one JSON document, the
    schema of --packetOutput."""
    document = {"schema": PACKET_OUTPUT_SCHEMA, "version": PACKET_OUTPUT_VERSION,
                "runs": list(runs)}
    with open(path, "w") as out:
        json.dump(document, out, indent=1)
        out.write("\n")


def write_tables(folder, name, rows, summary, plot):
    """Writes a sweep's tables and figure into folder: NAME-runs.csv (one row
    per run), NAME.csv (the summary) and NAME.png (plot(summary, path) draws
    it).  Returns the three paths, in that order."""
    runs_path = os.path.join(folder, name + "-runs.csv")
    write_csv(runs_path, rows)
    csv_path = os.path.join(folder, name + ".csv")
    write_csv(csv_path, summary)
    png_path = os.path.join(folder, name + ".png")
    plot(summary, png_path)
    return runs_path, csv_path, png_path


def write_sweep(folder, name, rows, summary, packets, plot):
    """write_tables, and NAME-packets.json (every run's packet output).
    Returns the four paths: runs, summary, packets, figure."""
    runs_path, csv_path, png_path = write_tables(folder, name, rows, summary, plot)
    packets_path = os.path.join(folder, name + "-packets.json")
    write_packet_output(packets_path, packets)
    return runs_path, csv_path, packets_path, png_path


def experiment_rows(run):
    """One dict per simulated round of a packet-output run (packet_run, or a
    run of read_packet_output): times and contributions summed over islands."""
    rows = []
    for r in run["rounds"]:
        measured = r["measured_ms"]
        rows.append(
            {
                "round": r["round"],
                "failed": r["failed"],
                "planned_ms": r["planned_ms"],
                "measured_ms": math.inf if measured is None else measured,
                "idle_ms": math.inf if r["idle_ms"] is None else r["idle_ms"],
                "expected": sum(i["expected"] for i in r["islands"]),
                "delivered": sum(i["delivered"] for i in r["islands"]),
                "exact": all(i["exact"] for i in r["islands"]),
            }
        )
    return rows
