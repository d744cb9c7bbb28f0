/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-fuzz-targets.h"

#include "../wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule.h"
#include "ns3/fpga-stream-decoder.h"
#include "ns3/wan-bfd-header.h"
#include "ns3/wan-chunk-header.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-fault-list.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-parity-decoder.h"
#include "ns3/wan-pim-header.h"
#include "ns3/wan-round-recorder.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <typeinfo>

namespace ns3
{
namespace wanfuzz
{
namespace
{

/// The separator of the two files of the topology-csv target's input
const std::string kCsvSeparator = "\n====\n";

/// Thrown by a header target when a header reads back other than it wrote
struct Unstable : std::logic_error
{
    using std::logic_error::logic_error;
};

/**
 * @brief Reads the bytes as a header of type H: refused when Deserialize
 * takes nothing (with the header's own reason, if it gives one); accepted
 * when it takes some, and then what it serializes to must read back to
 * itself (a finding otherwise).
 * @param bytes the input
 * @param error the header's reason for a refusal
 */
template <typename H>
void
ReadHeader(const std::string& bytes, std::function<std::string(const H&)> error)
{
    H h;
    if (wantest::DeserializeBytes(std::vector<uint8_t>(bytes.begin(), bytes.end()), h) == 0)
    {
        const auto why = error(h);
        throw std::invalid_argument(why.empty() ? "not a " + H::GetTypeId().GetName() : why);
    }
    std::ostringstream printed;
    h.Print(printed);
    const auto once = wantest::SerializedBytes(h);
    H again;
    if (wantest::DeserializeBytes(once, again) != once.size() ||
        wantest::SerializedBytes(again) != once)
    {
        throw Unstable(H::GetTypeId().GetName() + " does not read back what it writes");
    }
}

/// @return no reason: the header gives none beside refusing
template <typename H>
std::string
NoReason(const H&)
{
    return "";
}

/// @return the input with a PIM checksum over it in bytes 2-3 (so that the
///         fuzzer reaches past the checksum check)
std::string
WithPimChecksum(std::string bytes)
{
    if (bytes.size() >= 4)
    {
        bytes[2] = bytes[3] = 0;
        const uint16_t sum = WanPimHeader::Checksum(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                    static_cast<uint32_t>(bytes.size()));
        bytes[2] = static_cast<char>(sum >> 8);
        bytes[3] = static_cast<char>(sum & 0xff);
    }
    return bytes;
}

/// @brief Reads the options: the first byte picks the reader, the rest is the option's text.
void
ReadOption(const std::string& input)
{
    if (input.empty())
    {
        throw std::invalid_argument("empty input");
    }
    const std::string text = input.substr(1);
    switch (input[0])
    {
    case 'L':
        WanFaultList::ParseLinkFaults(text, "--linkFaults");
        return;
    case 'F':
        WanFaultList::ParseFpgaFaults(text, "--fpgaFaults");
        return;
    case 'A':
        WanFaultList::ParseAbsences(text, "--away");
        return;
    case 'N':
        wantext::ParseNumbers(text, "--hbmGB");
        return;
    case 'M':
        CliqueScheduleBuiltins::SplitMemory(text);
        return;
    case 'C':
        WanNetworkHelper::ParseLinkClass(text);
        return;
    case 'P':
        WanExperimentPlanner::ParseFaultPolicy(text);
        return;
    default:
        throw std::invalid_argument("no option reader '" + wantext::Printable(input.substr(0, 1)) +
                                    "'");
    }
}

/// @return the nine-city topology, read once
const WanTopology&
NineCity()
{
    static const WanTopology topo = WanTopology::NineCity();
    return topo;
}

/// Bytes read in order; past the end, zeros.
class Cursor
{
  public:
    /// @param bytes the input
    explicit Cursor(const std::string& bytes)
        : m_bytes(bytes)
    {
    }

    /// @return whether bytes remain
    bool More() const
    {
        return m_at < m_bytes.size();
    }

    /// @return the next byte
    uint8_t Byte()
    {
        return m_at < m_bytes.size() ? static_cast<uint8_t>(m_bytes[m_at++]) : 0;
    }

    /// @return the next 8 bytes, little-endian
    uint64_t Word()
    {
        uint64_t w = 0;
        for (uint32_t b = 0; b < 8; ++b)
        {
            w |= static_cast<uint64_t>(Byte()) << (8 * b);
        }
        return w;
    }

    /// @return a parity symbol: a word, and a byte as its second coefficient
    ///         (0: an integer, as honest parities of one sender are not)
    WanGaloisRing::Element Symbol()
    {
        const uint64_t first = Word();
        WanGaloisRing::Upper upper{};
        upper[0] = Byte();
        return WanGaloisRing::Join(first, upper);
    }

  private:
    const std::string& m_bytes; //!< the input
    size_t m_at{0};             //!< next byte
};

/// @brief A broken invariant of a decoder (a finding).
/// @param what the invariant
void
Require(bool holds, const std::string& what)
{
    if (!holds)
    {
        throw std::logic_error("decoder invariant broken: " + what);
    }
}

/**
 * @brief Drives WanParityDecoder and FpgaStreamDecoder with what a wire can
 * bring: bytes 0-3 the layout (data chunks per block modulo 17, parity rows
 * modulo 9, chunks of the round modulo 65, FPGA chunks of HBM), then operations, a byte each with
 * its fields: data, first-hand arrivals, parities over any sender set (positions 0 to 7 of which
 * the decoder covers 0 to 3) and symbol, rebuilds under any holding pattern, and the stream
 * decoder's data, parities (any group, block length and rows), expiry and flush.  A layout the code
 * refuses is refused; after each operation the decoders' invariants must hold.
 * @param input the bytes
 */
void
DriveDecoders(const std::string& input)
{
    Cursor in(input);
    // Layouts up to 16 + 8 keep an execution fast (the code's generator
    // and its solves grow with k r and k^3); 0 and rows above the block
    // stay reachable, to be refused.
    const uint32_t block = in.Byte() % 17;
    const uint32_t parities = in.Byte() % 9;
    const uint32_t chunks = in.Byte() % 65;
    const uint64_t capacity = in.Byte();
    const WanParityCode code(chunks, block, parities);
    FpgaStreamDecoder stream(block, parities, capacity, 0.5);
    WanParityDecoder decoder(code, WanSourceSet::FromPositions({0, 1, 2, 3}));
    double now = 0;
    uint64_t rebuiltByStream = 0;
    while (in.More())
    {
        const uint8_t op = in.Byte();
        now += 0.01 * (op >> 4);
        switch (op % 8)
        {
        case 0: {
            const uint32_t chunk = in.Byte();
            decoder.AddData(chunk, static_cast<int64_t>(in.Word()));
            break;
        }
        case 1: {
            const uint32_t chunk = in.Byte();
            decoder.NoteArrival(chunk, WanSourceSet::Of(in.Byte() % 8));
            break;
        }
        case 2: {
            const uint32_t group = in.Byte();
            const uint8_t bits = in.Byte();
            std::vector<bool> set(8);
            for (uint32_t p = 0; p < 8; ++p)
            {
                set[p] = (bits >> p) & 1;
            }
            decoder.AddParity(group, WanSourceSet::FromBits(set), in.Symbol());
            break;
        }
        case 3: {
            const uint32_t b = in.Byte();
            const uint32_t mask = in.Byte() | (in.Byte() << 8);
            const auto rebuilt = decoder.Rebuild(b, [mask](uint32_t c, uint32_t p) {
                return (mask >> ((c * 4 + p) % 16)) & 1;
            });
            const auto inBlock = code.IsEnabled() ? code.BlockChunks(b) : std::vector<uint32_t>{};
            uint32_t last = 0;
            for (size_t i = 0; i < rebuilt.size(); ++i)
            {
                Require(std::count(inBlock.begin(), inBlock.end(), rebuilt[i].chunk) == 1,
                        "a rebuilt chunk outside its block");
                Require(i == 0 || rebuilt[i].chunk > last, "rebuilt chunks not ascending");
                last = rebuilt[i].chunk;
            }
            const auto tally = decoder.Count();
            Require(tally.erasures <= tally.symbols && tally.short_ <= tally.blocks,
                    "more erasures than symbols");
            break;
        }
        case 4: {
            const FpgaChunkId id{in.Byte() % 4u, 0, in.Byte()};
            const uint32_t position = in.Byte() % 8;
            const auto added =
                stream.AddData(id, position, static_cast<int64_t>(in.Word()), op & 0x10, now);
            rebuiltByStream += added.rebuilt.size();
            break;
        }
        case 5: {
            const uint32_t round = in.Byte() % 4;
            const FpgaChunkId id{round, 0, WanParityCode::PARITY_FLAG | in.Byte()};
            const uint32_t position = in.Byte() % 8;
            const uint32_t length = in.Byte();
            const uint32_t rows = in.Byte();
            const auto symbol = in.Symbol();
            const auto rebuilt = stream.AddParity(id, position, length, symbol, now, rows);
            for (const auto& r : rebuilt)
            {
                Require(r.position == position && r.id.round == round &&
                            r.id.chunk / block == WanParityCode::GroupOfParity(id.chunk) / parities,
                        "a chunk rebuilt for another stream or block");
            }
            rebuiltByStream += rebuilt.size();
            break;
        }
        case 6:
            stream.Expire(now);
            stream.TakeLosses();
            break;
        default:
            stream.Flush();
            break;
        }
        Require(stream.GetBuffered() <= capacity, "more chunks in HBM than it holds");
        Require(stream.GetPeakBuffered() <= capacity, "a peak above the HBM");
    }
    stream.Flush();
    const auto& totals = stream.GetTotals();
    Require(totals.erasures <= totals.symbols && totals.short_ <= totals.blocks &&
                totals.evicted <= totals.blocks,
            "stream totals out of their bounds");
    Require(totals.rebuilt == rebuiltByStream, "rebuilt chunks counted other than returned");
}

} // namespace

const std::vector<Target>&
Targets()
{
    static const std::vector<Target> targets{
        {"topology-json",
         "WanTopology::FromJson (a topology file)",
         [](const std::string& s) { WanTopology::FromJson(s); }},
        {"topology-csv",
         "WanTopology::FromCsv (cities.csv, a line ====, core-links.csv)",
         [](const std::string& s) {
             const auto cut = s.find(kCsvSeparator);
             WanTopology::FromCsv(s.substr(0, cut),
                                  cut == std::string::npos ? ""
                                                           : s.substr(cut + kCsvSeparator.size()));
         }},
        {"schedule-json",
         "CliqueSchedule::FromJson (a schedule file, on the nine cities)",
         [](const std::string& s) { CliqueSchedule::FromJson(s, NineCity()); }},
        {"options",
         "the option readers (first byte L link faults, F FPGA faults, A absences, N numbers, "
         "M schedule:GB, C link class, P fault policy)",
         ReadOption},
        {"round-records",
         "WanRoundRecorder::Merge (a rank's saved records)",
         [](const std::string& s) {
             WanRoundRecorder recorder;
             recorder.Merge(s);
         }},
        {"chunk-header",
         "WanChunkHeader::Deserialize",
         [](const std::string& s) { ReadHeader<WanChunkHeader>(s, NoReason<WanChunkHeader>); }},
        {"bfd-header",
         "WanBfdHeader::Deserialize",
         [](const std::string& s) { ReadHeader<WanBfdHeader>(s, NoReason<WanBfdHeader>); }},
        {"pim-header",
         "WanPimHeader::Deserialize (the bytes as they come)",
         [](const std::string& s) {
             ReadHeader<WanPimHeader>(s, [](const WanPimHeader& h) { return h.GetError(); });
         }},
        {"pim-header-checksummed",
         "WanPimHeader::Deserialize (the checksum written over the bytes first)",
         [](const std::string& s) {
             ReadHeader<WanPimHeader>(WithPimChecksum(s),
                                      [](const WanPimHeader& h) { return h.GetError(); });
         }},
        {"decoders",
         "WanParityDecoder and FpgaStreamDecoder (a layout, then data, parities over any sender "
         "set, rebuilds, expiry)",
         DriveDecoders},
    };
    return targets;
}

const Target*
Find(const std::string& name)
{
    for (const auto& t : Targets())
    {
        if (t.name == name)
        {
            return &t;
        }
    }
    return nullptr;
}

Outcome
Run(const Target& target, const uint8_t* data, std::size_t size)
{
    Outcome outcome;
    try
    {
        target.read(std::string(reinterpret_cast<const char*>(data), size));
        outcome.accepted = true;
    }
    catch (const std::invalid_argument& e)
    {
        const std::string message = e.what();
        if (message.empty() || message.find_first_of("\n\r") != std::string::npos ||
            message.size() > kLongestRefusal)
        {
            outcome.finding = "refusal not one line of 1 to " + std::to_string(kLongestRefusal) +
                              " characters: \"" + wantext::Printable(message) + "\" (" +
                              std::to_string(message.size()) + " characters)";
        }
        else
        {
            outcome.refusal = message;
        }
    }
    catch (const std::exception& e)
    {
        outcome.finding = std::string("escaped ") + typeid(e).name() + ": " + e.what();
    }
    catch (...)
    {
        outcome.finding = "escaped an exception that is not a std::exception";
    }
    return outcome;
}

} // namespace wanfuzz
} // namespace ns3
