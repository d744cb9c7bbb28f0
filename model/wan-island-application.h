/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ISLAND_APPLICATION_H
#define WAN_ISLAND_APPLICATION_H

#include "wan-chunk-header.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <map>
#include <set>
#include <vector>

namespace ns3
{

class Socket;
class Packet;

/**
 * \ingroup wan-training
 * \brief What an island does in one round: send its state to its clique,
 * paced at the clique rate from its planned offset, and expect its peers'.
 */
struct WanIslandRound
{
    uint32_t round{0};                 //!< round number
    uint16_t clique{0};                //!< clique index in the round
    uint16_t sender{0};                //!< this island's city index
    Time start;                        //!< round start
    Time offset;                       //!< planned sender offset
    DataRate rate;                     //!< clique stream rate (per copy)
    uint64_t payloadBytes{0};          //!< model state D (already scaled)
    std::vector<Address> destinations; //!< the group, or one address per peer
    uint16_t peers{0};                 //!< clique members besides this island
    double value{0};                   //!< this island's contribution per chunk
    uint8_t position{0};               //!< this island's position in its clique (ascending)
    std::vector<Address> peerIslands;  //!< members' islands by position (empty: which peers
                                       //!< a sum holds is not tracked, no deadline)
    Time deadline;                     //!< after the start: when missing chunks are handled
                                       //!< (0: never)
};

/**
 * \ingroup wan-training
 * \brief Per-round measurements of one island.
 */
struct WanIslandRecord
{
    uint32_t round{0};                  //!< round number
    Time start;                         //!< round start
    Time completion;                    //!< when the last expected contribution arrived (0: never)
    uint64_t bytesOut{0};               //!< bytes sent (UDP payload incl. chunk header)
    uint64_t bytesIn{0};                //!< bytes received (likewise)
    uint64_t packetsIn{0};              //!< packets received (first copies)
    uint64_t partialSums{0};            //!< merged packets holding fewer than all peers
    uint64_t nacks{0};                  //!< NACKs sent
    uint64_t retransmissions{0};        //!< resent packets received
    uint64_t contributions{0};          //!< peer contributions received
    uint64_t expectedContributions{0};  //!< peers x chunks
    double sum{0};                      //!< sum of the values received
    uint64_t late{0};                   //!< contributions that came after the deadline unasked
    uint64_t requested{0};              //!< contributions re-requested from their senders
    uint64_t requests{0};               //!< REQUEST packets sent (retries included)
    uint64_t recovered{0};              //!< re-requested contributions that arrived
    uint64_t givenUp{0};                //!< contributions never received
    uint64_t discarded{0};              //!< sums discarded: they repeated a contribution
    uint64_t repairsSent{0};            //!< chunks this island resent to a peer that asked
    std::set<uint32_t> lateChunks;      //!< chunks with a contribution after the deadline, unasked
    std::set<uint32_t> requestedChunks; //!< chunks with a re-requested contribution
    std::set<uint32_t> givenUpChunks;   //!< chunks still lacking a contribution at the end
};

/**
 * \ingroup wan-training
 * \brief An island of compute: sender and receiver in one.
 *
 * For each planned round it sends ceil(D / ChunkBytes) chunks, each with a
 * WanChunkHeader carrying the value `value x (chunk + 1)`, paced so that
 * every destination's stream runs at the clique rate on the wire, starting at
 * start + offset.  It receives either its FPGA's MERGED stream (aggregation)
 * or its peers' DATA chunks (no aggregation) on MergedPort, adds the values,
 * and records, per round, when all its peers' contributions were in.  Gaps in
 * the MERGED sequence numbers are asked for again from the FPGA with a NACK
 * after NackDelay.
 *
 * Every sum says which peers it holds (WanChunkHeader sources, one bit per
 * position in the clique), so a contribution is never counted twice: a sum
 * that repeats one already held is discarded.  At the round's deadline the
 * contributions still missing (lost in the WAN, or at the tail of the MERGED
 * stream where no NACK can see them) are handled by the Recovery policy:
 * "accept" gives them up (the next round's state supersedes them), and
 * "rerequest" asks each missing sender for the chunk over a unicast side
 * channel (REQUEST), which answers with a REPAIR straight to this island;
 * unanswered requests are repeated every RequestTimeout, MaxRequests times,
 * then given up.  Re-requests need cliques of at most 32 islands.
 */
class WanIslandApplication : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    WanIslandApplication();
    ~WanIslandApplication() override;

    /**
     * \brief Plans a round (call before the simulation runs).
     * \param round what to send and expect
     */
    void AddRound(const WanIslandRound& round);
    /** \return the records of the planned rounds, by round number */
    const std::map<uint32_t, WanIslandRecord>& GetRecords() const;
    /**
     * \param payloadBytes D
     * \param chunkBytes payload per chunk
     * \return the number of chunks of a state of D bytes
     */
    static uint32_t ChunkCount(uint64_t payloadBytes, uint32_t chunkBytes);

    /**
     * \brief TracedCallback signature of a completed round.
     * \param [in] round the round number
     * \param [in] duration from round start to the last contribution
     */
    typedef void (*RoundCompleteTracedCallback)(uint32_t round, Time duration);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Sends the next chunk of a round and schedules the one after.
    void SendChunk(uint32_t index, uint32_t chunk);
    /// Receives MERGED or DATA packets.
    void HandleRead(Ptr<Socket> socket);
    /// Asks the FPGA for sequence numbers still missing.
    void SendNacks();
    /**
     * \brief At a round's deadline: re-request or give up the contributions
     * still missing.
     * \param index the round
     * \param attempt how many times this round was checked before
     */
    void CheckRound(uint32_t index, uint32_t attempt);
    /**
     * \param r a round
     * \param chunk a chunk index
     * \param kind DATA, or REPAIR when resent on request
     * \return the chunk's packet: this island's contribution, with its header
     */
    Ptr<Packet> MakeChunk(const WanIslandRound& r, uint32_t chunk, WanChunkHeader::Kind kind) const;
    /**
     * \param r a round
     * \return the bits of all this island's peers in its clique
     */
    static uint32_t AllPeers(const WanIslandRound& r);
    /**
     * \brief Asks a peer to resend one chunk to this island.
     * \param index the round
     * \param chunk the chunk
     * \param position the peer's position in the clique
     */
    void SendRequest(uint32_t index, uint32_t chunk, uint32_t position);
    /**
     * \brief Resends one chunk to the peer that asked for it.
     * \param h the REQUEST
     * \param from the peer
     */
    void Repair(const WanChunkHeader& h, const Address& from);
    /**
     * \brief Counts a received sum unless it repeats a contribution.
     * \param h its header
     * \param size its bytes
     */
    void Accept(const WanChunkHeader& h, uint32_t size);

    uint16_t m_dataPort;   //!< destination port of DATA chunks
    uint16_t m_mergedPort; //!< port this island listens on
    uint32_t m_chunkBytes; //!< payload bytes per chunk
    uint32_t m_overhead;   //!< wire bytes per packet beyond the UDP payload
    Ipv4Address m_fpga;    //!< where NACKs go
    Time m_nackDelay;      //!< wait before asking for a gap

    Ptr<Socket> m_socket;                          //!< sends DATA and NACK, receives MERGED
    Ptr<Socket> m_dataSocket;                      //!< receives peers' DATA (no FPGA)
    std::vector<WanIslandRound> m_rounds;          //!< planned rounds
    std::vector<EventId> m_sendEvents;             //!< pending sends, one per round
    std::map<uint32_t, WanIslandRecord> m_records; //!< per round
    std::set<uint32_t> m_seen;                     //!< MERGED sequence numbers received
    uint32_t m_nextExpected{0};                    //!< lowest sequence not yet seen
    uint32_t m_lastRound{0};                       //!< round of the last MERGED packet
    std::set<uint32_t> m_missing;                  //!< gaps waiting for a NACK
    EventId m_nackEvent;                           //!< pending NACK
    std::map<uint32_t, uint32_t> m_nackAttempts;   //!< NACKs sent per missing sequence
    std::string m_recovery;                        //!< "accept" or "rerequest"
    Time m_requestTimeout;                         //!< wait for a repair before asking again
    uint32_t m_maxRequests;                        //!< requests per contribution before giving up
    std::map<uint32_t, std::vector<uint32_t>> m_received; //!< round -> per chunk, senders held
    std::map<uint32_t, uint32_t> m_roundIndex;            //!< round -> index in m_rounds
    std::vector<EventId> m_checkEvents;                   //!< pending deadline checks
    std::map<std::pair<uint32_t, uint64_t>, Time>
        m_asked; //!< (round, chunk x 32 + position) -> last request

    /// A round's last contribution arrived.
    TracedCallback<uint32_t, Time> m_roundCompleteTrace;
    /// A packet was sent.
    TracedCallback<Ptr<const Packet>> m_txTrace;
    /// A packet was received.
    TracedCallback<Ptr<const Packet>> m_rxTrace;
};

} // namespace ns3

#endif /* WAN_ISLAND_APPLICATION_H */
