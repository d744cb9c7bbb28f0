-- SPDX-License-Identifier: GPL-2.0-only
--[[
Wireshark and tshark dissector for the packets of the wan-training ns-3
module: the WanChunkHeader (model/wan-chunk-header.h) at the start of every
UDP payload of its applications, the island application's DATA chunks,
REQUESTs and REPAIRs and the edge FPGA's MERGED sums and NACKs.

Wire format, network byte order.  32 fixed bytes:

  offset  size  field (filter name)
       0     1  kind (wan.kind): 0 DATA, 1 MERGED, 2 NACK, 3 REQUEST, 4 REPAIR,
                5 QUERY, 6 REPORT (an FPGA tells a sender what a block of its
                stream lost: block in wan.chunk, data chunks in wan.expected,
                those that arrived in wan.contributions)
       1     1  flags (wan.flags): bit 0 set, a parity symbol follows the
                sources; the other bits 0
       2     2  position of the sender in its clique (wan.position); in a
                REQUEST, the position of the peer asked
       4     4  round (wan.round)
       8     2  clique within the round (wan.clique)
      10     2  sender, its city index (wan.sender)
      12     4  chunk (wan.chunk); with the top bit set, a parity chunk of
                group chunk - 2^31 (wan.parity)
      16     4  sequence number of the post-aggregation hop (wan.seq); in a
                sender's parity chunk (DATA), the parity rows sent after its
                block (bytes 16-17, wan.parity.rows) and the data chunks of
                the block (bytes 18-19, wan.parity.block)
      20     2  contributions summed (wan.contributions)
      22     2  contributions expected (wan.expected)
      24     8  value, a two's complement fixed-point integer with 16
                fractional bits (wan.value.fixed; its real value: wan.value)

then the sources a sum holds: their number of bits (2 bytes,
wan.sources.bits) and a bitmap, bit k of byte b for position 8b + k
(wan.sources.bitmap; the positions set: wan.sources, one wan.source each),
the count and bitmap padded with zeros to a multiple of 4 bytes
(wan.padding).  With flag bit 0, a parity chunk's symbol of GR(2^64, 8)
follows: its words 1 to 7, 8 bytes each (wan.symbol, one wan.symbol.word
each; word 0 is the value field).  The chunk's virtual payload follows
(wan.payload).

Load it for one run:
  tshark -X lua_script:wireshark/wan-training.lua -r trace-18-1.pcap
  wireshark -X lua_script:wireshark/wan-training.lua trace-18-1.pcap
or copy it into Wireshark's personal Lua plugins folder (Help > About
Wireshark > Folders).  It decodes UDP ports 9000-9001 (the applications'
default DataPort, MergedPort and IslandPort); other ports: the preference
wan.ports (Edit > Preferences > Protocols > WAN, or tshark -o wan.ports:9000-9001,9100).
Malformed packets (too short, unknown kind, non-zero padding) are flagged as
expert info (wan.malformed, wan.unknown_kind, wan.nonzero).
]]

local wan = Proto("wan", "WAN training chunk header (wan-training)")

-- The kinds, as WanChunkHeader::Kind.
local KINDS = {
    [0] = "DATA", [1] = "MERGED", [2] = "NACK", [3] = "REQUEST", [4] = "REPAIR", [5] = "QUERY",
    [6] = "REPORT",
}
local FRACTION = 2 ^ 16 -- the value's fixed point (WanContribution::FRACTION_BITS)
local PARITY_FLAG = 2 ^ 31 -- a parity chunk's index (WanParityCode::PARITY_FLAG)
local FIXED_BYTES = 32 -- kind to value
local COUNT_BYTES = 2 -- the sources' bit count
local ALIGNMENT = 4 -- the sources block is padded to a multiple of this
local SYMBOL_FLAG = 1 -- flag bit: a parity symbol's words follow the sources
local SYMBOL_BYTES = 56 -- its words 1 to 7

local f = {
    kind = ProtoField.uint8("wan.kind", "Kind", base.DEC, KINDS),
    flags = ProtoField.uint8("wan.flags", "Flags", base.HEX),
    position = ProtoField.uint16("wan.position", "Position in the clique", base.DEC),
    round = ProtoField.uint32("wan.round", "Round", base.DEC),
    clique = ProtoField.uint16("wan.clique", "Clique", base.DEC),
    sender = ProtoField.uint16("wan.sender", "Sender (city index)", base.DEC),
    chunk = ProtoField.uint32("wan.chunk", "Chunk", base.DEC),
    seq = ProtoField.uint32("wan.seq", "Sequence number", base.DEC),
    contributions = ProtoField.uint16("wan.contributions", "Contributions summed", base.DEC),
    expected = ProtoField.uint16("wan.expected", "Contributions expected", base.DEC),
    value = ProtoField.double("wan.value", "Value"),
    value_fixed = ProtoField.int64("wan.value.fixed", "Value as sent (fixed point)", base.DEC),
    parity = ProtoField.uint32("wan.parity", "Parity group", base.DEC),
    parity_rows = ProtoField.uint16("wan.parity.rows", "Parity rows sent after the block",
                                    base.DEC),
    parity_block = ProtoField.uint16("wan.parity.block", "Data chunks of the parity block",
                                     base.DEC),
    source_bits = ProtoField.uint16("wan.sources.bits", "Source bits", base.DEC),
    bitmap = ProtoField.bytes("wan.sources.bitmap", "Sources bitmap"),
    sources = ProtoField.string("wan.sources", "Sources (positions)"),
    source = ProtoField.uint16("wan.source", "Source position", base.DEC),
    padding = ProtoField.bytes("wan.padding", "Padding"),
    symbol = ProtoField.bytes("wan.symbol", "Parity symbol, words 1 to 7"),
    word = ProtoField.uint64("wan.symbol.word", "Word", base.DEC),
    payload = ProtoField.bytes("wan.payload", "Payload"),
}
wan.fields = {
    f.kind, f.flags, f.position, f.round, f.clique, f.sender, f.chunk, f.seq,
    f.contributions, f.expected, f.value, f.value_fixed, f.parity, f.parity_rows, f.parity_block, f.source_bits, f.bitmap, f.sources, f.source,
    f.padding, f.symbol, f.word, f.payload,
}

local e = {
    malformed = ProtoExpert.new("wan.malformed", "Malformed wan-training header",
                                expert.group.MALFORMED, expert.severity.ERROR),
    kind = ProtoExpert.new("wan.unknown_kind", "Unknown wan-training kind",
                           expert.group.MALFORMED, expert.severity.ERROR),
    nonzero = ProtoExpert.new("wan.nonzero", "Unused flags, padding or bits not zero",
                              expert.group.PROTOCOL, expert.severity.WARN),
}
wan.experts = { e.malformed, e.kind, e.nonzero }

-- The fixed fields: field, offset, size, name in the Info column.
local FIXED = {
    { f.kind, 0, 1 },
    { f.flags, 1, 1 },
    { f.position, 2, 2, "position" },
    { f.round, 4, 4, "round" },
    { f.clique, 8, 2, "clique" },
    { f.sender, 10, 2, "sender" },
    { f.chunk, 12, 4, "chunk" },
    { f.seq, 16, 4, "seq" },
    { f.contributions, 20, 2, "contributions" },
    { f.expected, 22, 2, "expected" },
    { f.value, 24, 8, "value" },
}

-- What the Info column shows of each kind, after its name.
local SUMMARY = {
    DATA = { "round", "clique", "sender", "position", "chunk", "value" },
    MERGED = { "round", "clique", "chunk", "seq", "contributions", "sources", "value" },
    NACK = { "seq" },
    REQUEST = { "round", "clique", "sender", "chunk", "position" },
    REPAIR = { "round", "clique", "sender", "position", "chunk", "value" },
    QUERY = { "round", "clique", "sender", "position", "chunk" },
    REPORT = { "round", "clique", "position", "chunk", "expected", "contributions" },
}

-- A number as text: integers without a fraction, others to full precision.
local function number_text(x)
    if x == math.floor(x) and math.abs(x) < 2 ^ 53 then
        return string.format("%.0f", x)
    end
    return string.format("%.17g", x)
end

-- Adds the fixed fields that the buffer holds; returns their values by name
-- (the value read as a double) and whether all were there.
local function dissect_fixed(tvb, tree, values)
    local length = tvb:len()
    for _, item in ipairs(FIXED) do
        local field, offset, size, name = item[1], item[2], item[3], item[4]
        if offset + size > length then
            return false
        end
        local range = tvb(offset, size)
        if name == "value" then
            values[name] = range:int64():tonumber() / FRACTION
            tree:add(field, range, values[name])
            tree:add(f.value_fixed, range)
        else
            tree:add(field, range)
            if name then
                values[name] = range:uint()
            end
        end
        if name == "chunk" and range:uint() >= PARITY_FLAG then
            tree:add(f.parity, range, range:uint() - PARITY_FLAG)
        end
        -- A sender's parity chunk names its block's data chunks here.
        if name == "seq" and values.chunk ~= nil and values.chunk >= PARITY_FLAG
                and tvb(0, 1):uint() == 0 then
            tree:add(f.parity_rows, tvb(offset, 2))
            tree:add(f.parity_block, tvb(offset + 2, 2))
        end
    end
    return true
end

-- Adds the sources block (count, bitmap, padding); returns the header's
-- size, or nil when the buffer is too short for it.
local function dissect_sources(tvb, tree, values)
    local length = tvb:len()
    if length < FIXED_BYTES + COUNT_BYTES then
        return nil
    end
    local bits = tvb(FIXED_BYTES, COUNT_BYTES):uint()
    local bitmap_bytes = math.ceil(bits / 8)
    local block = math.ceil((COUNT_BYTES + bitmap_bytes) / ALIGNMENT) * ALIGNMENT
    local header = FIXED_BYTES + block
    local first = FIXED_BYTES + COUNT_BYTES
    local sub = tree:add(f.source_bits, tvb(FIXED_BYTES, COUNT_BYTES))
    if header > length then
        sub:add_proto_expert_info(e.malformed, string.format(
            "%d source bits need a %d-byte header, only %d bytes", bits, header, length))
        return nil
    end
    local positions = {}
    if bitmap_bytes > 0 then
        tree:add(f.bitmap, tvb(first, bitmap_bytes))
        for b = 0, bitmap_bytes - 1 do
            local byte = tvb(first + b, 1):uint()
            for k = 0, 7 do
                local position = 8 * b + k
                if math.floor(byte / 2 ^ k) % 2 == 1 then -- plain arithmetic: any Lua version
                    if position < bits then
                        positions[#positions + 1] = position
                    else
                        sub:add_proto_expert_info(e.nonzero, string.format(
                            "bit %d set beyond the %d source bits", position, bits))
                    end
                end
            end
        end
        local list = table.concat(positions, ",")
        local item = tree:add(f.sources, tvb(first, bitmap_bytes), list)
        for _, position in ipairs(positions) do
            item:add(f.source, tvb(first + math.floor(position / 8), 1), position)
        end
    end
    values.sources = "{" .. table.concat(positions, ",") .. "}"
    local padding = header - first - bitmap_bytes
    if padding > 0 then
        local item = tree:add(f.padding, tvb(first + bitmap_bytes, padding))
        for i = 0, padding - 1 do
            if tvb(first + bitmap_bytes + i, 1):uint() ~= 0 then
                item:add_proto_expert_info(e.nonzero, "padding not zero")
                break
            end
        end
    end
    return header
end

-- The Info column's text for a header's values.
local function summary(kind_name, values)
    local parts = { kind_name }
    for _, name in ipairs(SUMMARY[kind_name] or {}) do
        local v = values[name]
        if v ~= nil then
            if name == "contributions" then
                parts[#parts + 1] = string.format("contributions=%d/%d", v, values.expected or 0)
            else
                parts[#parts + 1] = name .. "=" .. (type(v) == "number" and number_text(v) or v)
            end
        end
    end
    return table.concat(parts, " ")
end

function wan.dissector(tvb, pinfo, tree)
    local length = tvb:len()
    pinfo.cols.protocol = "WAN"
    local subtree = tree:add(wan, tvb())
    if length == 0 then
        subtree:add_proto_expert_info(e.malformed, "empty payload: no wan-training header")
        pinfo.cols.info = "WAN malformed: empty"
        return length
    end
    local kind = tvb(0, 1):uint()
    local kind_name = KINDS[kind]
    local values = {}
    local complete = dissect_fixed(tvb, subtree, values)
    local header = complete and dissect_sources(tvb, subtree, values) or nil
    local flags = length >= 2 and tvb(1, 1):uint() or 0
    if header ~= nil and flags % 2 == SYMBOL_FLAG then
        if header + SYMBOL_BYTES > length then
            subtree:add_proto_expert_info(e.malformed, string.format(
                "a parity symbol needs %d bytes after the sources, only %d",
                SYMBOL_BYTES, length - header))
            header = nil
        else
            local item = subtree:add(f.symbol, tvb(header, SYMBOL_BYTES))
            for w = 0, 6 do
                item:add(f.word, tvb(header + 8 * w, 8))
            end
            header = header + SYMBOL_BYTES
        end
    end
    if kind_name == nil then
        subtree:add_proto_expert_info(e.kind, string.format("unknown kind %d", kind))
    end
    if flags - flags % 2 ~= 0 then
        subtree:add_proto_expert_info(e.nonzero, "flag bits other than bit 0 set")
    end
    local info = summary(kind_name or string.format("kind=%d", kind), values)
    if header == nil then
        if length < FIXED_BYTES + COUNT_BYTES then
            subtree:add_proto_expert_info(e.malformed, string.format(
                "truncated: %d bytes, a header needs at least %d", length,
                FIXED_BYTES + COUNT_BYTES))
        end
        pinfo.cols.info = "WAN malformed: " .. info
        return length
    end
    subtree:append_text(", " .. info)
    if length > header then
        subtree:add(f.payload, tvb(header)):set_text(
            string.format("Payload (%d bytes)", length - header))
    end
    pinfo.cols.info = info
    return length
end

-- The UDP ports, a preference (re-registered when it changes).
wan.prefs.ports = Pref.range("UDP ports", "9000-9001",
    "UDP ports of wan-training packets (WanIslandApplication DataPort and MergedPort, "
    .. "FpgaAggregator DataPort and IslandPort)", 65535)

local udp_ports = DissectorTable.get("udp.port")
local registered = nil

local function register_ports()
    if registered ~= nil then
        udp_ports:remove(registered, wan)
    end
    registered = wan.prefs.ports
    if registered ~= nil and registered ~= "" then
        udp_ports:add(registered, wan)
    end
end

function wan.prefs_changed()
    if registered ~= wan.prefs.ports then
        register_ports()
    end
end

register_ports()
