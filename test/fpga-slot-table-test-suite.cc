/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/fpga-slot-table.h"
#include "ns3/test.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-parity-code.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Finds two chunk ids of one round that share a slot.
std::pair<FpgaChunkId, FpgaChunkId>
CollidingChunks(const FpgaSlotTable& table)
{
    std::map<uint64_t, uint32_t> seen;
    for (uint32_t c = 0;; ++c)
    {
        auto slot = table.SlotOf({1, 0, c});
        auto it = seen.find(slot);
        if (it != seen.end())
        {
            return {FpgaChunkId{1, 0, it->second}, FpgaChunkId{1, 0, c}};
        }
        seen[slot] = c;
    }
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Completion, timeout and conflict each evict with their cause.
 */
class SlotEvictionTestCase : public WanTestCase
{
  public:
    SlotEvictionTestCase()
        : WanTestCase("completion, timeout and conflict evictions")
    {
    }

  private:
    void DoCheck() override
    {
        FpgaSlotTable table(1000, 0.005);
        FpgaChunkId a{3, 1, 42};
        // Completion: two expected contributions, 1.5 + 2.25 (fixed point).
        const auto fixed = &WanContribution::ToFixed;
        auto evicted = table.Add(a, fixed(1.5), 9000, 2, 0.0).size();
        NS_TEST_EXPECT_MSG_EQ(evicted, 0, "first waits");
        NS_TEST_EXPECT_MSG_EQ(table.GetOccupancy(), 1, "one slot in use");
        auto out = table.Add(a, fixed(2.25), 9000, 2, 0.001);
        // Elements are read only after their count is right: the runner may
        // go on after a failed check (--continue-on-failure).
        NS_TEST_EXPECT_MSG_EQ(out.size(), 1, "second completes");
        if (out.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ((out[0].cause == FpgaEviction::COMPLETION), true, "completion");
            NS_TEST_EXPECT_MSG_EQ(WanContribution::FromFixed(out[0].sum), 3.75, "exact sum");
            NS_TEST_EXPECT_MSG_EQ(out[0].contributions, 2, "two contributions");
            NS_TEST_EXPECT_MSG_EQ(out[0].bytes, 9000, "one chunk's size");
        }
        NS_TEST_EXPECT_MSG_EQ(table.GetOccupancy(), 0, "slot freed");

        // Timeout: one of three contributions, 5 ms lifetime from its arrival.
        FpgaChunkId b{3, 1, 43};
        table.Add(b, 7.0, 9000, 3, 0.010);
        bool scheduled = table.GetNextExpiry() <= 0.015;
        NS_TEST_EXPECT_MSG_EQ(scheduled, true, "expiry scheduled");
        NS_TEST_EXPECT_MSG_EQ(table.Expire(0.0149).size(), 0, "not yet");
        out = table.Expire(0.015);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 1, "timed out");
        if (out.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ((out[0].cause == FpgaEviction::TIMEOUT), true, "timeout");
            NS_TEST_EXPECT_MSG_EQ(out[0].sum, 7.0, "partial sum");
            NS_TEST_EXPECT_MSG_EQ(out[0].contributions, 1, "one contribution");
        }
        // The completed slot's old expiry (at 5 ms) must not evict anything later.
        NS_TEST_EXPECT_MSG_EQ(table.Expire(1.0).size(), 0, "stale expiries ignored");

        // Conflict: a second chunk hashing to an occupied slot evicts it.
        auto [c, d] = CollidingChunks(table);
        NS_TEST_EXPECT_MSG_EQ(table.SlotOf(c), table.SlotOf(d), "same slot");
        table.Add(c, 1.0, 9000, 2, 2.0);
        out = table.Add(d, 10.0, 9000, 2, 2.0);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 1, "occupant forwarded");
        if (out.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ((out[0].cause == FpgaEviction::CONFLICT), true, "conflict");
            NS_TEST_EXPECT_MSG_EQ((out[0].id == c), true, "the occupant leaves");
            NS_TEST_EXPECT_MSG_EQ(out[0].sum, 1.0, "with its partial sum");
        }
        NS_TEST_EXPECT_MSG_EQ(table.GetOccupancy(), 1, "the newcomer stays");
        out = table.Flush();
        NS_TEST_EXPECT_MSG_EQ(out.size(), 1, "flush empties");
        if (out.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ(out[0].sum, 10.0, "the newcomer's sum");
        }

        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::COMPLETION), 1, "count");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::TIMEOUT), 1, "count");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::CONFLICT), 1, "count");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::FLUSH), 1, "count");
        NS_TEST_EXPECT_MSG_EQ(table.GetPeakOccupancy(), 1, "never two at once");
        NS_TEST_EXPECT_MSG_EQ(FpgaEvictionName(FpgaEviction::CONFLICT), "conflict", "names");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A stream's chunks take the slots in turn: in a 7-slot table
 * chunks 0 to 6 of one clique's round hold seven slots and chunk 7 shares
 * chunk 0's.  Two senders whose chunks arrive 3.78 us apart, more than
 * the 3.6 us between successive chunks (r_c = 20 Gbps), keep two chunks
 * open at once: none conflicts, every one completes.
 */
class SlotSuccessiveChunksTestCase : public WanTestCase
{
  public:
    SlotSuccessiveChunksTestCase()
        : WanTestCase("successive chunks of a stream never share a slot")
    {
    }

  private:
    void DoCheck() override
    {
        FpgaSlotTable table(7, 5e-6);
        for (uint32_t round : {1u, 2u})
        {
            for (uint32_t clique : {0u, 3u})
            {
                const uint64_t base = table.SlotOf({round, clique, 0});
                for (uint32_t c = 0; c < 20; ++c)
                {
                    NS_TEST_EXPECT_MSG_EQ(table.SlotOf({round, clique, c}),
                                          (base + c) % 7,
                                          "round " << round << ", clique " << clique << ", chunk "
                                                   << c);
                }
            }
        }
        const double chunk = 3.6e-6;
        const double skew = 3.78e-6;
        const uint32_t chunks = 200;
        std::vector<std::pair<double, uint32_t>> arrivals; // (time, chunk << 1 | sender)
        for (uint32_t c = 0; c < chunks; ++c)
        {
            arrivals.emplace_back(c * chunk, c << 1);
            arrivals.emplace_back(c * chunk + skew, c << 1 | 1);
        }
        std::sort(arrivals.begin(), arrivals.end());
        uint64_t peak = 0;
        for (const auto& [t, key] : arrivals)
        {
            table.Expire(t);
            table.Add({1, 0, key >> 1}, 1, 9000, 2, t, WanSourceSet::Of(key & 1));
            peak = std::max(peak, table.GetOccupancy());
        }
        NS_TEST_EXPECT_MSG_EQ(peak, 2, "chunks k and k + 1 open at once");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::CONFLICT), 0, "no conflict");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::TIMEOUT), 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::COMPLETION), chunks, "all whole");
        // The line-rate table of an FPGA without memory: 100 Gbps for 5 us
        // is 62500 bytes, seven 9000-byte slots; at least one.
        NS_TEST_EXPECT_MSG_EQ(FpgaSlotTable::LineRateSlots(100e9, 5e-6, 9000), 7, "7 slots");
        NS_TEST_EXPECT_MSG_EQ(FpgaSlotTable::LineRateSlots(10e9, 5e-6, 9000), 1, "6250 bytes");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief With a tiny table, conflicts are frequent, yet the island's sum of
 * partial sums is exact and every contribution is counted once.
 */
class SlotExactSumTestCase : public WanTestCase
{
  public:
    SlotExactSumTestCase()
        : WanTestCase("forced conflicts still yield the exact sum")
    {
    }

  private:
    void DoCheck() override
    {
        const uint32_t senders = 3;
        const uint32_t chunks = 200;

        struct Arrival
        {
            uint32_t sender;
            uint32_t chunk;
        };

        std::vector<Arrival> arrivals;
        for (uint32_t s = 0; s < senders; ++s)
        {
            for (uint32_t c = 0; c < chunks; ++c)
            {
                arrivals.push_back({s, c});
            }
        }
        std::mt19937 rng(12345);
        std::shuffle(arrivals.begin(), arrivals.end(), rng);
        // Contribution of sender s to chunk c: (s + 1) * 1000 + c, exact in binary.
        auto value = [](uint32_t s, uint32_t c) { return (s + 1) * 1000.0 + c; };

        for (uint64_t slots : {1, 4, 64, 100000})
        {
            FpgaSlotTable table(slots, 1.0);
            std::map<uint32_t, double> sum;
            std::map<uint32_t, uint32_t> count;
            auto collect = [&](const std::vector<FpgaPartialSum>& out) {
                for (const auto& p : out)
                {
                    sum[p.id.chunk] += p.sum;
                    count[p.id.chunk] += p.contributions;
                }
            };
            double now = 0;
            for (const auto& a : arrivals)
            {
                now += 1e-6;
                collect(table.Add({7, 0, a.chunk}, value(a.sender, a.chunk), 9000, senders, now));
            }
            collect(table.Flush());
            for (uint32_t c = 0; c < chunks; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(sum[c], 6000.0 + 3 * c, slots << " slots: exact sum");
                NS_TEST_EXPECT_MSG_EQ(count[c], senders, slots << " slots: each counted once");
            }
            uint64_t forwarded = table.GetEvictions(FpgaEviction::COMPLETION) +
                                 table.GetEvictions(FpgaEviction::CONFLICT) +
                                 table.GetEvictions(FpgaEviction::FLUSH);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(forwarded, chunks, "at least one sum per chunk");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(table.GetPeakOccupancy(), slots, "within the table");
            if (slots == 1)
            {
                NS_TEST_EXPECT_MSG_GT(table.GetEvictions(FpgaEviction::CONFLICT), 0, "conflicts");
            }
            if (slots == 100000)
            {
                NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::COMPLETION),
                                      chunks,
                                      "a roomy table completes every chunk");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A chunk split by a conflict completes when the rest is in, instead
 * of waiting for its timeout; without memory it waits.
 */
class SlotSplitChunkTestCase : public WanTestCase
{
  public:
    SlotSplitChunkTestCase()
        : WanTestCase("a chunk split by a conflict completes with the rest")
    {
    }

  private:
    void DoCheck() override
    {
        for (uint32_t memory : {4096u, 0u})
        {
            FpgaSlotTable table(16, 1.0, memory);
            auto [c, d] = CollidingChunks(table);
            table.Add(c, 1.0, 9000, 2, 0.0);
            table.Add(d, 5.0, 9000, 2, 0.0);            // evicts c with one of two
            auto out = table.Add(c, 2.0, 9000, 2, 0.0); // evicts d
            NS_TEST_EXPECT_MSG_GT_OR_EQ(out.size(), 1, "d leaves");
            if (!out.empty())
            {
                NS_TEST_EXPECT_MSG_EQ((out[0].id == d), true, "conflict victim first");
            }
            if (memory > 0)
            {
                NS_TEST_EXPECT_MSG_EQ(out.size(), 2, "and c's rest completes");
                if (out.size() == 2)
                {
                    NS_TEST_EXPECT_MSG_EQ((out[1].cause == FpgaEviction::COMPLETION),
                                          true,
                                          "cause");
                    NS_TEST_EXPECT_MSG_EQ(out[1].sum, 2.0, "the second half");
                    NS_TEST_EXPECT_MSG_EQ(out[1].contributions, 1, "one contribution");
                }
                NS_TEST_EXPECT_MSG_EQ(table.GetOccupancy(), 0, "nothing left waiting");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(out.size(), 1, "c's rest waits");
                NS_TEST_EXPECT_MSG_EQ(table.Expire(1.0).size(), 1, "until its timeout");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A clique of 70 (the FPGA's island at position 5, 69 contributions
 * per chunk): sums name senders on both sides of the 32 and 64 boundaries
 * and complete at exactly the 69th contribution; a conflict splits a chunk
 * into two sums whose senders are disjoint and together complete.
 */
class SlotWideCliqueTestCase : public WanTestCase
{
  public:
    SlotWideCliqueTestCase()
        : WanTestCase("a clique of 70: sources past 32 and 64, completion at the 69th")
    {
    }

  private:
    void DoCheck() override
    {
        const uint32_t expected = 69;
        FpgaSlotTable table(100000, 1.0);
        // Four senders merge into one slot; the flushed sum names them.
        const FpgaChunkId a{0, 0, 1};
        for (uint32_t p : {0u, 33u, 63u, 69u})
        {
            auto out = table.Add(a, p + 1, 9000, expected, 0, WanSourceSet::Of(p));
            NS_TEST_EXPECT_MSG_EQ(out.size(), 0, "waits for 69");
        }
        auto flushed = table.Flush();
        NS_TEST_ASSERT_MSG_EQ(flushed.size(), 1, "one slot");
        NS_TEST_EXPECT_MSG_EQ(flushed[0].sum, 169, "1 + 34 + 64 + 70");
        NS_TEST_EXPECT_MSG_EQ(flushed[0].contributions, 4, "four");
        NS_TEST_EXPECT_MSG_EQ((flushed[0].sources == WanSourceSet::FromPositions({0, 33, 63, 69})),
                              true,
                              "0, 33, 63 and 69 named");

        // Every peer, from 69 down to 0: complete at the 69th, not before.
        const FpgaChunkId b{0, 0, 2};
        uint32_t added = 0;
        std::vector<FpgaPartialSum> out;
        for (uint32_t p = 70; p-- > 0;)
        {
            if (p == 5)
            {
                continue;
            }
            out = table.Add(b, p + 1, 9000, expected, 0, WanSourceSet::Of(p));
            ++added;
            if (added < expected)
            {
                NS_TEST_EXPECT_MSG_EQ(out.size(), 0, "incomplete after " << added);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "complete at the 69th");
        NS_TEST_EXPECT_MSG_EQ((out[0].cause == FpgaEviction::COMPLETION), true, "completion");
        NS_TEST_EXPECT_MSG_EQ(out[0].contributions, 69, "69 contributions");
        NS_TEST_EXPECT_MSG_EQ(out[0].sum, 2479, "1 + ... + 70 - 6");
        NS_TEST_EXPECT_MSG_EQ(out[0].sources.Count(), 69, "69 senders named");
        NS_TEST_EXPECT_MSG_EQ(out[0].sources.Test(5), false, "not its own island");
        NS_TEST_EXPECT_MSG_EQ(out[0].sources.GetSpan(), 70, "up to 69");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::COMPLETION), 1, "one completion");

        // A conflict splits c = {0, 33} + {63, 69}; the rest completes.
        FpgaSlotTable small(16, 1.0);
        auto [c, d] = CollidingChunks(small);
        small.Add(c, 1, 9000, 4, 0, WanSourceSet::Of(0));
        small.Add(c, 34, 9000, 4, 0, WanSourceSet::Of(33));
        auto first = small.Add(d, 65, 9000, 4, 0, WanSourceSet::Of(64));
        small.Add(c, 64, 9000, 4, 0, WanSourceSet::Of(63)); // evicts d
        auto rest = small.Add(c, 70, 9000, 4, 0, WanSourceSet::Of(69));
        NS_TEST_ASSERT_MSG_EQ(first.size(), 1, "c's first part leaves");
        NS_TEST_ASSERT_MSG_EQ(rest.size(), 1, "c's rest completes");
        NS_TEST_EXPECT_MSG_EQ((first[0].sources == WanSourceSet::FromPositions({0, 33})),
                              true,
                              "first part");
        NS_TEST_EXPECT_MSG_EQ((rest[0].sources == WanSourceSet::FromPositions({63, 69})),
                              true,
                              "the rest");
        NS_TEST_EXPECT_MSG_EQ(first[0].sources.Intersects(rest[0].sources), false, "disjoint");
        NS_TEST_EXPECT_MSG_EQ(first[0].sum + rest[0].sum, 169, "exact together");

        // The adder wraps, as the FPGA's integers do: an overflowing sum
        // still gives back each part exactly.
        const FpgaChunkId e{0, 0, 3};
        const int64_t big = std::numeric_limits<int64_t>::max();
        table.Add(e, big, 9000, 2, 0, WanSourceSet::Of(0));
        out = table.Add(e, 2, 9000, 2, 0, WanSourceSet::Of(1));
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "complete");
        NS_TEST_EXPECT_MSG_EQ(out[0].sum, std::numeric_limits<int64_t>::min() + 1, "wrapped");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::Subtract(out[0].sum, 2), big, "and back");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Parity symbols are summed word by word with wrap-around, also when
 * a conflict splits the chunk: the partial sums add back to the parity of
 * the summed data (the code commutes with the FPGA's addition).
 */
class SlotParitySymbolTestCase : public WanTestCase
{
  public:
    SlotParitySymbolTestCase()
        : WanTestCase("parity symbols summed word by word, exactly, across a conflict")
    {
    }

  private:
    void DoCheck() override
    {
        const WanParityCode code(4, 4, 2);
        // Sender s's value of chunk c: s x 2^62 + c - 2 (wraps when summed).
        auto value = [](uint32_t s, uint32_t c) {
            return static_cast<int64_t>((uint64_t{s} << 62) + c - uint64_t{2}); // modulo 2^64
        };
        const FpgaChunkId parity{1, 0, WanParityCode::PARITY_FLAG | 1};
        WanGaloisRing::Element expected = WanGaloisRing::Zero();
        for (uint32_t s = 0; s < 3; ++s)
        {
            expected = WanGaloisRing::Add(expected,
                                          code.Encode(1, [&](uint32_t c) { return value(s, c); }));
        }
        // The parity of the merged chunks.
        const auto merged = code.Encode(1, [&](uint32_t c) {
            return WanContribution::Add(WanContribution::Add(value(0, c), value(1, c)),
                                        value(2, c));
        });
        NS_TEST_EXPECT_MSG_EQ((merged == expected), true, "sum of encodings, encoding of the sum");
        NS_TEST_EXPECT_MSG_EQ((expected[1] != 0 && expected[7] != 0), true, "a full symbol");

        FpgaSlotTable table(1, 1.0); // one slot: any other chunk conflicts
        WanGaloisRing::Element got = WanGaloisRing::Zero();
        auto collect = [&](const std::vector<FpgaPartialSum>& out) {
            for (const auto& o : out)
            {
                if (o.id == parity)
                {
                    got = WanGaloisRing::Add(
                        got,
                        WanGaloisRing::Join(static_cast<uint64_t>(o.sum), o.upper));
                }
            }
        };
        for (uint32_t s = 0; s < 3; ++s)
        {
            const auto e = code.Encode(1, [&](uint32_t c) { return value(s, c); });
            WanGaloisRing::Upper upper{};
            std::copy(e.begin() + 1, e.end(), upper.begin());
            collect(table.Add(parity,
                              static_cast<int64_t>(e[0]),
                              100,
                              3,
                              0,
                              WanSourceSet::Of(s),
                              upper));
            if (s == 0)
            {
                // Another chunk takes the slot: sender 0's parity leaves alone.
                collect(table.Add(FpgaChunkId{1, 0, 7}, 1, 100, 3, 0));
            }
        }
        collect(table.Flush());
        NS_TEST_EXPECT_MSG_EQ((got == expected), true, "every word, exactly");
        NS_TEST_EXPECT_MSG_EQ(table.GetEvictions(FpgaEviction::CONFLICT), 2, "split twice");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible table parameters are refused.
 */
class SlotBadInputTestCase : public WanTestCase
{
  public:
    SlotBadInputTestCase()
        : WanTestCase("impossible slot table parameters")
    {
    }

  private:
    void DoCheck() override
    {
        std::string e = ErrorOf([] { FpgaSlotTable(0, 1.0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "at least one slot"), true, e);
        e = ErrorOf([] { FpgaSlotTable(10, 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "timeout must be positive"), true, e);
        e = ErrorOf([] { FpgaSlotTable(10, 1).Add({0, 0, 0}, 1, 1, 0, 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "at least one contribution"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-slot-table test suite.
 */
class FpgaSlotTableTestSuite : public TestSuite
{
  public:
    FpgaSlotTableTestSuite()
        : TestSuite("wan-training-slot-table", Type::UNIT)
    {
        AddTestCase(new SlotEvictionTestCase);
        AddTestCase(new SlotSuccessiveChunksTestCase);
        AddTestCase(new SlotExactSumTestCase);
        AddTestCase(new SlotSplitChunkTestCase);
        AddTestCase(new SlotWideCliqueTestCase);
        AddTestCase(new SlotParitySymbolTestCase);
        AddTestCase(new SlotBadInputTestCase);
    }
};

/// The suite's instance.
static FpgaSlotTableTestSuite g_fpgaSlotTableTestSuite;
