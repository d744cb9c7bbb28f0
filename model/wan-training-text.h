/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_TEXT_H
#define WAN_TRAINING_TEXT_H

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
/**
 * @ingroup wan-training
 * @brief Text helpers shared by the module's file readers and its programs
 * (internal): number and list parsing, the ranges of input numbers, CSV and
 * JSON input, number formatting.
 */
namespace wantext
{

/**
 * @param text a comma list such as "a, b,c"
 * @return its items, trimmed; empty items are dropped
 */
std::vector<std::string> SplitList(const std::string& text);

/**
 * @param items some texts
 * @param separator what goes between two items
 * @return the items joined, e.g. "pairs, regional" with separator ", "
 */
std::string Join(const std::vector<std::string>& items, const std::string& separator);

/**
 * @param items some names
 * @return them as a choice, e.g. "ring, grid, geometric or chain" (for messages)
 */
std::string JoinOr(const std::vector<std::string>& items);

/**
 * @param text one number, e.g. "1e9" (surrounding blanks allowed)
 * @param what what it is, for the error message ("--hbmGB")
 * @return the number; throws std::invalid_argument naming `what` unless the
 *         whole text is one finite number
 */
double ParseNumber(const std::string& text, const std::string& what);

/**
 * @param text a comma list of numbers, e.g. "0,8,32"
 * @param what what it is, for the error message ("--hbmGB")
 * @return the numbers; throws std::invalid_argument naming `what` if the list
 *         is empty or an item is not a number
 */
std::vector<double> ParseNumbers(const std::string& text, const std::string& what);

/**
 * @param text text from a file or an option, to be quoted in a message
 * @param longest the most characters it may take in the message
 * @return the text on one line: control characters written as \n, \t, \r or
 *         \xNN, and cut with "..." where it would take more than `longest`
 *         characters (an input's refusal is one line, whatever the input holds)
 */
std::string Printable(const std::string& text, std::size_t longest = 80);

/// The most characters of a refusal's message (OneLine)
inline constexpr std::size_t kLongestMessage = 400;

/**
 * @param refusal a reader's refusal
 * @return the same refusal as one line of at most kLongestMessage
 *         characters (Printable): what a file reader throws at its boundary,
 *         whatever names from the file its message quotes
 */
std::invalid_argument OneLine(const std::invalid_argument& refusal);

/**
 * @param text a file's content
 * @return the content without a leading UTF-8 byte-order mark (what
 *         spreadsheet exports write)
 */
std::string StripBom(const std::string& text);

/**
 * @brief The physical range of an input number, in the unit in which files
 * and program options write it.  The named ranges in wantext::bounds are the
 * one place where the module's input ranges are defined.
 */
struct Range
{
    double min;          //!< least allowed value (excluded when minOpen)
    double max;          //!< largest allowed value (excluded when maxOpen)
    const char* unit;    //!< unit for messages ("ms"; "" for a pure number)
    bool minOpen{false}; //!< the minimum itself is outside the range
    bool maxOpen{false}; //!< the maximum itself is outside the range

    /**
     * @param value a number
     * @return true when the number is in the range (never for NaN)
     */
    bool Contains(double value) const;
    /** @return the range as text, e.g. "from 0 to 1000 ms" */
    std::string Text() const;
    /**
     * @param value a number
     * @param what the field or option it comes from, for the message
     *        ("link NYC-LON: one_way_ms", "--hbmGB")
     * @return the value; throws std::invalid_argument "<what> must be <range>
     *         (got <value>)" when it is outside
     */
    double Check(double value, const std::string& what) const;
};

/**
 * @brief The ranges of the numbers that files and program options give,
 * in their units (documented in doc/wan-training.rst, "Input ranges").
 */
namespace bounds
{
inline constexpr Range kLatencyMs{0, 1000, "ms"};              //!< one-way latency of a core link
inline constexpr Range kRateGbps{0.001, 100000, "Gbps"};       //!< access rate, core capacity
inline constexpr Range kPayloadBytes{1, 1e12, "bytes"};        //!< model state D
inline constexpr Range kLossRate{0, 1, "", false, true};       //!< packet loss probability
inline constexpr Range kLossBurst{1, 1000, "packets"};         //!< mean packets per loss event
inline constexpr Range kJitterMs{0, 1000, "ms"};               //!< jitter standard deviation
inline constexpr Range kJitterCorrelationMs{0.001, 1e6, "ms"}; //!< jitter correlation time
inline constexpr Range kHbmGB{0, 1000, "GB"};                  //!< FPGA memory per receiver
inline constexpr Range kLineRateWindowUs{0.001, 100000, "us"}; //!< FPGA line-rate window
inline constexpr Range kFrameBytes{64, 65535, "bytes"};        //!< one packet on a link
inline constexpr Range kScale{1, 1e9, ""};                     //!< time-preserving scale
inline constexpr Range kLatitude{-90, 90, "degrees"};          //!< a city's latitude
inline constexpr Range kLongitude{-180, 180, "degrees"};       //!< a city's longitude
inline constexpr Range kComputeMs{0, 1e6, "ms", true};         //!< compute time per step
inline constexpr Range kStalenessMs{0, 1e6, "ms"};             //!< staleness tolerated
inline constexpr Range kForgetting{0, 1, "", true};            //!< forgetting discount rho
inline constexpr Range kShare{0, 1, ""};                       //!< one island's target share
inline constexpr Range kFaultSeconds{0, 1e6, "s"};             //!< the time of a fault
inline constexpr Range kRounds{0, 100000, "rounds"};           //!< rounds to run, a round number
inline constexpr Range kRoundGuard{0, 100, ""};                //!< share of T between round starts
inline constexpr Range kMaxRequests{1, 1000, "requests"};      //!< requests per missing chunk
inline constexpr Range kBfdIntervalMs{1, 10000, "ms"};  //!< BFD transmit and receive interval
inline constexpr Range kBfdMultiplier{1, 255, ""};      //!< BFD detect multiplier
inline constexpr Range kParityBlock{1, 255, "chunks"};  //!< data chunks per parity block
inline constexpr Range kCities{2, 1000, "cities"};      //!< synthetic topology size
inline constexpr Range kRegions{1, 1000, "regions"};    //!< synthetic topology regions
inline constexpr Range kPeriod{1, 100, "rounds"};       //!< optimizer's largest period
inline constexpr Range kCliqueSize{0, 1000, "islands"}; //!< optimizer's largest clique
inline constexpr Range kEvaluations{1, 1e9, "steps"};   //!< optimizer's annealing steps
inline constexpr Range kExhaustiveLimit{0, 1e12, "schedules"}; //!< optimizer's enumeration
inline constexpr Range kLocalSteps{1, 100000, "steps"};        //!< H, local steps per round
inline constexpr Range kStepComputeMs{0, 1e6, "ms"};           //!< C, compute time of a step
inline constexpr Range kStepSize{0, 10, "", true};             //!< eta, the local step size
inline constexpr Range kGradientNoise{0, 1e6, ""};             //!< the gradients' noise
inline constexpr Range kTargetShare{0, 1, "", true, true};     //!< target share of the gap
inline constexpr Range kCrossTcpFlows{0, 64, "connections"};   //!< TCP cross traffic per direction
} // namespace bounds

/**
 * @param value a number
 * @param digits significant digits at most
 * @return the number printed with up to that many significant digits
 */
std::string Num(double value, int digits = 6);

/**
 * @param value a number
 * @param what what it is, for the error message ("payload")
 * @param unit its unit, for the error message ("bytes"; may be empty)
 * @return the value; throws std::invalid_argument unless finite and > 0
 */
double RequirePositive(double value, const std::string& what, const std::string& unit = "");

/**
 * @param value a number
 * @param minimum its least allowed value
 * @param what what it is, for the error message ("scale")
 * @return the value; throws std::invalid_argument unless finite and >= minimum
 */
double RequireAtLeast(double value, double minimum, const std::string& what);

/**
 * @param path a file
 * @param what what the file is, for the error message ("topology file")
 * @return its whole content; throws std::invalid_argument if unreadable
 */
std::string ReadFile(const std::string& path, const std::string& what);

/**
 * @param text a JSON document
 * @param what what it describes, for the error message ("topology")
 * @return the parsed document; throws std::invalid_argument naming the
 *         parse error (or a number too large for a double)
 */
nlohmann::json ParseJson(const std::string& text, const std::string& what);

/**
 * @param value a number
 * @param digits decimals
 * @return fixed-point text, or "-" when the number is not finite
 */
std::string Fixed(double value, int digits);

/**
 * @param cell text of a CSV cell
 * @return the cell, quoted when it holds a comma or a quote
 */
std::string CsvCell(const std::string& cell);

/**
 * @param value a number
 * @return the number for JSON, or null when it is not finite
 */
nlohmann::json JsonNumber(double value);

/**
 * @param path a file name
 * @param ext an extension such as ".csv"
 * @return true when the name is longer than the extension and ends with it
 */
bool EndsWith(const std::string& path, const std::string& ext);

/**
 * @brief Checks that an output file's name says its format; throws
 * std::invalid_argument naming the file otherwise.
 * @param path a file name
 * @param what what the file is, for the message ("output file")
 */
void CheckOutputPath(const std::string& path, const std::string& what);

/**
 * @brief Writes a text file; throws std::invalid_argument naming the file
 * when it cannot.
 * @param path the file
 * @param text its contents
 */
void WriteFile(const std::string& path, const std::string& text);

/**
 * @brief A small CSV table with a header row: comma-separated, no quoting,
 * blank lines and lines starting with '#' skipped, cells trimmed, a leading
 * UTF-8 byte-order mark ignored.
 *
 * Every error names the file, the row and the column.
 */
class CsvTable
{
  public:
    /**
     * @param name the file's name, for error messages
     * @param text the file's content
     * @param required columns that must be in the header
     */
    CsvTable(const std::string& name,
             const std::string& text,
             const std::vector<std::string>& required);

    /** @return the number of data rows */
    size_t Rows() const;
    /**
     * @param column a column name
     * @return true if the header has it
     */
    bool Has(const std::string& column) const;
    /**
     * @param row data row index
     * @param column column name
     * @return the non-empty cell text; throws std::invalid_argument if empty
     */
    std::string Text(size_t row, const std::string& column) const;
    /**
     * @param row data row index
     * @param column column name
     * @return the cell as a number; throws std::invalid_argument if it is
     *         missing or not a number
     */
    double Number(size_t row, const std::string& column) const;

    /**
     * @param row data row index
     * @param column an optional column
     * @param fallback value when the column is absent or the cell empty
     * @return the cell text or the fallback
     */
    std::string TextOr(size_t row, const std::string& column, const std::string& fallback) const;
    /**
     * @param row data row index
     * @param column an optional column
     * @param fallback value when the column is absent or the cell empty
     * @return the cell as a number or the fallback; throws if not a number
     */
    double NumberOr(size_t row, const std::string& column, double fallback) const;
    /**
     * @param row data row index
     * @param column column name
     * @param range the column's range
     * @return the cell as a number; throws std::invalid_argument naming the
     *         file, line and column if it is missing, not a number or outside
     *         the range
     */
    double Number(size_t row, const std::string& column, const Range& range) const;
    /**
     * @param row data row index
     * @param column an optional column
     * @param fallback value when the column is absent or the cell empty
     *        (not checked)
     * @param range the column's range
     * @return the cell as a number or the fallback; throws if the cell is not
     *         a number or outside the range
     */
    double NumberOr(size_t row,
                    const std::string& column,
                    double fallback,
                    const Range& range) const;

  private:
    /// @return true when the column is absent or the row's cell is empty
    bool Blank(size_t row, const std::string& column) const;
    /// @return "<name> line <n>" for a data row
    std::string Where(size_t row) const;

    std::string m_name;                           //!< file name
    std::map<std::string, size_t> m_columns;      //!< header: column -> index
    std::vector<std::vector<std::string>> m_rows; //!< data cells
    std::vector<size_t> m_lines;                  //!< source line of each row
};

} // namespace wantext
} // namespace ns3

#endif /* WAN_TRAINING_TEXT_H */
