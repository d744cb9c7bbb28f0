/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parameter-server.h"

#include "wan-contribution.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

WanParameterServer::WanParameterServer(uint32_t members,
                                       uint32_t server,
                                       uint32_t position,
                                       std::vector<int64_t> own)
    : m_members(members),
      m_server(server),
      m_position(position),
      m_own(std::move(own))
{
    if (m_members < 2)
    {
        throw std::invalid_argument("parameter server: " + std::to_string(m_members) +
                                    " member(s), need at least 2");
    }
    if (m_server >= m_members || m_position >= m_members)
    {
        throw std::invalid_argument("parameter server: position " +
                                    std::to_string(std::max(m_server, m_position)) + " among " +
                                    std::to_string(m_members) + " members");
    }
    if (m_own.empty())
    {
        throw std::invalid_argument("parameter server: no chunk to reduce");
    }
    if (IsServer())
    {
        m_sums = m_own;
        m_in.assign(m_own.size(), 1);
        m_seen.assign(static_cast<size_t>(m_members) * m_own.size(), false);
    }
    else
    {
        m_sums.assign(m_own.size(), 0);
        m_seen.assign(m_own.size(), false);
    }
}

uint32_t
WanParameterServer::GetMembers() const
{
    return m_members;
}

uint32_t
WanParameterServer::GetChunks() const
{
    return static_cast<uint32_t>(m_own.size());
}

bool
WanParameterServer::IsServer() const
{
    return m_position == m_server;
}

std::vector<WanParameterServer::Record>
WanParameterServer::Start() const
{
    std::vector<Record> records;
    if (!IsServer())
    {
        for (uint32_t c = 0; c < m_own.size(); ++c)
        {
            records.push_back(Record{0, c, m_own[c]});
        }
    }
    return records;
}

void
WanParameterServer::Check(uint32_t from, const Record& record, uint32_t step) const
{
    if (from >= m_members || from == m_position || (!IsServer() && from != m_server))
    {
        throw std::invalid_argument("parameter server: a record from member " +
                                    std::to_string(from) + ", which does not send to member " +
                                    std::to_string(m_position));
    }
    if (record.step != step)
    {
        throw std::invalid_argument("parameter server: step " + std::to_string(record.step) +
                                    " at the " + (IsServer() ? "server" : "worker") +
                                    " (it takes in step " + std::to_string(step) + ")");
    }
    if (record.chunk >= m_own.size())
    {
        throw std::invalid_argument("parameter server: chunk " + std::to_string(record.chunk) +
                                    " of " + std::to_string(m_own.size()));
    }
}

std::vector<WanParameterServer::Record>
WanParameterServer::Receive(uint32_t from, const Record& record)
{
    Check(from, record, IsServer() ? 0 : 1);
    const uint32_t c = record.chunk;
    const size_t seen = IsServer() ? static_cast<size_t>(from) * m_own.size() + c : c;
    if (m_seen[seen])
    {
        throw std::invalid_argument("parameter server: chunk " + std::to_string(c) +
                                    " came twice from member " + std::to_string(from));
    }
    m_seen[seen] = true;
    if (!IsServer())
    {
        m_sums[c] = record.value;
        ++m_done;
        return {};
    }
    m_sums[c] = WanContribution::Add(m_sums[c], record.value);
    if (++m_in[c] < m_members)
    {
        return {};
    }
    ++m_done;
    return {Record{1, c, m_sums[c]}};
}

bool
WanParameterServer::IsComplete() const
{
    return m_done == m_own.size();
}

uint32_t
WanParameterServer::GetDone() const
{
    return m_done;
}

const std::vector<int64_t>&
WanParameterServer::GetSums() const
{
    return m_sums;
}

} // namespace ns3
