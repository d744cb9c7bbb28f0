/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ISLAND_APPLICATION_H
#define WAN_ISLAND_APPLICATION_H

#include "wan-chunk-header.h"
#include "wan-contribution-ledger.h"
#include "wan-early-recovery.h"
#include "wan-loss-estimator.h"
#include "wan-parity-code.h"
#include "wan-parity-decoder.h"
#include "wan-recovery-round-trips.h"
#include "wan-repair-queue.h"
#include "wan-round-counters.h"
#include "wan-sequence-tracker.h"

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class Socket;
class Packet;

/**
 * @ingroup wan-training
 * @brief What an island does in one round: send its state to its clique,
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
    double value{0};                   //!< this island's value (WanContribution)
    uint16_t position{0};              //!< this island's position in its clique (ascending)
    std::vector<Address> peerIslands;  //!< members' islands by position, where REQUESTs go
                                       //!< (empty: missing contributions cannot be re-requested)
    Time deadline;                     //!< after the start: when missing chunks are handled
                                       //!< (0: never)
    std::vector<Time> arrivals;        //!< by position: planned arrival of the first bit of each
                                       //!< member's stream at this island's FPGA (or at the island
                                       //!< without one), after the start; empty: no early repair
    std::vector<Time> peerDelays;      //!< by position: one-way latency from that member
    bool viaFpga{false};               //!< the peers' chunks reach this island as MERGED sums
};

/**
 * @ingroup wan-training
 * @brief Per-round account of one island: its counters, its sum and what
 * became of the chunks it lacked.
 */
struct WanIslandRecord : WanRoundCounters
{
    uint32_t round{0};                  //!< round number
    uint16_t clique{0};                 //!< clique index in the round
    uint16_t sender{0};                 //!< this island's city index
    uint16_t peers{0};                  //!< clique members besides this island
    double value{0};                    //!< this island's value (WanContribution)
    uint32_t chunks{0};                 //!< chunks per state
    Time start;                         //!< round start
    Time completion;                    //!< when the last expected contribution arrived (0: never)
    double sum{0};                      //!< sum of the values received
    std::set<uint32_t> lateChunks;      //!< chunks with a contribution after the deadline, unasked
    std::set<uint32_t> requestedChunks; //!< chunks with a re-requested contribution
    std::set<uint32_t> givenUpChunks;   //!< chunks still lacking a contribution at the end
    std::vector<uint32_t> heldPerPosition; //!< per clique position, chunks holding its contribution
    WanHeldHistogram averaged;             //!< what it averaged (WanLedgerAccount::averaged)
    WanHeldHistogram received; //!< what it received by the end (WanLedgerAccount::received)
};

/**
 * @ingroup wan-training
 * @brief An island of compute: sender and receiver in one, thin around a
 * WanContributionLedger (whose contributions it holds), a
 * WanSequenceTracker (the gaps of its FPGA's MERGED stream) and, for
 * recovery, a WanRepairQueue (the repairs it owes), a WanEarlyRecovery per
 * round (what is overdue and what was asked) and WanRecoveryRoundTrips (how
 * long its NACKs, QUERYs and REQUESTs take to be answered).  It keeps the
 * sockets, the timers and the trace sources; those classes decide.
 *
 * For each planned round it sends ceil(D / ChunkBytes) chunks, each with a
 * WanChunkHeader carrying its contribution (WanContribution::Value), paced
 * so that every destination's stream runs at the clique rate on the wire,
 * starting at start + offset.  It receives either its FPGA's MERGED stream
 * (aggregation) or its peers' DATA chunks (no aggregation), on MergedPort
 * and DataPort, and offers each to the ledger, which accepts it unless it
 * repeats a contribution already held.  Gaps in the MERGED sequence are
 * asked for again from the FPGA with a NACK every NackDelay, at most
 * MaxNacks times each.
 *
 * At the round's deadline the contributions still missing (lost in the WAN,
 * or at the tail of the MERGED stream where no NACK can see them) are
 * handled by the Recovery policy: ACCEPT gives them up (the next round's
 * state supersedes them; with the plan's arrivals it does so as soon as the
 * last chunk is overdue, see below, rather than at the deadline), and REREQUEST asks each missing
 * sender for the chunk over a unicast side channel (REQUEST), which answers with a REPAIR straight
 * to this island; unanswered requests are repeated every RequestTimeout, MaxRequests times, then
 * given up.
 *
 * EARLY does not wait for the deadline.  A sender's contribution to a chunk
 * is overdue once its contribution to a chunk ReorderWindow places later
 * has arrived (a DATA chunk, or a MERGED sum naming it), as TCP's RACK
 * infers loss from later deliveries: queues delay both alike, so they do not
 * fool it.  At the tail, where nothing later comes, time tells: a
 * WanOverdueClock per round (in its WanEarlyRecovery) knows from the plan
 * (WanIslandRound::arrivals) when each chunk should be complete and, from
 * the lateness of the chunks that came, a margin; a tail chunk still incomplete past its time plus
 * the margin is overdue.  An overdue chunk is asked for at once.  Through an FPGA the island first
 * sends it a QUERY (the FPGA releases the chunk's slot, or resends it from its buffer: the nearest
 * holder) and answers with the number of MERGED packets it sent, which
 * reaches the island behind them on the FIFO hop, so the tail of the MERGED
 * stream lost on that hop is NACKed at once.  Then (one margin later when a
 * NACK is pending, at once without an FPGA) the island REQUESTs the
 * contributions still lacking from their senders, again after each request
 * timeout (twice the latency to the sender, one margin and the repair wait
 * measured so far), at most MaxRequests times.  Whatever is still missing
 * when every chunk's requests are spent, or MaxRequests x RequestTimeout
 * after the deadline, is given up.
 *
 * Every island answers REQUESTs from a repair queue paced at RepairBudget
 * times the round's stream rate; a request for a chunk already queued for
 * the same island is suppressed.  A repair sent while the island's stream
 * fills its egress delays that stream by one packet time for the rest of the
 * round; with 0 bytes of FPGA memory two such delays exceed the line-rate
 * window and the clique's sums split.  RepairWhileStreaming = false holds
 * repairs until the island's streams have sent their last chunk.
 *
 * Packets it cannot use (not a chunk header, a kind it does not take, an
 * unplanned round, another clique, a chunk or position out of range) are
 * dropped and reported by the Drop trace source.  When a round's deadline
 * has been handled (or, without a deadline, when the round completes) the
 * RoundEnd trace source reports its record, and again after every later
 * change to it.
 */
class WanIslandApplication : public Application
{
  public:
    /// What to do at a round's deadline about contributions still missing.
    enum Recovery
    {
        ACCEPT,    //!< give them up
        REREQUEST, //!< ask their senders to resend them
        EARLY      //!< ask for each chunk once it is overdue (see the class text)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanIslandApplication();
    ~WanIslandApplication() override;

    /**
     * @brief Plans a round (call before the simulation runs, after
     * ChunkBytes and Recovery are set).
     * @param round what to send and expect; refused with
     *        std::invalid_argument when its payload or rate is zero, its
     *        position is outside its clique, its peers' islands do not match
     *        its clique, its round number is planned already, or Recovery is
     *        REREQUEST and it has peers but not their islands
     */
    void AddRound(const WanIslandRound& round);
    /**
     * @brief Re-plans a round before it starts: new start, offset, rate,
     * deadline, destinations and arrivals (after a route change); the clique,
     * position and payload stay.
     * @param round the round's new plan (its round number names it)
     * @throws std::invalid_argument when the round is unknown, has started,
     *         or changes what must stay
     */
    void ReplaceRound(const WanIslandRound& round);
    /// @return the destination port of its DATA chunks (attribute DataPort)
    uint16_t GetDataPort() const;
    /// @return ParityBlock's default (the programs' and the experiment's unless set)
    static uint32_t GetDefaultParityBlock();
    /// @return ParityChunks' default
    static uint32_t GetDefaultParityChunks();
    /// @return the data chunks per parity block in use: ParityBlock with Parity, else 0
    uint32_t ParityBlockInUse() const;
    /// @return the port it listens on for merged sums and repairs (attribute MergedPort)
    uint16_t GetMergedPort() const;
    /**
     * @param round a planned round
     * @return its record as it stands
     */
    WanIslandRecord GetRecord(uint32_t round) const;
    /**
     * @param payloadBytes D
     * @param chunkBytes payload per chunk
     * @return the number of chunks of a state of D bytes
     */
    static uint32_t ChunkCount(uint64_t payloadBytes, uint32_t chunkBytes);

    /**
     * @brief TracedCallback signature of a completed round.
     * @param [in] round the round number
     * @param [in] duration from round start to the last contribution
     */
    typedef void (*RoundCompleteTracedCallback)(uint32_t round, Time duration);
    /**
     * @brief TracedCallback signature of a round's record.
     * @param [in] record the round's record
     */
    typedef void (*RoundEndTracedCallback)(const WanIslandRecord& record);
    /**
     * @brief TracedCallback signature of a packet dropped.
     * @param [in] packet the packet as received
     * @param [in] reason why it could not be used
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);
    /**
     * @brief TracedCallback signature of a round's parity sized.
     * @param [in] round the round number
     * @param [in] rows parity rows per block
     * @param [in] rate the erasure rate they were sized for (the prior's
     *             before reports; -1: no report and no prior)
     */
    typedef void (*ParitySizedTracedCallback)(uint32_t round, uint32_t rows, double rate);

  protected:
    void DoDispose() override;

  private:
    /// What the application keeps of a planned round besides the ledger.
    struct RoundState
    {
        WanIslandRound plan;    //!< the plan
        WanIslandRecord record; //!< counters kept here (the ledger keeps the rest)
        uint32_t chunks{0};     //!< chunks per state
        EventId sendEvent;      //!< next chunk to send
        EventId checkEvent;     //!< next deadline check
        bool ended{false};      //!< RoundEnd reported
        /// What is overdue and what was asked (with the plan's arrivals, unless REREQUEST)
        std::optional<WanEarlyRecovery> early;
        EventId overdueEvent; //!< next overdue check
        WanParityCode code;   //!< the stream's parity layout
        /// With parity: one decoder over all peers (their sums come from the
        /// FPGA), or one per clique position (their chunks come apart).
        std::vector<WanParityDecoder> decoders;
        std::set<uint32_t> reported; //!< blocks whose erasures were reported (ReportLoss)
    };

    void StartApplication() override;
    void StopApplication() override;

    /**
     * @brief Schedules one of this application's methods (defined in the
     * .cc file, the only one that calls it).
     * @param delay how long from now
     * @param method the method
     * @param args its arguments
     * @return the event
     */
    template <typename... Params, typename... Args>
    EventId Later(Time delay, void (WanIslandApplication::*method)(Params...), Args... args);

    /// @throws std::invalid_argument when a round's plan is impossible
    void Validate(const WanIslandRound& round) const;
    /// Sets up a round's chunk count, parity and ledger (at start).
    void PrepareRound(uint32_t k);
    /// Schedules a round's sending, overdue clock and deadline check.
    void ScheduleRound(uint32_t k);

    /**
     * @brief Sends the chunk of one send slot of a round (a data or a parity
     * chunk, WanParityCode) and schedules the next slot.
     * @param index the round
     * @param slot the slot
     */
    void SendChunk(uint32_t index, uint32_t slot);
    /**
     * @param r a round
     * @param code its parity layout
     * @param chunk a parity chunk's index
     * @return the parity chunk: the wrap-around sum of this island's
     *         contributions to its group
     */
    Ptr<Packet> MakeParity(const WanIslandRound& r,
                           const WanParityCode& code,
                           uint32_t chunk) const;
    /**
     * @brief Takes a parity chunk (DATA from a peer, or MERGED from the FPGA).
     * @param packet the packet as received
     * @param h its header
     */
    void Parity(Ptr<const Packet> packet, const WanChunkHeader& h);
    /**
     * @brief With ReportLoss, at a block's first parity: how many of its
     * chunks hold every peer's contribution, to each peer (a REPORT) and to
     * this island's own estimate.
     * @param state the round
     * @param block the block
     */
    void ReportBlock(RoundState& state, uint32_t block);
    /**
     * @param state a round
     * @param position the sender of a packet (unused with aggregation)
     * @return the decoder its contributions go to
     */
    WanParityDecoder& DecoderOf(RoundState& state, uint32_t position);
    /**
     * @param state a round
     * @param position a sender
     * @return the index of the decoder its contributions go to (0 with aggregation)
     */
    static uint32_t DecoderIndex(const RoundState& state, uint32_t position);
    /**
     * @param r a round
     * @return true once its deadline has passed (never without one)
     */
    static bool PastDeadline(const WanIslandRound& r);
    /**
     * @brief Rebuilds what the parity of one block can (up to its parities'
     * count of chunks' missing contributions) and offers it to the ledger.
     * @param state the round
     * @param decoder the decoder holding the block's parity
     * @param block the block
     */
    void Rebuild(RoundState& state, WanParityDecoder& decoder, uint32_t block);
    /**
     * @brief Notes a round's completion once the ledger holds every
     * contribution (and ends a round without deadline).
     * @param state the round
     * @return true when the round ended now
     */
    bool NoteCompletion(RoundState& state);
    /// Receives every packet, on either port.
    void HandleRead(Ptr<Socket> socket);
    /**
     * @brief Takes a DATA, MERGED or REPAIR packet.
     * @param packet the packet as received
     * @param h its header
     */
    void Receive(Ptr<const Packet> packet, const WanChunkHeader& h);
    /**
     * @param packet a packet as received
     * @param h its header
     * @return its round when it names a planned round and that round's
     *         clique; otherwise nullptr (the packet is dropped)
     */
    RoundState* Planned(Ptr<const Packet> packet, const WanChunkHeader& h);
    /**
     * @param packet a packet as received
     * @param h its header
     * @return its round when it names a planned round, that round's clique and
     *         one of its data chunks; otherwise nullptr (the packet is dropped)
     */
    RoundState* Check(Ptr<const Packet> packet, const WanChunkHeader& h);
    /**
     * @brief Offers a packet's contributions to the ledger and counts them.
     * @param packet the packet as received
     * @param h its header
     * @param state its round
     * @param resent true for a repair or a MERGED packet sent again
     */
    void Account(Ptr<const Packet> packet, const WanChunkHeader& h, RoundState& state, bool resent);
    /**
     * @brief Takes the lateness and repair-wait samples of an accepted packet
     * (EARLY).
     * @param state its round
     * @param h its header
     * @param resent true for a repair or a MERGED packet sent again
     */
    void Measure(RoundState& state, const WanChunkHeader& h, bool resent);
    /**
     * @brief A sender's chunk arrived: its chunks ReorderWindow places back
     * or more that are still lacking are overdue (EARLY).
     * @param state the round
     * @param position the sender
     * @param chunk the chunk that arrived
     */
    void Reveal(RoundState& state, uint32_t position, uint32_t chunk);
    /// After the deadline: ends the round once no chunk's requests run (EARLY).
    void FinishEarly(uint32_t index);
    /// Asks the FPGA for sequence numbers still missing.
    void SendNacks();
    /// @return the wire time of one chunk at a round's stream rate, seconds
    double PacketSeconds(const WanIslandRound& r) const;
    /// @return the same, as a Time (rounded to the simulator's resolution)
    Time PacketTime(const WanIslandRound& r) const;
    /// Sets up a round's overdue clock (EARLY) when it has a plan of arrivals.
    void StartClock(uint32_t index);
    /**
     * @brief Arms the next overdue check of a round.
     * @param index the round
     * @param spacing at least this long from now
     */
    void ScheduleOverdue(uint32_t index, Time spacing);
    /// Handles the chunks that became overdue (EARLY).
    void CheckOverdue(uint32_t index);
    /**
     * @param round a round number
     * @return whether a chunk of that round is complete (in the ledger)
     */
    std::function<bool(uint32_t)> ChunkComplete(uint32_t round) const;
    /**
     * @brief Starts the recovery of one overdue chunk: a QUERY to the FPGA,
     * then requests to the senders; with parity, only once the group's
     * parity had its chance to rebuild the chunk (Ask).
     */
    void Overdue(uint32_t index, uint32_t chunk);
    /**
     * @brief Asks for an overdue chunk that is still lacking (Overdue).
     * @param index the round
     * @param chunk the chunk
     */
    void Ask(uint32_t index, uint32_t chunk);
    /**
     * @param state a round
     * @param chunk a chunk lacking contributions
     * @return how long until its group's parity should have come and been
     *         used (zero: it did, or there is no parity)
     */
    Time ParityWait(const RoundState& state, uint32_t chunk) const;
    /**
     * @param state a round
     * @return how long until the stream's last parity row should have come
     *         (zero: it did, or there is no parity)
     */
    Time TailParityWait(const RoundState& state) const;
    /**
     * @param state a round
     * @param before the last data chunk sent before `slot`
     * @param slot a parity row's send slot
     * @return how long until that row should have come: `before`'s planned
     *         completion, the slots to `slot`, and the margin (zero when past)
     */
    Time SlotWait(const RoundState& state, uint32_t before, uint32_t slot) const;
    /**
     * @brief Requests the contributions one chunk still lacks from their
     * senders, and checks again after the request timeout.
     * @param index the round
     * @param chunk the chunk
     * @param attempt requests made for it before
     */
    void AskPeers(uint32_t index, uint32_t chunk, uint32_t attempt);
    /**
     * @param r a round
     * @return what a request's timeout in that round is made of besides its
     *         bookkeeping: the packet time, the repair budget and the repair
     *         wait measured
     */
    WanEarlyRecovery::RequestCost CostOf(const WanIslandRound& r) const;
    /**
     * @brief Sends the FPGA a QUERY for a chunk; from the first attempt on,
     * again (twice as late each time) while the FPGA repairs it.
     * @param index the round
     * @param chunk the chunk
     * @param attempt 0 for the first QUERY, then the re-queries
     */
    void Query(uint32_t index, uint32_t chunk, uint32_t attempt);
    /**
     * @brief Takes the FPGA's answer to a QUERY: MERGED packets it sent that
     * did not arrive are NACKed, then the chunk's senders are asked.
     * @param packet the answer
     * @param h its header
     */
    void Answered(Ptr<const Packet> packet, const WanChunkHeader& h);
    /**
     * @brief Takes an FPGA's REPORT of what a block of this island's stream
     * lost (with ParitySizing; dropped otherwise).
     * @param packet the report
     * @param h its header
     * @param from the FPGA (one receiver)
     */
    void Reported(Ptr<const Packet> packet, const WanChunkHeader& h, const Address& from);
    /**
     * @brief Sizes a round's parity rows from the reports so far, as it
     * starts to send (ParitySizing).
     * @param state the round
     */
    void SizeParity(RoundState& state);
    /// @return when the streams this island has begun to send have sent their last chunk
    Time StreamsEnd() const;
    /// Sends the next queued repair and arms the pacer.
    void SendQueuedRepair();
    /**
     * @brief At a round's deadline: re-request or give up the contributions
     * still missing.
     * @param index the round
     * @param attempt how many times this round was checked before
     */
    void CheckRound(uint32_t index, uint32_t attempt);
    /**
     * @param r a round
     * @param chunk a chunk index
     * @param kind DATA, or REPAIR when resent on request
     * @return the chunk's packet: this island's contribution, with its header
     */
    Ptr<Packet> MakeChunk(const WanIslandRound& r, uint32_t chunk, WanChunkHeader::Kind kind) const;
    /**
     * @param r a round
     * @param kind the packet's kind
     * @param chunk the chunk it is about
     * @return a header naming this island's round, clique, city and the chunk
     */
    static WanChunkHeader Header(const WanIslandRound& r,
                                 WanChunkHeader::Kind kind,
                                 uint32_t chunk);
    /**
     * @brief Asks a peer to resend one chunk to this island.
     * @param state the round
     * @param chunk the chunk
     * @param position the peer's position in the clique
     */
    void SendRequest(RoundState& state, uint32_t chunk, uint32_t position);
    /**
     * @brief Resends one chunk to the peer that asked for it.
     * @param packet the REQUEST as received
     * @param h its header
     * @param from the peer
     */
    void Repair(Ptr<const Packet> packet, const WanChunkHeader& h, const Address& from);
    /**
     * @brief Reports a packet that cannot be used.
     * @param packet the packet as received
     * @param reason why
     * @param state its round, when it names a planned one (counts it there)
     */
    void Drop(Ptr<const Packet> packet, const std::string& reason, RoundState* state);
    /**
     * @param round a round number
     * @return its state, or nullptr when it was not planned
     */
    RoundState* FindRound(uint32_t round);
    /**
     * @param state one of m_rounds
     * @return its index in m_rounds
     */
    uint32_t IndexOf(const RoundState& state) const;
    /**
     * @param state a round
     * @return its record: the counters kept here and the ledger's account
     */
    WanIslandRecord Compose(const RoundState& state) const;
    /// Reports the round's record (now, and after every later change).
    void End(RoundState& state);
    /// Reports the round's record again if it ended already.
    void Changed(RoundState& state);

    uint16_t m_dataPort;         //!< destination port of DATA chunks
    uint16_t m_mergedPort;       //!< port this island listens on
    uint32_t m_chunkBytes;       //!< payload bytes per chunk
    uint32_t m_overhead;         //!< wire bytes per packet beyond the UDP payload
    Ipv4Address m_fpga;          //!< where NACKs go
    Time m_nackDelay;            //!< wait before asking for a gap
    uint32_t m_maxNacks;         //!< NACKs per gap before it is left to the deadline
    Recovery m_recovery;         //!< what to do at a deadline
    Time m_requestTimeout;       //!< wait for a repair before asking again
    uint32_t m_maxRequests;      //!< requests per contribution before giving up
    bool m_averageAtDeadline;    //!< average at the deadline, repair after (a quorum)
    double m_overduePackets;     //!< smallest overdue margin, packet times
    uint32_t m_reorderWindow;    //!< chunks a later arrival must lead by to reveal a loss
    double m_repairBudget;       //!< share of the stream rate repairs may use
    bool m_repairWhileStreaming; //!< repairs may interleave with this island's streams
    bool m_parity;               //!< parity chunks are sent (coded repair)
    uint32_t m_parityBlock;      //!< data chunks per parity block (with m_parity)
    uint32_t m_parityChunks;     //!< parity chunks per block (the code's rows)
    bool m_paritySizing;         //!< rows per round from the receivers' reports
    double m_parityEpsilon;      //!< block failure probability allowed
    uint32_t m_parityWindow;     //!< rounds of reports counted
    double m_parityConfidence;   //!< of a receiver's rate interval
    double m_parityPrior;        //!< rate sized for without reports (below 0: every row)
    WanParityCode::Layout m_parityLayout{
        WanParityCode::TRAILING}; //!< where the rows go on a stream
    bool m_reportLoss;            //!< report each block's erasures of the sums to the senders
    std::optional<WanLossEstimator> m_loss;  //!< the reports (with ParitySizing)
    std::map<Address, uint32_t> m_reporters; //!< each receiver that reported, numbered

    Ptr<Socket> m_socket;                      //!< sends everything, receives MERGED and REPAIR
    Ptr<Socket> m_dataSocket;                  //!< receives peers' DATA (no FPGA)
    std::vector<RoundState> m_rounds;          //!< planned rounds
    std::map<uint32_t, uint32_t> m_roundIndex; //!< round number -> index in m_rounds
    WanContributionLedger m_ledger;            //!< what each chunk holds
    WanSequenceTracker m_tracker;              //!< gaps of the MERGED stream
    uint32_t m_lastRound{0};                   //!< planned round of the last MERGED packet
    EventId m_nackEvent;                       //!< pending NACK
    WanRepairQueue m_repairs;                  //!< repairs waiting for the pacer
    EventId m_repairEvent;                     //!< next paced repair
    WanRecoveryRoundTrips m_roundTrips;        //!< how long NACKs, QUERYs, REQUESTs take

    /// A round's last contribution arrived.
    TracedCallback<uint32_t, Time> m_roundCompleteTrace;
    /// A round's record, when it ends and after every later change.
    TracedCallback<const WanIslandRecord&> m_roundEndTrace;
    /// A packet was sent.
    TracedCallback<Ptr<const Packet>> m_txTrace;
    /// A packet was received.
    TracedCallback<Ptr<const Packet>> m_rxTrace;
    /// A packet could not be used.
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace;
    /// Traced callback: a round's parity sized (round, rows, rate).
    TracedCallback<uint32_t, uint32_t, double> m_paritySizedTrace;
};

} // namespace ns3

#endif /* WAN_ISLAND_APPLICATION_H */
