/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUND_RECORDER_H
#define WAN_ROUND_RECORDER_H

#include "wan-experiment-result.h"

#include "ns3/application-container.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/nstime.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-measured-mixing.h"
#include "ns3/wan-round-counters.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Gathers a packet-level run's results from trace sources: each
 * island's record of each round (WanIslandApplication "RoundEnd"), the
 * FPGAs' evictions by cause ("Eviction"), their peak slot occupancy
 * ("PeakOccupancy") and their per-stream decoding of each round
 * ("StreamBlock", counted for the FPGA's island), and the packets dropped,
 * by reason ("Drop" of both).
 *
 * Connect it before Simulator::Run and read it after; it keeps the latest
 * record of each (round, city), so a record reported again after a late
 * arrival replaces the earlier one.  The first report of each is the moment the island
 * ended the round and averaged (GetMixedAt).  It decides whether an island's sum is
 * exact from the records alone: the island must hold each peer's
 * contribution to each chunk once, and its sum must be WanContribution's
 * ExpectedSum of the values its clique's other members reported.
 *
 * @code
 *   WanRoundRecorder recorder;
 *   recorder.WatchIslands(islands);
 *   recorder.WatchFpgas(fpgas);
 *   Simulator::Run();
 *   const WanIslandRecord* r = recorder.Find(0, city);
 *   bool exact = recorder.IsExact(0, city);
 * @endcode
 */
class WanRoundRecorder
{
  public:
    WanRoundRecorder() = default;
    WanRoundRecorder(const WanRoundRecorder&) = delete;
    WanRoundRecorder& operator=(const WanRoundRecorder&) = delete;

    /** @param island an island application to record */
    void WatchIsland(Ptr<WanIslandApplication> island);
    /** @param apps applications; every WanIslandApplication among them is recorded */
    void WatchIslands(const ApplicationContainer& apps);
    /**
     * @param fpga an FPGA aggregator to record
     * @param city the index of the island it serves
     */
    void WatchFpga(Ptr<FpgaAggregator> fpga, uint32_t city);
    /**
     * @param apps applications; every FpgaAggregator among them is
     *        recorded, the i-th application serving island i
     */
    void WatchFpgas(const ApplicationContainer& apps);

    /**
     * @param round a round
     * @param city an island's city index
     * @return the latest record that island reported of that round, or
     *         nullptr when it reported none
     */
    const WanIslandRecord* Find(uint32_t round, uint32_t city) const;
    /**
     * @param round a round
     * @param city an island's city index
     * @return when the island averaged the round: its completion if it held
     *         everything when it first reported the round, else the time of
     *         that report (it gave the rest up then); zero when it reported
     *         nothing
     */
    Time GetMixedAt(uint32_t round, uint32_t city) const;
    /**
     * @param round a round
     * @param city an island's city index
     * @return true when the island holds each peer's contribution to each
     *         chunk once and its sum is the exact one (false when it, or a
     *         member of its clique, reported nothing)
     */
    bool IsExact(uint32_t round, uint32_t city) const;
    /**
     * @param round a round
     * @return the counters of every island that reported it, summed
     */
    WanRoundCounters GetTotal(uint32_t round) const;
    /** @return FPGA evictions by cause (every cause, from the first FPGA watched) */
    const std::map<std::string, uint64_t>& GetEvictions() const;
    /**
     * @param round a round
     * @return FPGA evictions of that round's chunks by cause (every cause
     *         of GetEvictions, zeros included)
     */
    std::map<std::string, uint64_t> GetEvictions(uint32_t round) const;
    /** @return the most slots in use at once at any one FPGA */
    uint64_t GetPeakSlots() const;
    /** @return packets dropped by the islands and FPGAs watched, by reason */
    const std::map<std::string, uint64_t>& GetDrops() const;

    /**
     * @brief What this recorder holds, as text (JSON), for another
     * recorder's Merge (a distributed run gathers each rank's to rank 0).
     * @return the records, mixing times, evictions, drops and peak
     */
    std::string Save() const;
    /**
     * @brief Adds what another recorder saved: its records (of other
     * islands), evictions and drops (summed) and peak (the larger).
     * @param saved Save's text
     * @throws std::invalid_argument for text that is not such a save
     */
    void Merge(const std::string& saved);
    /// In a distributed run: every rank's records to rank 0 (a collective call).
    void GatherToRoot();

    /**
     * @param round a round
     * @param city an island of one of its cliques
     * @param scale the time-preserving scale (bytes are multiplied back by it)
     * @return the island's result (completion -1 and not exact when it
     *         reported nothing)
     */
    WanIslandRoundResult GetIslandResult(uint32_t round, uint32_t city, double scale) const;
    /**
     * @brief What the FPGAs watched reported: evictions by cause and the most
     * HBM slots in use at one FPGA, in bytes too (its SlotBytes times the
     * scale; 0 when no FPGA was watched).
     * @param scale the run's scale
     * @param result its results, completed here
     */
    void CollectFpgas(double scale, WanExperimentResult& result) const;
    /**
     * @brief The realised mixing of a run: every island's row, each round's
     * matrix and measured T, and A, T and J measured beside the planned ones.
     * @param plan the run's plan
     * @param nIslands N
     * @param result its results (rounds collected), completed here
     */
    void MeasureMixing(const WanExperimentPlan& plan,
                       uint32_t nIslands,
                       WanExperimentResult& result) const;

    /**
     * @brief Sink of "RoundEnd": keeps the record.
     * @param record an island's record of a round
     */
    void RecordRound(const WanIslandRecord& record);
    /**
     * @brief Sink of "Eviction": counts it by cause.
     * @param round the chunk's round
     * @param chunk the chunk
     * @param cause why the slot was forwarded
     * @param contributions contributions in the forwarded sum
     */
    void RecordEviction(uint32_t round,
                        uint32_t chunk,
                        const std::string& cause,
                        uint32_t contributions);
    /**
     * @brief Sink of "PeakOccupancy".
     * @param previous the previous peak
     * @param peak the new peak
     */
    void RecordPeak(uint64_t previous, uint64_t peak);
    /**
     * @brief Sink of "Drop": counts it by reason.
     * @param packet the packet
     * @param reason why it was dropped
     */
    void RecordDrop(Ptr<const Packet> packet, const std::string& reason);
    /**
     * @brief Sink of "StreamBlock": counts it for the round and island.
     * @param recorder the recorder
     * @param city the FPGA's island
     * @param block the block closed
     */
    static void RecordStreamBlock(WanRoundRecorder* recorder,
                                  uint32_t city,
                                  const FpgaStreamDecoder::Block& block);

  private:
    /**
     * @brief Fills one island's realised mixing: its row in the round's
     * matrix, the chunks it held of each member, and when it averaged.
     * @param round the round (its index among those run)
     * @param members the island's clique, ascending (its positions)
     * @param mixing the realised matrices
     * @param received the matrices of all that was received by the end
     * @param ir the island's result
     */
    void MeasureIsland(uint32_t round,
                       const std::vector<uint32_t>& members,
                       WanMeasuredMixing& mixing,
                       WanMeasuredMixing& received,
                       WanIslandRoundResult& ir) const;

    std::map<std::pair<uint32_t, uint32_t>, WanIslandRecord> m_records;   //!< (round, city)
    std::map<std::pair<uint32_t, uint32_t>, Time> m_mixedAt;              //!< (round, city)
    std::map<std::string, uint64_t> m_evictions;                          //!< by cause
    std::map<uint32_t, std::map<std::string, uint64_t>> m_roundEvictions; //!< by round, cause
    std::map<std::string, uint64_t> m_drops;                              //!< by reason
    uint64_t m_peakSlots{0};                                              //!< at any FPGA
    uint64_t m_slotBytes{0}; //!< an HBM slot's bytes (the FPGAs' SlotBytes; 0: none watched)
    /// (round, city) -> the city's FPGA's per-stream decoding of the round
    std::map<std::pair<uint32_t, uint32_t>, FpgaStreamDecoder::Totals> m_streams;
};

} // namespace ns3

#endif /* WAN_ROUND_RECORDER_H */
