/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-contribution-ledger.h"

#include <stdexcept>

namespace ns3
{

std::string
WanContributionLedger::ToString(Verdict verdict)
{
    switch (verdict)
    {
    case Verdict::ACCEPTED:
        return "accepted";
    case Verdict::REPEATED:
        return "repeated";
    case Verdict::UNKNOWN_ROUND:
        return "unplanned round";
    case Verdict::CHUNK_OUT_OF_RANGE:
        return "chunk out of range";
    case Verdict::BAD_SOURCES:
        return "bad sources";
    }
    return "unknown";
}

void
WanContributionLedger::AddRound(uint32_t round,
                                uint32_t chunks,
                                uint32_t members,
                                uint32_t position)
{
    if (chunks == 0 || members == 0)
    {
        throw std::invalid_argument("round " + std::to_string(round) +
                                    ": a ledger round needs at least one chunk and one member");
    }
    if (position >= members)
    {
        throw std::invalid_argument("round " + std::to_string(round) + ": position " +
                                    std::to_string(position) + " outside a clique of " +
                                    std::to_string(members));
    }
    if (m_rounds.count(round) > 0)
    {
        throw std::invalid_argument("round " + std::to_string(round) + " is in the ledger twice");
    }
    Round r;
    r.chunks = chunks;
    r.members = members;
    r.position = position;
    const auto cells = static_cast<size_t>(chunks) * members;
    r.held.assign(cells, false);
    r.requested.assign(cells, false);
    r.peers.assign(chunks, 0);
    r.account.counters.expected = static_cast<uint64_t>(chunks) * (members - 1);
    r.account.heldPerPosition.assign(members, 0);
    r.account.heldPerPosition[position] = chunks; // its own contribution
    r.account.averaged[0].assign(members, 0);
    r.account.averaged[0][position] = chunks;
    r.account.received = r.account.averaged;
    m_rounds.emplace(round, std::move(r));
}

bool
WanContributionLedger::HasRound(uint32_t round) const
{
    return m_rounds.count(round) > 0;
}

WanContributionLedger::Round*
WanContributionLedger::Find(uint32_t round)
{
    auto it = m_rounds.find(round);
    return it == m_rounds.end() ? nullptr : &it->second;
}

const WanContributionLedger::Round*
WanContributionLedger::Find(uint32_t round) const
{
    auto it = m_rounds.find(round);
    return it == m_rounds.end() ? nullptr : &it->second;
}

WanContributionLedger::Verdict
WanContributionLedger::Offer(uint32_t round,
                             uint32_t chunk,
                             const WanSourceSet& sources,
                             uint32_t contributions,
                             double value,
                             bool pastDeadline)
{
    Round* r = Find(round);
    if (r == nullptr)
    {
        return Verdict::UNKNOWN_ROUND;
    }
    if (chunk >= r->chunks)
    {
        return Verdict::CHUNK_OUT_OF_RANGE;
    }
    auto& account = r->account;
    if (sources.IsEmpty())
    {
        if (contributions == 0)
        {
            return Verdict::BAD_SOURCES;
        }
        // A sum that does not say whom it holds: counted, not audited.
        r->countedOnly = true;
        account.counters.delivered += contributions;
        account.sum += value;
        return Verdict::ACCEPTED;
    }
    if (sources.GetSpan() > r->members || sources.Test(r->position) ||
        sources.Count() != contributions)
    {
        return Verdict::BAD_SOURCES;
    }
    const size_t base = static_cast<size_t>(chunk) * r->members;
    bool repeated = false;
    sources.ForEach([&](uint32_t p) { repeated = repeated || r->held[base + p]; });
    if (repeated)
    {
        ++account.counters.discarded;
        return Verdict::REPEATED;
    }
    sources.ForEach([&](uint32_t p) {
        r->held[base + p] = true;
        ++account.heldPerPosition[p];
        CountArrival(*r, chunk, p, pastDeadline);
    });
    Regroup(*r, chunk, sources);
    account.counters.delivered += contributions;
    account.sum += value;
    if (ChunkComplete(*r, chunk))
    {
        account.givenUpChunks.erase(chunk);
    }
    return Verdict::ACCEPTED;
}

WanContributionLedger::Verdict
WanContributionLedger::OfferOne(uint32_t round,
                                uint32_t chunk,
                                uint32_t position,
                                double value,
                                bool pastDeadline)
{
    const Round* r = Find(round);
    if (r != nullptr && chunk < r->chunks && position >= r->members)
    {
        return Verdict::BAD_SOURCES; // before a set as wide as the position is built
    }
    return Offer(round, chunk, WanSourceSet::Of(position), 1, value, pastDeadline);
}

void
WanContributionLedger::CountArrival(Round& r, uint32_t chunk, uint32_t position, bool pastDeadline)
{
    auto& a = r.account;
    if (r.requested[static_cast<size_t>(chunk) * r.members + position])
    {
        ++a.counters.recovered;
    }
    else if (pastDeadline)
    {
        ++a.counters.late;
        a.lateChunks.insert(chunk);
    }
    if (a.counters.givenUp > 0)
    {
        --a.counters.givenUp; // it came after all
    }
}

void
WanContributionLedger::Regroup(Round& r, uint32_t chunk, const WanSourceSet& added)
{
    const uint32_t before = r.peers[chunk];
    const uint32_t after = before + added.Count();
    r.peers[chunk] = after;
    Move(r.account.received, r, chunk, added, before, after);
    if (!r.givenUp && !r.frozen) // once given up or frozen, it averaged without these
    {
        Move(r.account.averaged, r, chunk, added, before, after);
    }
}

void
WanContributionLedger::Move(WanHeldHistogram& groups,
                            const Round& r,
                            uint32_t chunk,
                            const WanSourceSet& added,
                            uint32_t before,
                            uint32_t after)
{
    auto& from = groups.at(before);
    auto& to = groups[after];
    to.resize(r.members, 0);
    const size_t base = static_cast<size_t>(chunk) * r.members;
    for (uint32_t p = 0; p < r.members; ++p)
    {
        if (p == r.position || r.held[base + p])
        {
            from[p] -= added.Test(p) ? 0 : 1; // held before
            ++to[p];
        }
    }
    if (from[r.position] == 0)
    {
        groups.erase(before);
    }
}

bool
WanContributionLedger::ChunkComplete(const Round& r, uint32_t chunk)
{
    const size_t base = static_cast<size_t>(chunk) * r.members;
    for (uint32_t p = 0; p < r.members; ++p)
    {
        if (p != r.position && !r.held[base + p])
        {
            return false;
        }
    }
    return true;
}

bool
WanContributionLedger::IsComplete(uint32_t round) const
{
    const Round* r = Find(round);
    return r != nullptr && r->account.counters.delivered >= r->account.counters.expected;
}

std::vector<std::pair<uint32_t, uint32_t>>
WanContributionLedger::GetMissing(uint32_t round) const
{
    std::vector<std::pair<uint32_t, uint32_t>> missing;
    const Round* r = Find(round);
    if (r == nullptr || r->countedOnly)
    {
        return missing;
    }
    for (uint32_t c = 0; c < r->chunks; ++c)
    {
        for (uint32_t p : GetMissing(round, c))
        {
            missing.emplace_back(c, p);
        }
    }
    return missing;
}

bool
WanContributionLedger::Holds(uint32_t round, uint32_t chunk, uint32_t position) const
{
    const Round* r = Find(round);
    return r != nullptr && chunk < r->chunks && position < r->members &&
           r->held[static_cast<size_t>(chunk) * r->members + position];
}

bool
WanContributionLedger::IsChunkComplete(uint32_t round, uint32_t chunk) const
{
    const Round* r = Find(round);
    return r != nullptr && chunk < r->chunks && ChunkComplete(*r, chunk);
}

std::vector<uint32_t>
WanContributionLedger::GetMissing(uint32_t round, uint32_t chunk) const
{
    std::vector<uint32_t> missing;
    const Round* r = Find(round);
    if (r == nullptr || r->countedOnly || chunk >= r->chunks)
    {
        return missing;
    }
    const size_t base = static_cast<size_t>(chunk) * r->members;
    for (uint32_t p = 0; p < r->members; ++p)
    {
        if (p != r->position && !r->held[base + p])
        {
            missing.push_back(p);
        }
    }
    return missing;
}

bool
WanContributionLedger::MarkRequested(uint32_t round, uint32_t chunk, uint32_t position)
{
    Round* r = Find(round);
    if (r == nullptr || chunk >= r->chunks || position >= r->members || position == r->position)
    {
        throw std::invalid_argument("round " + std::to_string(round) + " chunk " +
                                    std::to_string(chunk) + " position " +
                                    std::to_string(position) + ": no such contribution to request");
    }
    const size_t cell = static_cast<size_t>(chunk) * r->members + position;
    if (r->requested[cell])
    {
        return false;
    }
    r->requested[cell] = true;
    ++r->account.counters.requested;
    r->account.requestedChunks.insert(chunk);
    return true;
}

void
WanContributionLedger::Freeze(uint32_t round)
{
    auto it = m_rounds.find(round);
    if (it != m_rounds.end())
    {
        it->second.frozen = true;
    }
}

void
WanContributionLedger::GiveUp(uint32_t round)
{
    Round* r = Find(round);
    if (r == nullptr)
    {
        return;
    }
    auto& a = r->account;
    a.givenUpChunks.clear();
    r->givenUp = true;
    if (r->countedOnly)
    {
        a.counters.givenUp = a.counters.expected > a.counters.delivered
                                 ? a.counters.expected - a.counters.delivered
                                 : 0;
        return;
    }
    const auto missing = GetMissing(round);
    a.counters.givenUp = missing.size();
    for (const auto& [chunk, position] : missing)
    {
        a.givenUpChunks.insert(chunk);
    }
}

const WanLedgerAccount&
WanContributionLedger::GetAccount(uint32_t round) const
{
    static const WanLedgerAccount empty;
    const Round* r = Find(round);
    return r == nullptr ? empty : r->account;
}

} // namespace ns3
