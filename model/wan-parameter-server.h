/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARAMETER_SERVER_H
#define WAN_PARAMETER_SERVER_H

#include "wan-collective-record.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One member's part of a synchronous parameter-server exchange, as
 * data-parallel training across sites ran before rings (and still does where
 * one site holds the model): the logic, without sockets, that
 * WanParameterServerApplication carries over TCP.
 *
 * N members each hold a value for each of C chunks; one of them, the
 * server, also holds the model. Every other member, a worker, sends its
 * value of every chunk to the server (step 0). The server adds each worker's
 * value to its own; once all N values of a chunk are in, it holds the
 * chunk's sum and sends it to every worker (step 1), chunk by chunk as sums
 * complete (pipelined: sums go back while other chunks still come in). A
 * worker completes when it holds every chunk's sum, the server when it has
 * summed every chunk. Sums are fixed-point integers added with wrap-around
 * (WanContribution), exact in any order; the average a server applies is the
 * sum over N, a scaling left out here.
 *
 * The server's access link carries (N - 1) x D in and (N - 1) x D out: the
 * incast the ring and the paper's trees avoid. A record that repeats a
 * worker's chunk, comes to a worker from anyone but the server, or names a
 * step or chunk that does not fit, is refused, so a run that completes has
 * lost and counted twice nothing.
 */
class WanParameterServer
{
  public:
    /// A chunk's value on its way: what one record on the wire carries.
    using Record = WanCollectiveRecord;

    /**
     * @param members N, at least 2
     * @param server the server's position, below N
     * @param position this member's, below N
     * @param own this member's value of each chunk (C = its size, at least 1)
     * @throws std::invalid_argument naming the bad value
     */
    WanParameterServer(uint32_t members,
                       uint32_t server,
                       uint32_t position,
                       std::vector<int64_t> own);

    /** @return N */
    uint32_t GetMembers() const;
    /** @return C */
    uint32_t GetChunks() const;
    /** @return true when this member is the server */
    bool IsServer() const;

    /** @return a worker's step-0 records (its own values, in chunk order); none for the server */
    std::vector<Record> Start() const;
    /**
     * @brief A record from another member.
     * @param from its position
     * @param record what came
     * @return for the server, the sum to send to every worker when this
     *         record completes a chunk (else none); for a worker, none
     * @throws std::invalid_argument when it repeats a chunk, comes from a
     *         member that does not send to this one, or names a step or
     *         chunk that does not fit (a corrupt stream)
     */
    std::vector<Record> Receive(uint32_t from, const Record& record);

    /** @return true when the sum of every chunk is held */
    bool IsComplete() const;
    /** @return chunks whose whole sum is held */
    uint32_t GetDone() const;
    /** @return the sums (valid where held: all of them once complete) */
    const std::vector<int64_t>& GetSums() const;

  private:
    /**
     * @param from the sender's position
     * @param record its record
     * @param step the step this member takes in
     * @throws std::invalid_argument unless it fits
     */
    void Check(uint32_t from, const Record& record, uint32_t step) const;

    uint32_t m_members;          //!< N
    uint32_t m_server;           //!< the server's position
    uint32_t m_position;         //!< this member's
    std::vector<int64_t> m_own;  //!< own values
    std::vector<int64_t> m_sums; //!< sums so far (the server's) or held
    std::vector<uint32_t> m_in;  //!< per chunk: values in (the server's, its own counted)
    std::vector<bool> m_seen;    //!< per sender and chunk (row-major): received
    uint32_t m_done{0};          //!< whole sums held
};

} // namespace ns3

#endif /* WAN_PARAMETER_SERVER_H */
