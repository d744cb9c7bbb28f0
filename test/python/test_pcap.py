# SPDX-License-Identifier: GPL-2.0-only
"""Packet traces: the packet-level programs' pcap files (--pcap), decoded by
tshark with the module's Wireshark dissector (wireshark/wan-training.lua), and
checked field by field against what was sent: the contributions the model
gives each island (WanContribution: island value city + 1, times chunk + 1),
the headers ns-3 itself printed in its ASCII traces (--ascii) of the same
devices, and packets written here byte by byte, malformed ones too."""

import glob
import os
import re
import shutil
import struct
import subprocess
import sys

import pytest

# The programs' traces: the same C++ on every release (conftest.py).
pytestmark = pytest.mark.programs

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DISSECTOR = os.path.join(ROOT, "wireshark", "wan-training.lua")
sys.path.insert(0, os.path.join(ROOT, "python"))

KINDS = ["DATA", "MERGED", "NACK", "REQUEST", "REPAIR", "QUERY"]
# The header's fields as the dissector names them, and as WanChunkHeader::Print does.
HEADER_FIELDS = {"wan.round": "round", "wan.clique": "clique", "wan.sender": "sender",
                 "wan.position": "position", "wan.chunk": "chunk", "wan.seq": "seq",
                 "wan.contributions": "contributions", "wan.expected": "expected",
                 "wan.value": "value", "wan.sources": "sources"}
FIELDS = ["frame.protocols", "wan.kind", *HEADER_FIELDS, "wan.sources.bits", "wan.source",
          "_ws.expert.message"]
# The nine-city topology's cities in index order; triangles' round 0 groups
# them in threes (cliques 0, 1, 2), positions by city index.
CITIES = ["NYC", "LAX", "BUE", "LON", "AMS", "FRA", "TYO", "SEO", "SIN"]
# 1 GB / scale 1000 = 1e6 bytes in chunks of 8936: 112 chunks.
CHUNKS = 112


def tshark():
    path = shutil.which("tshark")
    assert path, ("tshark not found: these tests need Debian's tshark package "
                  "(scripts/setup.sh and scripts/setup-pypi.sh install it)")
    return path


def decode(pcap, fields=FIELDS, options=()):
    """Every frame of a pcap file, as a dict of the fields (a field that occurs
    more than once: its values joined by ';'), decoded with the dissector."""
    command = [tshark(), "-n", "-X", "lua_script:" + DISSECTOR, "-r", str(pcap), *options,
               "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=;"]
    for field in fields:
        command += ["-e", field]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Lua" not in done.stderr, done.stderr  # the dissector did not load
    frames = [dict(zip(fields, line.split("\t"))) for line in done.stdout.splitlines()]
    for frame in frames:
        assert "Lua Error" not in frame.get("_ws.expert.message", ""), frame
    return frames


def run_program(command):
    """Runs a program of the module as ./ns3 run does; returns its output."""
    from wan_training import ns3_dir

    done = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build", command],
                          cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def positions(text):
    return [int(p) for p in text.split(",")] if text else []


def test_triangles_pcap_shows_every_data_and_merged_packet(tmp_path):
    """The acceptance run: triangles at scale 1000, one round, every island's
    device traced; each island sends its 112 chunks once (one multicast copy)
    and receives 112 complete sums of its two peers' contributions (accept:
    no parity rows or loss reports beside them)."""
    prefix = tmp_path / "tri"
    run_program("nine-city-cliques --schedule=triangles --hbmGB=0 --packetSchedule=triangles "
                "--baselines=false --scale=1000 --rounds=1 --quiet --traceLinks=post "
                "--recovery=accept "
                "--pcap --tracePrefix=%s" % prefix)
    # Islands are nodes 18 to 26 (after 9 routers and 9 edge nodes); device 0
    # is the loopback.
    names = ["%s-triangles-multicast-fpga-%d-1.pcap" % (prefix, 18 + c) for c in range(9)]
    assert sorted(glob.glob(str(prefix) + "*")) == sorted(names)
    for c, name in enumerate(names):
        frames = decode(name)
        assert {f["frame.protocols"] for f in frames} == {"ppp:ip:udp:wan"}, name
        assert not any(f["_ws.expert.message"] for f in frames), name
        clique, position = c // 3, c % 3
        peers = [p for p in range(3 * clique, 3 * clique + 3) if p != c]
        data = [f for f in frames if f["wan.kind"] == "0"]
        merged = [f for f in frames if f["wan.kind"] == "1"]
        assert len(data) + len(merged) == len(frames) == 2 * CHUNKS, name
        got = [tuple(f[k] for k in HEADER_FIELDS) for f in data]
        want = [("0", str(clique), str(c), str(position), str(k), "0", "1", "2",
                 "%d" % ((c + 1) * (k + 1)), "") for k in range(CHUNKS)]
        assert got == want, (CITIES[c], "DATA")
        got = [tuple(f[k] for k in HEADER_FIELDS) for f in merged]
        want = [("0", str(clique), "0", "0", str(k), str(k), "2", "2",
                 "%d" % sum((p + 1) * (k + 1) for p in peers),
                 ",".join(str(p % 3) for p in peers)) for k in range(CHUNKS)]
        assert got == want, (CITIES[c], "MERGED")
        # A sum's bitmap has one bit per position up to the last one it holds.
        assert {f["wan.sources.bits"] for f in merged} == {str(max(p % 3 for p in peers) + 1)}
        assert [positions(f["wan.source"].replace(";", ",")) for f in merged] == [
            [p % 3 for p in peers]] * CHUNKS


# A header in an ASCII trace line: ns3::WanChunkHeader (KIND key=value ...).
ASCII_HEADER = re.compile(r"ns3::WanChunkHeader \((\w+) ([^)]*)\)")


def ascii_headers(path):
    """The headers of the packets a device sent ('-': dequeued to be sent) and
    received ('r'), in order: the records of its pcap file."""
    headers = []
    with open(path) as f:
        for line in f:
            if line[0] not in "-r":
                continue
            match = ASCII_HEADER.search(line)
            assert match, line
            fields = dict(item.split("=") for item in match.group(2).split())
            fields["kind"] = match.group(1)
            fields["contributions"], fields["expected"] = fields["contributions"].split("/")
            bits = fields.get("sources", "")
            fields["sources"] = ",".join(str(p) for p, b in enumerate(bits) if b == "1")
            fields["bits"] = str(len(bits))
            headers.append(fields)
    return headers


def test_traces_decode_as_ns3_sent_them(tmp_path):
    """With loss on the access links and re-requests, NYC's devices see all
    five kinds; every frame of every pcap file decodes to the header ns-3
    printed for it in the ASCII trace of the same device, and its value is
    what the model gives: a chunk's contribution, or its sources' sum."""
    prefix = tmp_path / "nyc"
    # The planner's trees and faults known in advance: no PIM or BFD packets
    # beside the chunks, which are what the dissector decodes.
    run_program("nine-city-cliques --schedule=triangles --hbmGB=0 --packetSchedule=triangles "
                "--baselines=false --scale=1000 --rounds=1 --quiet --lossRate=0.05 "
                "--lossLinks=access,post --recovery=rerequest --traceLinks=NYC "
                "--treeBuilding=planner --faultDetection=oracle "
                "--pcap --ascii --tracePrefix=%s" % prefix)
    pcaps = sorted(glob.glob("%s-triangles-multicast-fpga-*.pcap" % prefix))
    # NYC: router 0 (three core links, one to its edge node), edge node 9, island 18.
    assert [os.path.basename(p).split("fpga-")[1] for p in pcaps] == [
        "0-1.pcap", "0-2.pcap", "0-3.pcap", "0-4.pcap", "18-1.pcap", "9-1.pcap", "9-2.pcap"]
    decoded = []
    for pcap in pcaps:
        frames = decode(pcap)
        sent = ascii_headers(pcap[:-len(".pcap")] + ".tr")
        assert len(frames) == len(sent), pcap
        for k, (frame, header) in enumerate(zip(frames, sent)):
            assert frame["frame.protocols"] == "ppp:ip:udp:wan", (pcap, k)
            assert KINDS[int(frame["wan.kind"])] == header["kind"], (pcap, k)
            for field, name in HEADER_FIELDS.items():
                got, want = frame[field], header[name]
                if name == "value":
                    got, want = float(got), float(want)
                assert got == want, (pcap, k, field, frame, header)
            assert frame["wan.sources.bits"] == header["bits"], (pcap, k)
            assert frame["wan.source"].replace(";", ",") == header["sources"], (pcap, k)
            assert frame["_ws.expert.message"] == "", (pcap, k)
        decoded += frames
    kinds = [KINDS[int(f["wan.kind"])] for f in decoded]
    # Every kind but QUERY, which only early recovery sends.
    assert set(kinds) == set(KINDS) - {"QUERY"}, {k: kinds.count(k) for k in KINDS}

    # The values: the sender's contribution (city + 1) x (chunk + 1); a sum,
    # that of the clique members at its source positions.
    member = {}
    for f in decoded:
        if f["wan.kind"] in ("0", "4"):
            chunk, sender = int(f["wan.chunk"]), int(f["wan.sender"])
            assert float(f["wan.value"]) == (sender + 1) * (chunk + 1), f
            member[(f["wan.round"], f["wan.clique"], int(f["wan.position"]))] = sender
    partial = 0
    for f in decoded:
        if f["wan.kind"] == "1":
            sources = positions(f["wan.sources"])
            assert int(f["wan.contributions"]) == len(sources), f
            partial += len(sources) < int(f["wan.expected"])
            chunk = int(f["wan.chunk"])
            assert float(f["wan.value"]) == sum(
                (member[(f["wan.round"], f["wan.clique"], p)] + 1) * (chunk + 1)
                for p in sources), f
    assert partial > 0, "losses before the FPGA leave partial sums"


def wan_header(kind, position, round_, clique, sender, chunk, seq, contributions, expected,
               value, sources=None, bits=None):
    """A WanChunkHeader's bytes (model/wan-chunk-header.cc, Serialize)."""
    # The value: a fixed-point integer with 16 fractional bits.
    head = struct.pack("!BBHIHHIIHHq", kind, 0, position, round_, clique, sender, chunk, seq,
                       contributions, expected, round(value * 2 ** 16))
    sources = sources or []
    bits = bits if bits is not None else (max(sources) + 1 if sources else 0)
    bitmap = bytearray((bits + 7) // 8)
    for p in sources:
        bitmap[p // 8] |= 1 << (p % 8)
    block = struct.pack("!H", bits) + bytes(bitmap)
    return head + block + bytes(-len(block) % 4)


def write_pcap(path, payloads):
    """A pcap file (PPP, as ns-3 writes) of UDP datagrams (port, payload), each
    from and to that port."""
    with open(path, "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 9))  # DLT_PPP
        for k, (port, payload) in enumerate(payloads):
            udp = struct.pack("!HHHH", port, port, 8 + len(payload), 0) + payload
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), k, 0, 64, 17, 0,
                             bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])) + udp
            frame = b"\x00\x21" + ip
            out.write(struct.pack("<IIII", 0, k, len(frame), len(frame)) + frame)


def test_dissector_reads_every_field_and_flags_malformed_packets(tmp_path):
    """Headers written here byte by byte: every field at full width, a bitmap
    over three bytes, and malformed packets, flagged without an error."""
    pcap = tmp_path / "crafted.pcap"
    merged = wan_header(1, 7, 70000, 513, 258, 100000, 4000000000, 3, 19, 3.25,
                        sources=[0, 5, 17], bits=20)
    data = wan_header(0, 2, 1, 3, 4, 5, 0, 1, 2, -0.5)
    beyond = bytearray(wan_header(1, 0, 0, 0, 0, 0, 0, 2, 2, 5, sources=[1, 2]))
    beyond[34] |= 1 << 3
    write_pcap(pcap, [
        (9001, merged + bytes(100)),                        # 1: MERGED and a payload
        (9000, data[:10]),                                  # 2: 10 bytes
        (9000, bytes([9]) + data[1:]),                      # 3: kind 9
        (9000, merged[:36]),                                # 4: 20 source bits, no bitmap
        (9000, bytes(beyond)),                              # 5: bit 3 of 3 bits set
        (9000, data[:-1] + b"\x01"),                        # 6: padding not zero
        (9100, data),                                       # 7: another port
        (9000, wan_header(2, 0, 0, 0, 0, 0, 77, 1, 1, 0)),  # 8: NACK
        (9000, wan_header(3, 1, 4, 2, 6, 9, 0, 1, 1, 0)),   # 9: REQUEST
    ])
    frames = decode(pcap)
    assert [f["frame.protocols"] for f in frames] == ["ppp:ip:udp:wan"] * 6 + [
        "ppp:ip:udp:data"] + ["ppp:ip:udp:wan"] * 2
    first = frames[0]
    assert [first[f] for f in ("wan.kind", *HEADER_FIELDS, "wan.sources.bits", "wan.source")] == [
        "1", "70000", "513", "258", "7", "100000", "4000000000", "3", "19", "3.25", "0,5,17",
        "20", "0;5;17"]
    assert first["_ws.expert.message"] == ""
    experts = [f["_ws.expert.message"] for f in frames]
    assert "truncated: 10 bytes, a header needs at least 34" in experts[1]
    assert "unknown kind 9" in experts[2]
    assert frames[2]["wan.round"] == "1"  # the fields are still shown
    assert "20 source bits need a 40-byte header, only 36 bytes" in experts[3]
    assert experts[4] == "bit 3 set beyond the 3 source bits"
    assert frames[4]["wan.sources"] == "1,2"
    assert experts[5] == "padding not zero"
    assert frames[7]["wan.kind"] == "2" and frames[7]["wan.seq"] == "77"
    assert experts[7] == experts[8] == ""
    # The Info column names each kind and its fields.
    info = decode(pcap, fields=["_ws.col.Info"])
    assert info[0]["_ws.col.Info"] == (
        "MERGED round=70000 clique=513 chunk=100000 seq=4000000000 contributions=3/19 "
        "sources={0,5,17} value=3.25")
    assert info[1]["_ws.col.Info"].startswith("WAN malformed")
    assert info[7]["_ws.col.Info"] == "NACK seq=77"
    assert info[8]["_ws.col.Info"] == "REQUEST round=4 clique=2 sender=6 chunk=9 position=1"
    # The ports are a preference.
    other = decode(pcap, options=["-o", "wan.ports:9000-9001,9100"])
    assert other[6]["frame.protocols"] == "ppp:ip:udp:wan"
    assert [other[6][f] for f in ("wan.kind", "wan.sender", "wan.chunk", "wan.value")] == [
        "0", "4", "5", "-0.5"]


def test_dissector_reads_a_parity_symbol(tmp_path):
    """A MERGED parity chunk with flag bit 0: the symbol's words 1 to 7 after
    the sources, then the payload; cut short, it is malformed; other flag
    bits are flagged; a sender's (DATA) parity chunk names its block's data
    chunks in the sequence field."""
    pcap = tmp_path / "parity.pcap"
    head = bytearray(wan_header(1, 0, 2, 0, 0, 2 ** 31 + 5, 9, 2, 2, 1.5, sources=[0, 2]))
    head[1] = 1
    words = [1, 2, 2 ** 63, 4, 5, 6, 2 ** 64 - 1]
    symbol = bytes(head) + struct.pack("!7Q", *words)
    other = bytearray(wan_header(0, 1, 1, 0, 3, 4, 0, 1, 2, 2.0))
    other[1] = 4
    sent = bytearray(wan_header(0, 1, 2, 0, 3, 2 ** 31 + 7, 56, 0, 2, 1.5))
    sent[1] = 1
    sent = bytes(sent) + struct.pack("!7Q", *words)
    write_pcap(pcap, [(9001, symbol + bytes(50)), (9001, symbol[:60]), (9000, bytes(other)),
                      (9000, sent)])
    frames = decode(pcap, fields=FIELDS + ["wan.flags", "wan.symbol.word", "wan.parity",
                                           "wan.payload", "wan.parity.block"])
    first = frames[0]
    assert first["wan.flags"] == "0x01" and first["wan.parity"] == "5"
    assert first["wan.symbol.word"] == ";".join(str(w) for w in words)
    assert first["_ws.expert.message"] == ""
    assert len(first["wan.payload"].replace(":", "")) == 2 * 50  # the payload after the symbol
    assert "a parity symbol needs 56 bytes after the sources, only 24" in frames[1][
        "_ws.expert.message"]
    assert "flag bits other than bit 0 set" in frames[2]["_ws.expert.message"]
    assert first["wan.parity.block"] == ""  # a MERGED sum: the hop's sequence number
    assert frames[3]["wan.parity"] == "7" and frames[3]["wan.parity.block"] == "56"
    assert frames[3]["_ws.expert.message"] == ""


def test_wan_impairments_traces_each_run(tmp_path):
    """Each run of the sweep writes its own files, named by schedule and
    setting; bad trace options are refused before anything runs."""
    prefix = tmp_path / "sweep"
    run_program("wan-impairments --schedule=triangles --lossRate=none --jitterMs=none "
                "--rounds=1 --quiet --traceLinks=SIN --pcap --tracePrefix=%s" % prefix)
    island = decode("%s-triangles-none-26-1.pcap" % prefix)  # SIN is city 8: node 26
    kinds = [f["wan.kind"] for f in island]
    assert kinds.count("0") == kinds.count("1") == CHUNKS
    from wan_training import ns3_dir

    for program in ("nine-city-cliques --packetSchedule=pairs", "wan-impairments"):
        for option, message in (("--traceLinks=core,XYZ", 'cannot trace "XYZ"'),
                                ("--pcap --tracePrefix=%s/none/x" % tmp_path, "no folder")):
            done = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                                   "%s %s" % (program, option)], cwd=ns3_dir(),
                                  capture_output=True, text=True, timeout=600)
            assert done.returncode != 0, (program, option)
            assert message in done.stderr, (program, option, done.stderr)
