/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer's entry points over the module's fuzz targets (wan-fuzz-targets.h).
// Built by scripts/fuzz.sh with clang's -fsanitize=fuzzer, not by the ns-3
// build.  The target is named by the environment variable WAN_FUZZ_TARGET; an
// input that breaks the refusal contract aborts with what it did, so that
// libFuzzer keeps it as a crash.

#include "wan-fuzz-targets.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace
{
/// The target of this run
const ns3::wanfuzz::Target* g_target = nullptr;
} // namespace

extern "C" int
LLVMFuzzerInitialize(int* /* argc */, char*** /* argv */)
{
    const char* name = std::getenv("WAN_FUZZ_TARGET");
    g_target = name == nullptr ? nullptr : ns3::wanfuzz::Find(name);
    if (g_target == nullptr)
    {
        std::fprintf(stderr, "wan-fuzz: set WAN_FUZZ_TARGET to one of:");
        for (const auto& t : ns3::wanfuzz::Targets())
        {
            std::fprintf(stderr, " %s", t.name.c_str());
        }
        std::fprintf(stderr, "\n");
        std::exit(2);
    }
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto outcome = ns3::wanfuzz::Run(*g_target, data, size);
    if (!outcome.finding.empty())
    {
        std::fprintf(stderr, "wan-fuzz: %s: %s\n", g_target->name.c_str(), outcome.finding.c_str());
        std::abort();
    }
    return 0;
}
