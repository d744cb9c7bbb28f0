/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-fuzz-targets.h"

#include "../wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule.h"
#include "ns3/wan-bfd-header.h"
#include "ns3/wan-chunk-header.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-fault-list.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-pim-header.h"
#include "ns3/wan-round-recorder.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-training-text.h"

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
