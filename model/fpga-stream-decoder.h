/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_STREAM_DECODER_H
#define FPGA_STREAM_DECODER_H

#include "fpga-slot-table.h"
#include "wan-galois-ring.h"
#include "wan-parity-code.h"

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Per-stream decoding at the edge FPGA: each sender's parity
 * (WanParityCode) rebuilds that sender's lost data chunks before the slot
 * table sums them, so that the code faces one path's losses instead of the
 * union of every sender's.
 *
 * A stream is one sender's chunks of one round and clique; its blocks are
 * those of WanParityCode (`block` data chunks, then `parities` parity
 * chunks).  The decoder keeps, per block of each stream, a copy of every
 * data chunk's value and every parity symbol it received in HBM (one slot's
 * bytes each), up to `capacity` chunks over all open blocks.  When a parity
 * arrives and a block lacks no more data chunks than parities arrived, the
 * MDS code rebuilds them and the copies are freed; they are also freed when
 * every data chunk arrived.  When the buffer is full the oldest open block
 * loses its copies (an eviction: it can no longer be decoded here, the
 * island's own decoding and repair take over).  A block is reported when no
 * chunk of its stream arrived for `timeout` seconds (a stream whose parity
 * rows trail its data sends a block's rows long after the block), with the chunks its stream
 * carried, those that did not arrive and what was rebuilt, so that its
 * erasure rate is one path's.  A chunk of a block closed lately (the last
 * CLOSED_MEMORY blocks) is summed without being counted again.
 *
 * The block length comes with each parity chunk (WanChunkHeader's block
 * length): a stream's last block may be short.
 */
class FpgaStreamDecoder
{
  public:
    /// Blocks closed whose late chunks are still recognised.
    static constexpr size_t CLOSED_MEMORY = 65536;

    /// A sender's contribution this decoder rebuilt.
    struct Rebuilt
    {
        FpgaChunkId id;       //!< the data chunk
        uint32_t position{0}; //!< its sender
        int64_t value{0};     //!< the sender's value, fixed point
    };

    /// One block of one stream, reported when it closes.
    struct Block
    {
        uint32_t round{0};       //!< its round
        uint32_t clique{0};      //!< its clique
        uint32_t position{0};    //!< its sender
        uint32_t block{0};       //!< its block in the stream
        uint32_t symbols{0};     //!< data and parity chunks the stream carried for it
        uint32_t erasures{0};    //!< of which none arrived (first hand)
        uint32_t rebuilt{0};     //!< data chunks rebuilt here
        bool short_{false};      //!< more erasures than parities: beyond the code
        bool evicted{false};     //!< its copies were taken for another block first
        bool undecodable{false}; //!< its copies solved to no values (a corrupt chunk)
    };

    /// What a block of a stream lost, measured when its first parity came
    /// (the data chunks then still missing are the ones its parity must
    /// rebuild): what the FPGA reports to the stream's sender.
    struct Loss
    {
        uint32_t round{0};    //!< its round
        uint32_t clique{0};   //!< its clique
        uint32_t position{0}; //!< its sender
        uint32_t block{0};    //!< its block in the stream
        uint32_t chunks{0};   //!< its data chunks
        uint32_t arrived{0};  //!< of which arrived first hand by then
    };

    /// Counts over every block reported.
    struct Totals
    {
        uint64_t blocks{0};      //!< blocks
        uint64_t symbols{0};     //!< their chunks
        uint64_t erasures{0};    //!< chunks that did not arrive
        uint64_t rebuilt{0};     //!< data chunks rebuilt
        uint64_t short_{0};      //!< blocks beyond the code
        uint64_t evicted{0};     //!< blocks whose copies were evicted
        uint64_t undecodable{0}; //!< blocks whose copies solved to no values

        /**
         * @brief Counts one more block.
         * @param block the block
         * @return these counts
         */
        Totals& operator+=(const Block& block);

        /// A count: its name and member.
        using Field = std::pair<const char*, uint64_t Totals::*>;
        /** @return every count, in declaration order ("blocks" to "undecodable") */
        static const std::vector<Field>& Fields();
    };

    /**
     * @param block data chunks per block (WanParityCode), >= 1
     * @param parities parity chunks per block, 1 to block, block + parities
     *        at most 256
     * @param capacity chunks the HBM set aside holds (0: nothing is decoded)
     * @param timeoutSeconds how long a block stays open after its stream's
     *        last chunk arrived, > 0
     * @throws std::invalid_argument naming the bad value
     */
    FpgaStreamDecoder(uint32_t block, uint32_t parities, uint64_t capacity, double timeoutSeconds);

    /// What a data chunk's arrival did.
    struct Added
    {
        bool repeat{false};           //!< the sender's chunk was held or rebuilt already:
                                      //!< this copy must not be summed
        std::vector<Rebuilt> rebuilt; //!< what it let the parity rebuild
    };

    /**
     * @brief A sender's data chunk: kept until its block completes or decodes.
     * @param id the chunk (a data chunk index)
     * @param position its sender
     * @param value its value, fixed point
     * @param firstHand true when it came on the stream (not a repair)
     * @param now current time, seconds
     * @return whether it repeats one held, and what it let the parity
     *         rebuild (a parity that came before it was one chunk short)
     */
    Added AddData(const FpgaChunkId& id,
                  uint32_t position,
                  int64_t value,
                  bool firstHand,
                  double now);
    /**
     * @brief A sender's parity chunk.
     * @param id the chunk (PARITY_FLAG | group)
     * @param position its sender
     * @param length data chunks of its block (1 to block)
     * @param symbol its parity symbol
     * @param now current time, seconds
     * @param rows parity rows the stream sends after the block (0: the
     *        code's), for the block's count of symbols
     * @return the contributions it rebuilds (to be summed), ascending
     */
    std::vector<Rebuilt> AddParity(const FpgaChunkId& id,
                                   uint32_t position,
                                   uint32_t length,
                                   const WanGaloisRing::Element& symbol,
                                   double now,
                                   uint32_t rows = 0);
    /**
     * @return what each block whose first parity came since the last call
     *         lost, in order of arrival (the measurements a stream's sender
     *         sizes its parity from); emptied by the call
     */
    std::vector<Loss> TakeLosses();
    /**
     * @param now current time, seconds
     * @return the blocks idle for the timeout, closed, oldest first
     */
    std::vector<Block> Expire(double now);
    /** @return every block, closed */
    std::vector<Block> Flush();
    /** @return when the next block may close (+infinity if none): its own
     *  last chunk's time plus the timeout; it stays open when its stream
     *  sent more since */
    double GetNextExpiry() const;

    /** @return chunks held in HBM */
    uint64_t GetBuffered() const;
    /** @return the most chunks ever held at once */
    uint64_t GetPeakBuffered() const;
    /** @return chunks the HBM set aside holds */
    uint64_t GetCapacity() const;
    /** @return counts over the blocks reported */
    const Totals& GetTotals() const;

  private:
    /// (round, clique, position, block)
    using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;

    /// One block of one stream.
    struct State
    {
        std::map<uint32_t, int64_t> data;                  //!< values held, by offset
        std::map<uint32_t, WanGaloisRing::Element> parity; //!< symbols held, by row
        std::vector<bool> held;                            //!< per offset: held or rebuilt
        uint32_t firstHand{0};                             //!< data chunks that came on the stream
        uint32_t parities{0};                              //!< parity chunks that came
        uint32_t length{0};                                //!< data chunks (0: not known yet)
        uint32_t rows{0};                                  //!< parity rows sent (0: not known)
        uint32_t rebuilt{0};                               //!< data chunks rebuilt
        bool done{false};        //!< complete or decoded: nothing more to do
        bool evicted{false};     //!< its copies were taken
        bool undecodable{false}; //!< its copies solved to no values
        double due{0};           //!< its last arrival plus the timeout, or later when its
                                 //!< stream sent more since (seconds)
        uint64_t opened{0};      //!< order of opening (the oldest is evicted first)
    };

    /**
     * @param key a block
     * @param now current time, seconds
     * @return its state, opened when new; null when the block closed lately
     */
    State* Open(const Key& key, double now);
    /// (round, clique, position): a stream
    using Stream = std::tuple<uint32_t, uint32_t, uint32_t>;
    /**
     * @param key a block
     * @return its stream
     */
    static Stream StreamOf(const Key& key);
    /**
     * @brief Remembers a block as closed.
     * @param key the block
     */
    void Remember(const Key& key);
    /**
     * @brief Makes room for one more chunk, evicting the oldest open blocks
     * (the block itself, when it is the oldest).
     * @param key the block that needs it
     * @return false when the block itself lost its copies
     */
    bool Reserve(const Key& key);
    /**
     * @brief Frees a block's copies.
     * @param key the block
     * @param state its state
     */
    void Free(const Key& key, State& state);
    /**
     * @param key a block
     * @param state its state
     * @return what decoding it now rebuilds
     */
    std::vector<Rebuilt> TryDecode(const Key& key, State& state);
    /**
     * @param key a block
     * @param state its state
     * @return its report, added to the totals
     */
    Block Close(const Key& key, const State& state);

    WanParityCode m_code;                         //!< a full block's layout and code
    uint64_t m_capacity;                          //!< chunks HBM holds
    double m_timeout;                             //!< idle time that closes a block
    std::map<Key, State> m_blocks;                //!< open blocks
    std::set<std::pair<uint64_t, Key>> m_holding; //!< blocks holding copies, oldest first
    /// (deadline, block) of each open block, earliest first
    std::set<std::pair<double, Key>> m_deadlines;
    std::map<Stream, double> m_streamLast; //!< each stream with an open block: its last arrival
    std::set<Key> m_closed;                //!< blocks closed lately
    std::deque<Key> m_closedOrder;         //!< the same, oldest first
    uint64_t m_buffered{0};                //!< chunks held
    uint64_t m_peak{0};                    //!< most chunks held
    uint64_t m_nextOpened{0};              //!< opening counter
    Totals m_totals;                       //!< counts reported
    std::vector<Loss> m_losses;            //!< measured, not yet taken
};

} // namespace ns3

#endif /* FPGA_STREAM_DECODER_H */
