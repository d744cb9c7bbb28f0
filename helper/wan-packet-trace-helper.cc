/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-packet-trace-helper.h"

#include "wan-mpi-helper.h"

#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/trace-helper.h"
#include "ns3/wan-training-text.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPacketTraceHelper");

namespace
{

/// Checks that the prefix and every device's trace file (named by the trace
/// helper `Names`) can be written; throws std::invalid_argument naming the file.
template <typename Names>
void
CheckTraceFiles(const std::string& prefix, const NetDeviceContainer& devices)
{
    WanPacketTraceHelper::CheckPrefix(prefix);
    Names names;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        const auto path = names.GetFilenameFromDevice(prefix, devices.Get(i));
        std::ofstream probe(path, std::ios::app); // the trace helper truncates it afterwards
        if (!probe)
        {
            throw std::invalid_argument("cannot write trace file '" + path + "'");
        }
    }
}

} // namespace

WanPacketTraceHelper::WanPacketTraceHelper(const WanTopology& topo)
    : m_topo(topo)
{
}

WanPacketTraceHelper::Selection
WanPacketTraceHelper::Parse(const std::string& items) const
{
    Selection selection;
    const auto list = wantext::SplitList(items);
    if (list.empty())
    {
        throw std::invalid_argument("no links to trace (expected a comma list of core, access, "
                                    "post and city codes)");
    }
    const auto& classes = WanNetworkHelper::GetLinkClassNames();
    for (const auto& item : list)
    {
        if (classes.count(item))
        {
            selection.classes.insert(classes.at(item));
        }
        else if (m_topo.HasCity(item))
        {
            selection.cities.insert(m_topo.FindCity(item));
        }
        else
        {
            std::vector<std::string> codes;
            for (const auto& city : m_topo.GetCities())
            {
                codes.push_back(city.code);
            }
            throw std::invalid_argument("cannot trace \"" + item +
                                        "\": neither a link class (core, access, post) nor a "
                                        "city code (" +
                                        wantext::Join(codes, ", ") + ")");
        }
    }
    return selection;
}

NetDeviceContainer
WanPacketTraceHelper::GetDevices(const WanNetworkHelper& net, const Selection& selection)
{
    const uint32_t n = net.GetIslands().GetN();
    if (n == 0)
    {
        throw std::logic_error("WanNetworkHelper::Install must come before traces");
    }
    std::map<std::pair<uint32_t, uint32_t>, Ptr<NetDevice>> chosen; // (node, device) -> device
    // In a distributed run each rank traces the devices of its own nodes.
    auto add = [&chosen](Ptr<NetDevice> device) {
        if (WanMpiHelper::RunsHere(device->GetNode()))
        {
            chosen[{device->GetNode()->GetId(), device->GetIfIndex()}] = device;
        }
    };
    // The core devices of city c, or of every city (c == n).
    auto addCore = [&net, &add, n](uint32_t c) {
        for (const auto& link : net.GetTopology().GetLinks())
        {
            for (const auto& [from, to] : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
            {
                if (c == n || from == c)
                {
                    add(net.GetCoreDevice(from, to));
                }
            }
        }
    };
    for (auto linkClass : selection.classes)
    {
        if (linkClass == WanNetworkHelper::CORE)
        {
            addCore(n);
            continue;
        }
        for (uint32_t c = 0; c < n; ++c)
        {
            // ACCESS: both links of the city; POST_AGGREGATION: the island's device, the first.
            const auto devices = net.GetAccessDevices(c);
            const uint32_t count = linkClass == WanNetworkHelper::ACCESS ? devices.GetN() : 1;
            for (uint32_t i = 0; i < count; ++i)
            {
                add(devices.Get(i));
            }
        }
    }
    for (auto c : selection.cities)
    {
        if (c >= n)
        {
            throw std::invalid_argument("no city " + std::to_string(c) + " to trace");
        }
        const auto devices = net.GetAccessDevices(c);
        for (uint32_t i = 0; i < devices.GetN(); ++i)
        {
            add(devices.Get(i));
        }
        addCore(c);
    }
    NetDeviceContainer devices;
    for (const auto& [id, device] : chosen)
    {
        devices.Add(device);
    }
    return devices;
}

void
WanPacketTraceHelper::CheckPrefix(const std::string& prefix)
{
    namespace fs = std::filesystem;
    if (prefix.empty())
    {
        throw std::invalid_argument("the trace file prefix is empty");
    }
    const fs::path folder = fs::path(prefix).parent_path();
    std::error_code error;
    if (!folder.empty() && !fs::is_directory(folder, error))
    {
        throw std::invalid_argument("trace file prefix '" + prefix + "': no folder '" +
                                    folder.string() + "'");
    }
}

void
WanPacketTraceHelper::EnablePcap(const WanNetworkHelper& net,
                                 const std::string& prefix,
                                 const Selection& selection)
{
    NS_LOG_FUNCTION(prefix);
    const auto devices = GetDevices(net, selection);
    CheckTraceFiles<PcapHelper>(prefix, devices);
    PointToPointHelper().EnablePcap(prefix, devices);
}

void
WanPacketTraceHelper::EnableAscii(const WanNetworkHelper& net,
                                  const std::string& prefix,
                                  const Selection& selection)
{
    NS_LOG_FUNCTION(prefix);
    const auto devices = GetDevices(net, selection);
    CheckTraceFiles<AsciiTraceHelper>(prefix, devices);
    PointToPointHelper().EnableAscii(prefix, devices);
}

} // namespace ns3
