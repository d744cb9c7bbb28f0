/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-mpi-helper.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/string.h"
#include "ns3/wan-training-text.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"

#include <mpi.h>
#endif

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanMpiHelper");

namespace
{
/// The synchroniser Enable selected.
std::string g_sync;
#ifdef NS3_MPI
/// Simulations prepared since Enable (PrepareSimulation).
uint32_t g_simulations = 0;
/// MPI was started here (Enable), so Disable ends it.
bool g_mpiStarted = false;
#endif
} // namespace

bool
WanMpiHelper::IsBuiltIn()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

void
WanMpiHelper::Enable(int* argc, char*** argv, const std::string& sync)
{
    std::string impl;
    if (sync == "gtw")
    {
        impl = "ns3::DistributedSimulatorImpl";
    }
    else if (sync == "null")
    {
        impl = "ns3::NullMessageSimulatorImpl";
    }
    else
    {
        throw std::invalid_argument("unknown MPI synchroniser \"" + sync +
                                    "\" (expected gtw or null)");
    }
#ifdef NS3_MPI
    g_sync = sync;
    g_simulations = 0;
    GlobalValue::Bind("SimulatorImplementationType", StringValue(impl));
    // MPI itself is started here, not by ns-3, so that ns-3's interface can be
    // restarted for each simulation without ending MPI (PrepareSimulation).
    int started = 0;
    MPI_Initialized(&started);
    if (!started)
    {
        MPI_Init(argc, argv);
        g_mpiStarted = true;
    }
    MpiInterface::Enable(MPI_COMM_WORLD);
    NS_LOG_INFO("rank " << GetRank() << " of " << GetSize() << ", " << impl);
#else
    (void)argc;
    (void)argv;
    throw std::runtime_error("this ns-3 was built without MPI: use the build of "
                             "scripts/setup.sh --mpi and run the program with mpiexec");
#endif
}

void
WanMpiHelper::Disable()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
    if (g_mpiStarted)
    {
        MPI_Finalize();
        g_mpiStarted = false;
    }
#endif
}

void
WanMpiHelper::PrepareSimulation()
{
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled() || g_simulations++ == 0)
    {
        return;
    }
    // The last simulation's end (Simulator::Destroy) freed ns-3's receive
    // buffers: a new interface on a new communicator for this one.
    MpiInterface::Disable();
    MpiInterface::Enable(MPI_COMM_WORLD);
    NS_LOG_INFO("rank " << GetRank() << ": simulation " << g_simulations);
#endif
}

std::string
WanMpiHelper::GetSynchroniser()
{
    return g_sync;
}

bool
WanMpiHelper::IsEnabled()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
WanMpiHelper::GetRank()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
WanMpiHelper::GetSize()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

bool
WanMpiHelper::RunsHere(Ptr<const Node> node)
{
    return node->GetSystemId() == GetRank();
}

bool
WanMpiHelper::IsLocal(const std::vector<uint32_t>& rankOf, uint32_t city)
{
    return rankOf.empty() || rankOf.at(city) == GetRank();
}

namespace
{

/// @return per city its rank: whole regions, the largest first to the least loaded rank
std::vector<uint32_t>
ByRegion(const WanTopology& topo, uint32_t ranks)
{
    const uint32_t n = topo.GetNCities();
    std::vector<uint32_t> rankOf(n, 0);
    // Regions in order of first appearance, the largest first to the
    // least loaded rank.
    std::vector<std::string> order;
    std::map<std::string, std::vector<uint32_t>> members;
    for (uint32_t c = 0; c < n; ++c)
    {
        const auto& region = topo.GetCity(c).region;
        if (members.count(region) == 0)
        {
            order.push_back(region);
        }
        members[region].push_back(c);
    }
    std::stable_sort(order.begin(), order.end(), [&members](const auto& a, const auto& b) {
        return members[a].size() > members[b].size();
    });
    std::vector<uint32_t> cities(ranks, 0); // per rank
    for (const auto& region : order)
    {
        const auto r =
            static_cast<uint32_t>(std::min_element(cities.begin(), cities.end()) - cities.begin());
        for (auto c : members[region])
        {
            rankOf[c] = r;
        }
        cities[r] += static_cast<uint32_t>(members[region].size());
    }
    return rankOf;
}

/// @return per city its rank, from a CODE:RANK comma list naming every city
std::vector<uint32_t>
ByCodes(const WanTopology& topo, uint32_t ranks, const std::string& map)
{
    const uint32_t n = topo.GetNCities();
    std::vector<uint32_t> rankOf(n, 0);
    std::vector<bool> named(n, false);
    for (const auto& item : wantext::SplitList(map))
    {
        const auto colon = item.find(':');
        if (colon == std::string::npos)
        {
            throw std::invalid_argument("partition \"" + item +
                                        "\": expected CODE:RANK, region, city or balanced");
        }
        const auto code = item.substr(0, colon);
        if (!topo.HasCity(code))
        {
            throw std::invalid_argument("partition: unknown city \"" + code + "\"");
        }
        const auto c = topo.FindCity(code);
        const auto rank = wantext::ParseNumber(item.substr(colon + 1), "partition rank");
        if (!(rank >= 0 && rank < ranks) || rank != static_cast<uint32_t>(rank))
        {
            throw std::invalid_argument("partition: rank of " + code + " must be 0 to " +
                                        std::to_string(ranks - 1));
        }
        rankOf[c] = static_cast<uint32_t>(rank);
        named[c] = true;
    }
    for (uint32_t c = 0; c < n; ++c)
    {
        if (!named[c])
        {
            throw std::invalid_argument("partition: no rank for " + topo.GetCity(c).code);
        }
    }
    return rankOf;
}

} // namespace

std::vector<uint32_t>
WanMpiHelper::Partition(const WanTopology& topo,
                        uint32_t ranks,
                        const std::string& map,
                        const WanRankBalancer::Load* load)
{
    const uint32_t n = topo.GetNCities();
    if (ranks < 1 || ranks > n)
    {
        throw std::invalid_argument("partition: " + std::to_string(ranks) + " ranks for " +
                                    std::to_string(n) + " cities (1 to " + std::to_string(n) + ")");
    }
    std::vector<uint32_t> rankOf(n, 0);
    if (map == "city")
    {
        for (uint32_t c = 0; c < n; ++c)
        {
            rankOf[c] = c % ranks;
        }
    }
    else if (map == "region")
    {
        rankOf = ByRegion(topo, ranks);
    }
    else if (map == "balanced")
    {
        if (load == nullptr)
        {
            throw std::invalid_argument(
                "partition: balanced needs the plan of a packet-level run (its load)");
        }
        // The local search (beyond the exhaustive one) starts from whole
        // regions, or from cities in turn when there are fewer regions than
        // ranks.
        std::set<std::string> regions;
        for (uint32_t c = 0; c < n; ++c)
        {
            regions.insert(topo.GetCity(c).region);
        }
        const auto start = Partition(topo, ranks, regions.size() >= ranks ? "region" : "city");
        rankOf = WanRankBalancer::Balance(topo, ranks, *load, start);
    }
    else
    {
        rankOf = ByCodes(topo, ranks, map);
    }
    for (uint32_t r = 0; r < ranks; ++r)
    {
        if (std::count(rankOf.begin(), rankOf.end(), r) == 0)
        {
            throw std::invalid_argument("partition: rank " + std::to_string(r) + " runs no city");
        }
    }
    return rankOf;
}

std::string
WanMpiHelper::Describe(const WanTopology& topo, const std::vector<uint32_t>& rankOf)
{
    std::ostringstream text;
    const uint32_t ranks = rankOf.empty() ? 0 : *std::max_element(rankOf.begin(), rankOf.end()) + 1;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        text << (r > 0 ? " " : "") << "rank " << r << " {";
        std::string sep;
        for (uint32_t c = 0; c < rankOf.size(); ++c)
        {
            if (rankOf[c] == r)
            {
                text << sep << topo.GetCity(c).code;
                sep = ",";
            }
        }
        text << "}";
    }
    text << "; lookahead " << Lookahead(topo, rankOf) * 1e3 << " ms";
    return text.str();
}

double
WanMpiHelper::Lookahead(const WanTopology& topo, const std::vector<uint32_t>& rankOf)
{
    return WanRankBalancer::Lookahead(topo, rankOf);
}

Time
WanMpiHelper::NoticeDelay(const WanTopology& topo,
                          const std::vector<uint32_t>& rankOf,
                          const std::string& sync)
{
    std::map<std::pair<uint32_t, uint32_t>, double> pairs; // ranks -> smallest cut delay
    for (const auto& link : topo.GetLinks())
    {
        const auto ranks = std::minmax(rankOf.at(link.a), rankOf.at(link.b));
        if (ranks.first != ranks.second)
        {
            auto it = pairs.emplace(ranks, link.delay).first;
            it->second = std::min(it->second, link.delay);
        }
    }
    const uint32_t size = rankOf.empty() ? 1 : *std::max_element(rankOf.begin(), rankOf.end()) + 1;
    double delay = 0;
    for (uint32_t r = 0; r < size; ++r)
    {
        for (uint32_t s = r + 1; s < size; ++s)
        {
            auto it = pairs.find({r, s});
            if (it != pairs.end())
            {
                delay = std::max(delay, it->second);
            }
            else if (sync == "null")
            {
                throw std::invalid_argument(
                    "ranks " + std::to_string(r) + " and " + std::to_string(s) +
                    " share no core link: the null-message synchroniser cannot carry "
                    "notices between them (use --mpi=gtw or another partition)");
            }
        }
    }
    return Seconds(delay);
}

void
WanMpiHelper::SendPacket(Ptr<Packet> packet, Time rxTime, Ptr<NetDevice> device)
{
#ifdef NS3_MPI
    MpiInterface::SendPacket(packet, rxTime, device->GetNode()->GetId(), device->GetIfIndex());
#else
    (void)packet;
    (void)rxTime;
    (void)device;
    throw std::logic_error("this ns-3 was built without MPI: no other rank to send to");
#endif
}

void
WanMpiHelper::SetReceiveCallback(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> callback)
{
#ifdef NS3_MPI
    auto receiver = CreateObject<MpiReceiver>();
    receiver->SetReceiveCallback(callback);
    device->AggregateObject(receiver);
#else
    (void)device;
    (void)callback;
    throw std::logic_error("this ns-3 was built without MPI: no other rank to receive from");
#endif
}

std::vector<std::string>
WanMpiHelper::GatherToRoot(const std::string& local)
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled() && MpiInterface::GetSize() > 1)
    {
        const auto comm = MpiInterface::GetCommunicator();
        const int size = static_cast<int>(MpiInterface::GetSize());
        const int rank = static_cast<int>(MpiInterface::GetSystemId());
        int length = static_cast<int>(local.size());
        std::vector<int> lengths(size, 0);
        MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
        std::vector<int> offsets(size, 0);
        int total = 0;
        for (int r = 0; r < size; ++r)
        {
            offsets[r] = total;
            total += lengths[r];
        }
        std::vector<char> all(rank == 0 ? std::max(total, 1) : 1);
        MPI_Gatherv(local.data(),
                    length,
                    MPI_CHAR,
                    all.data(),
                    lengths.data(),
                    offsets.data(),
                    MPI_CHAR,
                    0,
                    comm);
        std::vector<std::string> out;
        if (rank == 0)
        {
            for (int r = 0; r < size; ++r)
            {
                out.emplace_back(all.data() + offsets[r], lengths[r]);
            }
        }
        return out;
    }
#endif
    return {local};
}

void
WanMpiHelper::MergeAtRoot(const std::string& local,
                          const std::function<void(const std::string&)>& merge)
{
    const auto saved = GatherToRoot(local);
    for (size_t r = 1; r < saved.size(); ++r)
    {
        merge(saved[r]);
    }
}

uint64_t
WanMpiHelper::Sum(uint64_t local)
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled() && MpiInterface::GetSize() > 1)
    {
        unsigned long long in = local;
        unsigned long long out = 0;
        MPI_Allreduce(&in,
                      &out,
                      1,
                      MPI_UNSIGNED_LONG_LONG,
                      MPI_SUM,
                      MpiInterface::GetCommunicator());
        return out;
    }
#endif
    return local;
}

} // namespace ns3
