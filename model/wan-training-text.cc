/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-text.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace wantext
{

namespace
{

std::string
Trim(const std::string& s)
{
    const char* space = " \t\r\n";
    auto first = s.find_first_not_of(space);
    if (first == std::string::npos)
    {
        return "";
    }
    auto last = s.find_last_not_of(space);
    return s.substr(first, last - first + 1);
}

std::vector<std::string>
SplitCells(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ','))
    {
        cells.push_back(Trim(cell));
    }
    if (!line.empty() && line.back() == ',')
    {
        cells.emplace_back();
    }
    return cells;
}

/// @return true when the whole text (blanks aside) is one finite number, put in value
bool
ToNumber(const std::string& text, double& value)
{
    const std::string t = Trim(text);
    char* end = nullptr;
    value = std::strtod(t.c_str(), &end);
    return !t.empty() && end == t.c_str() + t.size() && std::isfinite(value);
}

} // namespace

std::vector<std::string>
SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
    {
        item = Trim(item);
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

std::string
Join(const std::vector<std::string>& items, const std::string& separator)
{
    std::string text;
    for (size_t i = 0; i < items.size(); ++i)
    {
        text += (i > 0 ? separator : "") + items[i];
    }
    return text;
}

std::string
JoinOr(const std::vector<std::string>& items)
{
    if (items.size() < 2)
    {
        return Join(items, "");
    }
    return Join({items.begin(), items.end() - 1}, ", ") + " or " + items.back();
}

double
ParseNumber(const std::string& text, const std::string& what)
{
    double value = 0;
    if (!ToNumber(text, value))
    {
        throw std::invalid_argument(what + ": '" + Printable(text) + "' is not a number");
    }
    return value;
}

std::vector<double>
ParseNumbers(const std::string& text, const std::string& what)
{
    std::vector<double> values;
    for (const auto& item : SplitList(text))
    {
        values.push_back(ParseNumber(item, what));
    }
    if (values.empty())
    {
        throw std::invalid_argument(what + " is empty");
    }
    return values;
}

std::string
Printable(const std::string& text, std::size_t longest)
{
    std::string out;
    for (const char ch : text)
    {
        const auto c = static_cast<unsigned char>(ch);
        std::string piece(1, ch);
        if (c == '\n' || c == '\t' || c == '\r')
        {
            piece = c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
        }
        else if (c < 0x20 || c == 0x7f)
        {
            const char* hex = "0123456789abcdef";
            piece = std::string("\\x") + hex[c >> 4] + hex[c & 15];
        }
        if (out.size() + piece.size() > longest)
        {
            return out + "...";
        }
        out += piece;
    }
    return out;
}

std::invalid_argument
OneLine(const std::invalid_argument& refusal)
{
    return std::invalid_argument(Printable(refusal.what(), kLongestMessage - 3));
}

std::string
StripBom(const std::string& text)
{
    const std::string bom = "\xEF\xBB\xBF";
    return text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text;
}

bool
Range::Contains(double value) const
{
    const bool aboveMin = minOpen ? value > min : value >= min;
    const bool belowMax = maxOpen ? value < max : value <= max;
    return aboveMin && belowMax; // false for NaN
}

std::string
Range::Text() const
{
    const std::string u = *unit ? std::string(" ") + unit : "";
    if (minOpen)
    {
        return "above " + Num(min) + (maxOpen ? " and below " : " and at most ") + Num(max) + u;
    }
    return "from " + Num(min) + (maxOpen ? " to less than " : " to ") + Num(max) + u;
}

double
Range::Check(double value, const std::string& what) const
{
    if (!Contains(value))
    {
        throw std::invalid_argument(what + " must be " + Text() + " (got " + Num(value) +
                                    (*unit ? std::string(" ") + unit : "") + ")");
    }
    return value;
}

std::string
Fixed(double value, int digits)
{
    if (!std::isfinite(value))
    {
        return "-";
    }
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

std::string
CsvCell(const std::string& cell)
{
    if (cell.find_first_of(",\"\n") == std::string::npos)
    {
        return cell;
    }
    std::string q = "\"";
    for (char c : cell)
    {
        q += (c == '"') ? std::string("\"\"") : std::string(1, c);
    }
    return q + "\"";
}

nlohmann::json
JsonNumber(double value)
{
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

bool
EndsWith(const std::string& path, const std::string& ext)
{
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

void
CheckOutputPath(const std::string& path, const std::string& what)
{
    if (!EndsWith(path, ".csv") && !EndsWith(path, ".json"))
    {
        throw std::invalid_argument(what + " '" + Printable(path) + "' must end in .csv or .json");
    }
}

void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path);
    if (!out || !(out << text) || !out.flush())
    {
        throw std::invalid_argument("cannot write output file '" + Printable(path) + "'");
    }
}

double
RequirePositive(double value, const std::string& what, const std::string& unit)
{
    if (!std::isfinite(value) || value <= 0)
    {
        throw std::invalid_argument(what + " must be positive (got " + Num(value) +
                                    (unit.empty() ? "" : " " + unit) + ")");
    }
    return value;
}

double
RequireAtLeast(double value, double minimum, const std::string& what)
{
    if (!std::isfinite(value) || value < minimum)
    {
        throw std::invalid_argument(what + " must be at least " + Num(minimum) + " (got " +
                                    Num(value) + ")");
    }
    return value;
}

std::string
ReadFile(const std::string& path, const std::string& what)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::invalid_argument("cannot open " + what + " '" + Printable(path) + "'");
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

nlohmann::json
ParseJson(const std::string& text, const std::string& what)
{
    try
    {
        return nlohmann::json::parse(StripBom(text));
    }
    catch (const nlohmann::json::exception& e)
    {
        // A syntax error, or a number too large for a double (1e309).
        throw std::invalid_argument(what + " JSON does not parse: " + Printable(e.what(), 200));
    }
}

std::string
Num(double value, int digits)
{
    std::ostringstream s;
    s << std::setprecision(digits) << value;
    return s.str();
}

CsvTable::CsvTable(const std::string& name,
                   const std::string& text,
                   const std::vector<std::string>& required)
    : m_name(name)
{
    std::stringstream in(StripBom(text));
    std::string line;
    size_t lineNo = 0;
    bool header = true;
    while (std::getline(in, line))
    {
        ++lineNo;
        std::string t = Trim(line);
        if (t.empty() || t[0] == '#')
        {
            continue;
        }
        auto cells = SplitCells(t);
        if (header)
        {
            for (size_t i = 0; i < cells.size(); ++i)
            {
                m_columns[cells[i]] = i;
            }
            header = false;
            continue;
        }
        m_rows.push_back(cells);
        m_lines.push_back(lineNo);
    }
    if (header)
    {
        throw std::invalid_argument(m_name + " is empty (no header row)");
    }
    for (const auto& column : required)
    {
        if (!Has(column))
        {
            throw std::invalid_argument(m_name + " has no column '" + Printable(column) + "'");
        }
    }
}

size_t
CsvTable::Rows() const
{
    return m_rows.size();
}

bool
CsvTable::Has(const std::string& column) const
{
    return m_columns.count(column) > 0;
}

std::string
CsvTable::Where(size_t row) const
{
    return m_name + " line " + std::to_string(m_lines.at(row));
}

std::string
CsvTable::Text(size_t row, const std::string& column) const
{
    auto it = m_columns.find(column);
    if (it == m_columns.end())
    {
        throw std::invalid_argument(m_name + " has no column '" + Printable(column) + "'");
    }
    const auto& cells = m_rows.at(row);
    if (it->second >= cells.size() || cells[it->second].empty())
    {
        throw std::invalid_argument(Where(row) + ": missing " + column);
    }
    return cells[it->second];
}

double
CsvTable::Number(size_t row, const std::string& column) const
{
    std::string cell = Text(row, column);
    double value = 0;
    if (!ToNumber(cell, value))
    {
        throw std::invalid_argument(Where(row) + ": " + column + " '" + Printable(cell) +
                                    "' is not a number");
    }
    return value;
}

double
CsvTable::Number(size_t row, const std::string& column, const Range& range) const
{
    return range.Check(Number(row, column), Where(row) + ": " + column);
}

double
CsvTable::NumberOr(size_t row, const std::string& column, double fallback, const Range& range) const
{
    return Blank(row, column) ? fallback : Number(row, column, range);
}

bool
CsvTable::Blank(size_t row, const std::string& column) const
{
    auto it = m_columns.find(column);
    const auto& cells = m_rows.at(row);
    return it == m_columns.end() || it->second >= cells.size() || cells[it->second].empty();
}

std::string
CsvTable::TextOr(size_t row, const std::string& column, const std::string& fallback) const
{
    return Blank(row, column) ? fallback : Text(row, column);
}

double
CsvTable::NumberOr(size_t row, const std::string& column, double fallback) const
{
    return Blank(row, column) ? fallback : Number(row, column);
}

} // namespace wantext
} // namespace ns3
