/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RESULT_WRITER_H
#define WAN_RESULT_WRITER_H

#include "wan-experiment-result.h"
#include "wan-training-loop.h"

#include "ns3/wan-topology.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Writes packet-level results (WanExperimentResult) as a document
 * that scripts read: JSON, or the same figures as a CSV table of one figure
 * per row.
 *
 * The JSON document (schema "wan-training-packet-output", version 1):
 * @code
 * {"schema": "wan-training-packet-output", "version": 1,
 *  "runs": [{"label", "parameters": {name: text}, "schedule", "feasible", "reason",
 *            "planned_ms", "exact", "events", "disagreement", "disagreement_measured",
 *            "consensus_skew", "mixed_ms", "objective", "objective_measured",
 *            "peak_hbm_slots", "peak_hbm_bytes", "evictions": {cause: n},
 *            "lost_packets": {"core", "access", "post"},
 *            "control_packets", "control_bytes" (BFD, with fault detection),
 *            "route_changes": [{"link", "up", "event_s", "detected_s",
 *                               "converged_s", "replanned_from" (round, or
 *                               null), "resumed_s", "joined_s"}] (detected faults),
 *            "rounds": [{"round" (1 = first), "failed", "note", "planned_ms",
 *                        "measured_ms", "idle_ms", "mixed_ms", "fault_link_packets",
 *                        "fault_link_lost",
 *                        "evictions": {cause: n},
 *                        "islands": [{"city", "completion_ms", "exact", "bytes_in",
 *                                     "bytes_out", "packets_in", "partial_sums", "nacks",
 *                                     "retransmissions", "expected", "delivered", "late",
 *                                     "requested", "requests", "recovered", "given_up",
 *                                     "repeats", "repairs_sent", "dropped",
 *                                     "parity_sent", "rebuilt", "parity_blocks",
 *                                     "parity_symbols", "erasures", "blocks_short",
 *                                     "stream_blocks", "stream_symbols", "stream_erasures",
 *                                     "stream_rebuilt", "stream_short", "stream_evicted",
 *                                     "mixed_ms",
 *                                     "held": {code: chunks}, "mixing": {code: weight},
 *                                     "mixing_received": {code: weight}}],
 *                        "core_links": [{"from", "to", "packets", "bytes",
 *                                        "peak_queue_bytes", "peak_queue_ms",
 *                                        "queue_drops"}]}],
 *            "training": [{"workload", "policy", "compute_s", "minimum_loss",
 *                          "target_loss", "time_to_target_s", "rounds_to_target",
 *                          "carried_weight", "final_loss", "final_model_loss",
 *                          "final_consensus_distance",
 *                          "history": [{"round", "packet_round", "time_s", "loss",
 *                                       "local_loss", "model_loss",
 *                                       "consensus_distance"}]}]}]}
 * @endcode
 * Times are milliseconds; bytes are full-scale (multiplied back by the
 * time-preserving scale); a core link direction's peak queue is the most
 * bytes that waited in its queue disc and device queue for some time
 * (a packet an idle link sends at once does not count), also as the time
 * to send them at the link's rate; a time that never came (a round that did not
 * complete) is null.  "disagreement" and "objective" are A and J = T x A of
 * the planned mixing, "disagreement_measured" and "objective_measured" those
 * of the realised mixing (WanMeasuredMixing) with T "mixed_ms"; an island's
 * "mixing" is its row of the round's realised mixing matrix and "held" the
 * chunks holding each member's contribution, "mixing_received" its row had it
 * averaged everything received by the end (late arrivals too).  "training"
 * (empty unless AddTraining) is decentralised SGD over the run's rounds
 * (WanTrainingRunResult): times in seconds of simulated wall-clock (compute
 * plus the rounds' measured times), "time_to_target_s" and
 * "rounds_to_target" null when the target was not reached; in "history"
 * round 0 is the initial models and "packet_round" the packet round whose
 * mixing the round took (null for round 0).  The CSV has the columns run,
 * label, round, scope, subject, metric, value: scope "run" (round empty),
 * "round", "island" (subject: the city code), "core_link" (subject:
 * "FROM>TO"), "training" (round empty) or "training_round" (round: the
 * training round; subject for both: "WORKLOAD/POLICY"); nested
 * objects give dotted metrics ("evictions.timeout", "parameters.lossRate").
 */
class WanResultWriter
{
  public:
    /// @param topo the topology the runs used (for city codes)
    explicit WanResultWriter(const WanTopology& topo);

    /**
     * @brief Adds a run.
     * @param label what the run is (e.g. "triangles, multicast + FPGA")
     * @param result its measurements
     */
    void Add(const std::string& label, const WanExperimentResult& result);
    /**
     * @brief Adds a run with the settings that distinguish it.
     * @param label what the run is
     * @param result its measurements
     * @param parameters settings by name (e.g. "lossRate" -> "0.01")
     */
    void Add(const std::string& label,
             const WanExperimentResult& result,
             const std::map<std::string, std::string>& parameters);
    /**
     * @brief Adds training driven by the last run added (WanTrainingLoop):
     * its "training" list gets the training's summary and records.
     * @param training the training (std::invalid_argument before any run)
     */
    void AddTraining(const WanTrainingRunResult& training);
    /** @return the runs added */
    uint32_t GetN() const;

    /** @return the JSON document, indented */
    std::string ToJson() const;
    /** @return the CSV table, a header row first */
    std::string ToCsv() const;
    /**
     * @brief Writes the document; throws std::invalid_argument when the
     * name ends in neither .json nor .csv, or the file cannot be written.
     * @param path the file (.json or .csv)
     */
    void Write(const std::string& path) const;
    /**
     * @brief Checks a file name before a run: throws std::invalid_argument
     * when it ends in neither .json nor .csv.
     * @param path the file
     */
    static void CheckPath(const std::string& path);

  private:
    std::vector<std::string> m_codes; //!< city codes by index
    std::vector<std::string> m_runs;  //!< the runs added, each as compact JSON text
};

} // namespace ns3

#endif /* WAN_RESULT_WRITER_H */
