/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_AGGREGATOR_H
#define FPGA_AGGREGATOR_H

#include "fpga-slot-table.h"
#include "fpga-stream-decoder.h"
#include "wan-chunk-header.h"
#include "wan-mean-deviation.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>

namespace ns3
{

class Socket;
class Packet;
class Ipv4Header;
class WanEdgeRouting;

/**
 * @ingroup wan-training
 * @brief The edge FPGA aggregator: sums the chunks its island's clique peers
 * send, in a finite HBM slot table, and forwards (partial) sums to the island
 * over a sequenced hop with a resend buffer.
 *
 * It listens on DataPort for DATA chunks (multicast trees deliver them to the
 * edge node) and for NACKs from its island.  On an edge node routed by
 * WanEdgeRouting it is in line (InLine, the default): it takes the inbound
 * streams off the wire through the routing's tap, before the node's IP and
 * UDP stack would deliver them to its socket (the same packets at the same
 * instants, without that stack's work per packet); unicast to DataPort
 * (NACKs, repairs, queries) comes through the socket.  Each DATA chunk goes into an
 * FpgaSlotTable; every sum the table forwards (completion, timeout, conflict)
 * leaves as a MERGED packet to Island:IslandPort with the next sequence number
 * and is kept in a resend buffer of ResendBufferPackets packets.  A NACK for a
 * sequence number still in the buffer is answered with the same packet.
 *
 * A QUERY names a chunk its island lacks: a slot holding it is released at
 * once (a "request" eviction, the partial sum goes out), and the QUERY goes
 * back to the island carrying the number of MERGED packets sent so far, so
 * that the island can NACK the tail of the stream.
 *
 * Packets it cannot use (not a chunk header, a kind other than DATA, NACK or QUERY,
 * a chunk that expects no contribution, a sender position outside its
 * clique, anything after Fail) are dropped and reported by the Drop trace
 * source; the island's own outbound stream, which passes through, is
 * ignored without a report.
 *
 * The table has HbmBytes / SlotBytes slots and a slot lifetime of
 * SlotTimeout.  HbmBytes = 0 leaves only a line-rate window: as many slots as
 * LineRate fills in LineRateWindow, and that window as the lifetime.
 *
 * With DecodeBytes > 0 it decodes each sender's parity per stream before it
 * sums (FpgaStreamDecoder, with the islands' ParityBlock and ParityChunks):
 * DecodeBytes of the HBM hold copies of the blocks being decoded (the table
 * has the rest), a lost contribution is rebuilt from its sender's parity
 * and summed like the chunk it replaces, and a copy of a contribution held
 * or rebuilt already is dropped.  The parity is then summed and forwarded as
 * without decoding, so the island decodes what is left end to end.  Each
 * block is reported (StreamBlock) once idle for DecodeTimeout.
 */
class FpgaAggregator : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    FpgaAggregator();
    ~FpgaAggregator() override;

    /** @return the slot table (null before the application starts) */
    const FpgaSlotTable* GetSlotTable() const;
    /** @return MERGED packets sent (first transmissions) */
    uint64_t GetForwarded() const;
    /** @return MERGED packets sent again on request */
    uint64_t GetResent() const;
    /** @return NACKs that named a sequence number no longer buffered */
    uint64_t GetUnanswerableNacks() const;
    /** @return QUERYs received (the island lacked a chunk) */
    uint64_t GetQueries() const;
    /** @return REQUESTs this FPGA sent to senders for contributions its slots lacked */
    uint64_t GetRepairRequests() const;
    /** @return REPORTs this FPGA sent to senders (ReportLoss) */
    uint64_t GetLossReports() const;
    /** @return REPAIRs it received and summed */
    uint64_t GetRepairsIn() const;
    /**
     * @brief The FPGA fails: from now on it drops every packet, answers no
     * NACK and forwards nothing; what its slots held is lost.
     */
    void Fail();
    /**
     * @brief Sets the slot lifetime (the SlotTimeout attribute), also while
     * running: slots opened from then on live that long (with HBM).
     * @param timeout the lifetime
     */
    void SetSlotTimeout(Time timeout);
    /** @return the slot lifetime (SlotTimeout) */
    Time GetSlotTimeout() const;
    /** @return true after Fail */
    bool IsFailed() const;
    /** @return the per-stream decoder (null without DecodeBytes, or before the start) */
    const FpgaStreamDecoder* GetStreamDecoder() const;

    /**
     * @brief TracedCallback signature of an eviction.
     * @param [in] round the chunk's round
     * @param [in] chunk the chunk index
     * @param [in] cause "completion", "timeout", "conflict", "flush" or "request"
     * @param [in] contributions contributions in the forwarded sum
     */
    typedef void (*EvictionTracedCallback)(uint32_t round,
                                           uint32_t chunk,
                                           const std::string& cause,
                                           uint32_t contributions);
    /**
     * @brief TracedCallback signature of the slot occupancy.
     * @param [in] occupied slots in use after a change
     */
    typedef void (*OccupancyTracedCallback)(uint64_t occupied);
    /**
     * @brief TracedCallback signature of a packet dropped.
     * @param [in] packet the packet as received
     * @param [in] reason why it could not be used
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);
    /**
     * @brief TracedCallback signature of a stream block closed.
     * @param [in] block what its stream carried, lost and had rebuilt
     */
    typedef void (*StreamBlockTracedCallback)(const FpgaStreamDecoder::Block& block);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Reads DATA chunks and NACKs.
    void HandleRead(Ptr<Socket> socket);
    /**
     * @brief Handles one packet to DataPort, as its socket or its tap received it.
     * @param packet the UDP payload
     * @param from the sender's address and port
     */
    void Receive(Ptr<Packet> packet, const Address& from);
    /**
     * @brief The in-line tap (WanEdgeRouting::SetInlineTap): takes an inbound
     * UDP datagram to DataPort off the edge node's wire.
     * @param packet the IP payload
     * @param ip its IP header
     * @return whether it was taken (else the node's stack delivers it)
     */
    bool TakeInbound(Ptr<const Packet> packet, const Ipv4Header& ip);
    /// Connects the in-line tap, on an edge node with WanEdgeRouting and InLine.
    void AttachTap();
    /// Disconnects it.
    void DetachTap();
    /**
     * @brief Sums a DATA chunk into the slot table, or drops it.
     * @param packet the packet as received
     * @param header its header
     */
    void Aggregate(Ptr<const Packet> packet, const WanChunkHeader& header);
    /**
     * @param header a sender's chunk (DATA or REPAIR)
     * @return why it cannot be summed, or nullptr when it can
     */
    static const char* Unusable(const WanChunkHeader& header);
    /**
     * @brief Sums one sender's contribution into the slot table and
     * forwards what that releases.
     * @param id the chunk
     * @param value the contribution, fixed point
     * @param bytes the chunk's size
     * @param expected contributions that complete it
     * @param position the sender
     * @param upper a parity symbol's words 1 to 7 (zeros for data)
     */
    void Sum(const FpgaChunkId& id,
             int64_t value,
             uint32_t bytes,
             uint32_t expected,
             uint32_t position,
             const WanGaloisRing::Upper& upper = WanGaloisRing::Upper{});
    /**
     * @brief Decodes a sender's chunk per stream (with DecodeBytes): sums
     * what its arrival rebuilds.
     * @param packet the packet as received
     * @param header its header (DATA or REPAIR)
     * @param firstHand true when it came on the stream
     * @param from where it came from (where a REPORT goes)
     * @return false when it repeats a contribution held or rebuilt (dropped)
     */
    bool Decode(Ptr<const Packet> packet,
                const WanChunkHeader& header,
                bool firstHand,
                const Address& from);
    /**
     * @brief Sends the losses the stream decoder measured to the stream's
     * sender (with ReportLoss; dropped otherwise).
     * @param to the sender, where its chunks came from
     */
    void ReportLosses(const Address& to);
    /// Reports the stream blocks idle for DecodeTimeout and re-arms the timer.
    void ExpireStreams();
    /**
     * @brief Follows a sender's stream (in-network repair): its slots a
     * ReorderWindow or more chunks back that still lack it are asked for.
     * @param header a DATA chunk's header
     * @param from where it came from (where a REQUEST goes)
     */
    void Watch(const WanChunkHeader& header, const Address& from);
    /**
     * @brief Asks a sender for its contribution to a chunk a slot holds
     * without it, and keeps the slot until the repair is due.
     * @param id the chunk
     * @param position the sender's position
     * @param to the sender
     */
    void RequestRepair(const FpgaChunkId& id, uint32_t position, const Address& to);
    /**
     * @brief A repair did not come in time: the slot goes to the island as
     * it is (a "request" eviction), which recovers the rest end to end.
     * @param id the chunk
     * @param position the sender
     */
    void RepairDue(const FpgaChunkId& id, uint32_t position);
    /**
     * @brief Releases a chunk whose repair was late, once none is awaited.
     * @param id the chunk
     */
    void ReleaseLate(const FpgaChunkId& id);
    /** @return true while a repair of the chunk is awaited */
    bool Repairing(const FpgaChunkId& id) const;
    /**
     * @brief Reports a packet that cannot be used.
     * @param packet the packet as received
     * @param reason why
     */
    void Drop(Ptr<const Packet> packet, const std::string& reason);
    /// Sends the table's output to the island.
    void Forward(const std::vector<FpgaPartialSum>& sums);
    /// Answers a NACK.
    void Resend(uint32_t sequence);
    /**
     * @brief Answers a QUERY: releases the chunk's slot and tells the island
     * how many MERGED packets were sent.
     * @param query the QUERY's header
     */
    void Answer(const WanChunkHeader& query);
    /// Evicts timed-out slots and re-arms the timer.
    void Expire();
    /// Arms the timer for the table's next expiry.
    void ScheduleExpiry();
    /// Signals liveness to the edge (the Heartbeat trace) and schedules the next.
    void Heartbeat();

    bool m_failed{false};      //!< failed: drops everything
    uint16_t m_port;           //!< DATA and NACK port
    Ipv4Address m_island;      //!< the island's address
    uint16_t m_islandPort;     //!< the island's port for MERGED packets
    uint64_t m_hbmBytes;       //!< HBM size
    uint32_t m_slotBytes;      //!< bytes per slot
    Time m_timeout;            //!< slot lifetime with HBM
    DataRate m_lineRate;       //!< rate of the line-rate window
    Time m_window;             //!< line-rate window
    uint32_t m_resendCapacity; //!< resend buffer size, packets
    uint64_t m_decodeBytes;    //!< HBM for per-stream decoding (0: none)
    uint32_t m_parityBlock;    //!< data chunks per parity block (the islands')
    uint32_t m_parityChunks;   //!< parity chunks per block (the islands')
    Time m_decodeTimeout;      //!< idle time that closes a stream block
    bool m_reportLoss;         //!< REPORT each block's loss to its sender
    uint64_t m_lossReports{0}; //!< REPORTs sent

    Ptr<Socket> m_socket;                         //!< receives DATA and NACK, sends MERGED
    bool m_inLine;                                //!< take inbound streams off the wire
    Ptr<WanEdgeRouting> m_edge;                   //!< whose tap this is (or null)
    std::unique_ptr<FpgaSlotTable> m_table;       //!< HBM
    std::unique_ptr<FpgaStreamDecoder> m_decoder; //!< per-stream decoding (or null)
    EventId m_decodeEvent;                        //!< next stream block expiry
    EventId m_expiryEvent;                        //!< next timeout check
    Time m_expiryAt;                              //!< when m_expiryEvent fires
    uint32_t m_nextSequence{0};                   //!< next MERGED sequence number

    /// A MERGED packet sent, as kept for resending: its header and payload size.
    struct Sent
    {
        WanChunkHeader header; //!< the MERGED header
        uint32_t bytes;        //!< the payload's size
    };

    std::deque<Sent> m_resendBuffer; //!< last packets sent, oldest first
    uint32_t m_firstBuffered{0};     //!< sequence number of the oldest
    uint64_t m_forwarded{0};         //!< MERGED packets sent
    uint64_t m_resent{0};            //!< packets resent
    uint64_t m_unanswerable{0};      //!< NACKs too late for the buffer
    uint64_t m_queries{0};           //!< QUERYs received
    bool m_repairInNetwork;          //!< ask senders for what slots lack
    uint32_t m_reorderWindow;        //!< chunks a later arrival must lead by
    Time m_repairTimeout;            //!< wait for a repair, before any is measured
    /// (round, clique, position) -> the sender's next chunk to check
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> m_streams;
    /// (round, clique, chunk, position) -> when its repair was asked for
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, Time> m_repairs;
    std::map<Address, WanMeanDeviation> m_repairRtt; //!< request-to-repair time per sender
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> m_late; //!< chunks a repair was late for
    uint64_t m_repairRequests{0};                              //!< REQUESTs sent
    uint64_t m_repairsIn{0};                                   //!< REPAIRs summed

    /// Every eviction, with its cause.
    TracedCallback<uint32_t, uint32_t, const std::string&, uint32_t> m_evictionTrace;
    /// Slot occupancy after each change.
    TracedCallback<uint64_t> m_occupancyTrace;
    /// MERGED packets forwarded to the island.
    TracedCallback<Ptr<const Packet>> m_forwardTrace;
    /// MERGED packets resent on a NACK.
    TracedCallback<Ptr<const Packet>> m_resendTrace;
    /// Packets that could not be used, and why.
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;
    /// Stream blocks closed.
    TracedCallback<const FpgaStreamDecoder::Block&> m_streamBlockTrace;
    /// The most slots ever in use at once.
    TracedValue<uint64_t> m_peakOccupancy{0};
    Time m_heartbeatInterval;          //!< liveness heartbeat interval (0: none)
    EventId m_heartbeatEvent;          //!< next heartbeat
    TracedCallback<> m_heartbeatTrace; //!< the FPGA is alive
};

} // namespace ns3

#endif /* FPGA_AGGREGATOR_H */
