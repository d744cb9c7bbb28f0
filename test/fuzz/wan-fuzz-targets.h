/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_FUZZ_TARGETS_H
#define WAN_FUZZ_TARGETS_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{
/**
 * @ingroup wan-training-tests
 * @brief The module's readers of outside input as fuzz targets: each takes
 * arbitrary bytes and either accepts them or refuses them with one clear
 * line.  Run by libFuzzer (test/fuzz/wan-fuzz-main.cc, scripts/fuzz.sh) and,
 * over the corpus kept in test/fuzz/corpus, by the suite
 * wan-training-fuzz-corpus.
 */
namespace wanfuzz
{

/// What one input did to a target
struct Outcome
{
    bool accepted{false}; //!< the reader took the input
    std::string refusal;  //!< why it refused (when not accepted and no finding)
    std::string finding;  //!< a broken contract: anything else than the two above
};

/// One reader under test
struct Target
{
    std::string name; //!< its corpus folder, e.g. "topology-json"
    std::string what; //!< what it reads, for listings
    /// reads the input: returns when accepted, throws std::invalid_argument
    /// to refuse; anything else is a finding
    std::function<void(const std::string&)> read;
};

/// @return every target, in a fixed order
const std::vector<Target>& Targets();

/**
 * @param name a target's name
 * @return the target; nullptr when there is none of that name
 */
const Target* Find(const std::string& name);

/**
 * @brief Runs one input through a target and checks the contract: accepted,
 * or refused by std::invalid_argument whose message is one non-empty line of
 * at most kLongestRefusal characters.  Anything else (another exception, an
 * empty, multi-line or overlong message) is a finding.  Crashes, sanitizer
 * reports and hangs are the fuzzer's to see.
 * @param target the target
 * @param data the input
 * @param size its length
 * @return the outcome
 */
Outcome Run(const Target& target, const uint8_t* data, std::size_t size);

/// The longest refusal that still reads as one line
constexpr std::size_t kLongestRefusal = 400;

} // namespace wanfuzz
} // namespace ns3

#endif /* WAN_FUZZ_TARGETS_H */
