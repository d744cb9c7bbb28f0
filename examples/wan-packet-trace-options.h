/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PACKET_TRACE_OPTIONS_H
#define WAN_PACKET_TRACE_OPTIONS_H

// What the packet-level programs (nine-city-cliques, wan-impairments) share:
// the packet trace options --pcap, --ascii, --tracePrefix and --traceLinks
// (switches and a prefix, as ns-3's examples have them: no option needs an
// empty value, which ns-3's command line refuses), their checks, and each
// run's file names.

#include "ns3/clique-experiment-helper.h"
#include "ns3/command-line.h"
#include "ns3/packet.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-topology.h"

#include <cctype>
#include <stdexcept>
#include <string>

namespace wantrace
{

/// The packet trace options of a packet-level program.
struct PacketTraceOptions
{
    bool pcap{false};                      //!< write pcap files
    bool ascii{false};                     //!< write ASCII traces
    std::string prefix{"wan-training"};    //!< the files' prefix, with its folder
    std::string links{"core,access,post"}; //!< link classes and cities to trace

    /**
     * @brief Declares --pcap, --ascii, --tracePrefix and --traceLinks.
     * @param cmd the program's command line
     */
    void AddTo(ns3::CommandLine& cmd)
    {
        cmd.AddValue("pcap",
                     "Packet-level: write pcap files PREFIX-<run>-<node>-<device>.pcap of the "
                     "traceLinks",
                     pcap);
        cmd.AddValue("ascii",
                     "Packet-level: write ns-3 ASCII traces PREFIX-<run>-<node>-<device>.tr of "
                     "the traceLinks",
                     ascii);
        cmd.AddValue("tracePrefix",
                     "Packet-level: PREFIX of the pcap files and ASCII traces (a folder in it "
                     "must exist)",
                     prefix);
        cmd.AddValue("traceLinks",
                     "Packet-level: devices traced: comma list of link classes (core, access, "
                     "post) and city codes",
                     links);
    }

    /**
     * @brief Checks the options before anything runs; throws
     * std::invalid_argument naming the option.
     * @param topo the topology of the runs
     */
    void Check(const ns3::WanTopology& topo) const
    {
        if (pcap || ascii)
        {
            Named("--tracePrefix", [this] { ns3::WanPacketTraceHelper::CheckPrefix(prefix); });
        }
        Named("--traceLinks", [this, &topo] { ns3::WanPacketTraceHelper(topo).Parse(links); });
    }

    /**
     * @brief Asks an experiment for the traces of one run, its files named
     * PREFIX-<run>-<node>-<device>; ASCII traces turn on packet printing, so
     * that their lines show the headers.
     * @param experiment the run's experiment
     * @param run what the run is, e.g. "triangles, no FPGA" (becomes
     *        "triangles-no-fpga")
     */
    void Apply(ns3::CliqueExperimentHelper& experiment, const std::string& run) const
    {
        if (!pcap && !ascii)
        {
            return;
        }
        if (ascii)
        {
            ns3::Packet::EnablePrinting(); // before the first packet of the program
        }
        const std::string name = prefix + "-" + Tag(run);
        experiment.EnablePacketTraces(pcap ? name : "", ascii ? name : "", links);
    }

    /**
     * @param run what a run is
     * @return it as a file name part: lower case letters, digits and dots,
     *         each other run of characters a '-'
     */
    static std::string Tag(const std::string& run)
    {
        std::string tag;
        for (unsigned char c : run)
        {
            if (std::isalnum(c) || c == '.')
            {
                tag += static_cast<char>(std::tolower(c));
            }
            else if (!tag.empty() && tag.back() != '-')
            {
                tag += '-';
            }
        }
        while (!tag.empty() && tag.back() == '-')
        {
            tag.pop_back();
        }
        return tag;
    }

  private:
    /// Runs a check, its error message prefixed by the option's name.
    template <typename Check>
    static void Named(const std::string& option, Check check)
    {
        try
        {
            check();
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(option + ": " + e.what());
        }
    }
};

} // namespace wantrace

#endif /* WAN_PACKET_TRACE_OPTIONS_H */
