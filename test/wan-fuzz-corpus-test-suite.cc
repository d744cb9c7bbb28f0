/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz/wan-fuzz-targets.h"
#include "wan-training-test-utils.h"

#include "ns3/test.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// @return the corpus folder of a target (the build gives the corpus' path)
std::filesystem::path
CorpusOf(const std::string& target)
{
    return std::filesystem::path(WAN_TRAINING_FUZZ_CORPUS) / target;
}

/// @return the bytes of a file
std::string
Bytes(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// @return the files of a folder, sorted by name (none when it does not exist)
std::vector<std::filesystem::path>
Files(const std::filesystem::path& folder)
{
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(folder))
    {
        for (const auto& entry : std::filesystem::directory_iterator(folder))
        {
            if (entry.is_regular_file())
            {
                files.push_back(entry.path());
            }
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Every input of a target's corpus (test/fuzz/corpus/TARGET) through
 * the target: none breaks the refusal contract; those named valid-* are
 * accepted, those named refused-* refused (found-*: inputs the fuzzer once
 * found, any outcome but a finding).  Under scripts/sanitize.sh the same pass
 * runs under the sanitizers.
 */
class FuzzCorpusTestCase : public WanTestCase
{
  public:
    /// @param target the target whose corpus is read
    FuzzCorpusTestCase(const wanfuzz::Target& target)
        : WanTestCase("fuzz corpus of " + target.name + ": " + target.what),
          m_target(target)
    {
    }

  private:
    void DoCheck() override
    {
        const auto files = Files(CorpusOf(m_target.name));
        NS_TEST_ASSERT_MSG_GT(files.size(), 0, "no corpus in " << CorpusOf(m_target.name));
        uint32_t accepted = 0;
        uint32_t refused = 0;
        for (const auto& file : files)
        {
            const auto bytes = Bytes(file);
            const auto outcome = wanfuzz::Run(m_target,
                                              reinterpret_cast<const uint8_t*>(bytes.data()),
                                              bytes.size());
            const auto name = file.filename().string();
            NS_TEST_EXPECT_MSG_EQ(outcome.finding, "", name);
            if (name.rfind("valid-", 0) == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(outcome.accepted, true, name << ": " << outcome.refusal);
            }
            if (name.rfind("refused-", 0) == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(outcome.accepted, false, name << " accepted");
            }
            accepted += outcome.accepted ? 1 : 0;
            refused += outcome.refusal.empty() ? 0 : 1;
        }
        // A corpus that only refuses would fuzz the first check only.
        NS_TEST_EXPECT_MSG_GT(accepted, 0, "no valid input in the corpus");
        NS_TEST_EXPECT_MSG_GT(refused, 0, "no refused input in the corpus");
    }

    const wanfuzz::Target& m_target; //!< the target
};

/**
 * @ingroup wan-training-tests
 * @brief The contract check itself, on made-up readers: a one-line
 * std::invalid_argument is a refusal; a multi-line, empty or overlong one,
 * another exception or a non-exception is a finding.
 */
class FuzzContractTestCase : public WanTestCase
{
  public:
    FuzzContractTestCase()
        : WanTestCase("fuzz contract: what is a refusal and what a finding")
    {
    }

  private:
    /// @return the outcome of a reader on the input "x"
    static wanfuzz::Outcome Of(std::function<void(const std::string&)> read)
    {
        const wanfuzz::Target t{"made-up", "a made-up reader", std::move(read)};
        const uint8_t x = 'x';
        return wanfuzz::Run(t, &x, 1);
    }

    void DoCheck() override
    {
        const auto ok = Of([](const std::string& s) {
            if (s != "x")
            {
                throw std::invalid_argument("not the input");
            }
        });
        NS_TEST_EXPECT_MSG_EQ(ok.accepted, true, "returned: accepted");
        NS_TEST_EXPECT_MSG_EQ(ok.finding + ok.refusal, "", "nothing else");

        const auto no = Of([](const std::string&) { throw std::invalid_argument("bad x"); });
        NS_TEST_EXPECT_MSG_EQ(no.accepted, false, "refused");
        NS_TEST_EXPECT_MSG_EQ(no.refusal, "bad x", "the reason");
        NS_TEST_EXPECT_MSG_EQ(no.finding, "", "no finding");

        const auto lines = Of([](const std::string&) { throw std::invalid_argument("a\nb"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(lines.finding, "refusal not one line"), true, "two lines");
        const auto empty = Of([](const std::string&) { throw std::invalid_argument(""); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(empty.finding, "(0 characters)"), true, "empty");
        const auto longOne = Of([](const std::string&) {
            throw std::invalid_argument(std::string(wanfuzz::kLongestRefusal + 1, 'a'));
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(longOne.finding, "(401 characters)"), true, "overlong");
        const auto range = Of([](const std::string& s) { (void)s.at(5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(range.finding, "escaped"), true, "std::out_of_range");
        NS_TEST_EXPECT_MSG_EQ(range.accepted, false, "not accepted");
        const auto other = Of([](const std::string&) { throw 3; });
        NS_TEST_EXPECT_MSG_EQ(Mentions(other.finding, "not a std::exception"), true, "an int");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Suite of the fuzz targets' corpus.
 */
class WanFuzzCorpusTestSuite : public TestSuite
{
  public:
    WanFuzzCorpusTestSuite()
        : TestSuite("wan-training-fuzz-corpus", Type::UNIT)
    {
        AddTestCase(new FuzzContractTestCase);
        for (const auto& target : wanfuzz::Targets())
        {
            AddTestCase(new FuzzCorpusTestCase(target));
        }
    }
};

/// The suite's one instance.
static WanFuzzCorpusTestSuite g_wanFuzzCorpusTestSuite;
