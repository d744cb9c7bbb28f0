/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_TEXT_H
#define WAN_TRAINING_TEXT_H

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{
/**
 * \ingroup wan-training
 * \brief Text helpers shared by the module's file readers (internal).
 */
namespace wantext
{

/**
 * \param value a number
 * \return the number printed with up to 6 significant digits
 */
std::string Num(double value);

/**
 * \param value a number
 * \param what what it is, for the error message ("payload")
 * \param unit its unit, for the error message ("bytes"; may be empty)
 * \return the value; throws std::invalid_argument unless finite and > 0
 */
double RequirePositive(double value, const std::string& what, const std::string& unit = "");

/**
 * \param value a number
 * \param minimum its least allowed value
 * \param what what it is, for the error message ("scale")
 * \return the value; throws std::invalid_argument unless finite and >= minimum
 */
double RequireAtLeast(double value, double minimum, const std::string& what);

/**
 * \param path a file
 * \param what what the file is, for the error message ("topology file")
 * \return its whole content; throws std::invalid_argument if unreadable
 */
std::string ReadFile(const std::string& path, const std::string& what);

/**
 * \param text a JSON document
 * \param what what it describes, for the error message ("topology")
 * \return the parsed document; throws std::invalid_argument naming the
 *         parse error
 */
nlohmann::json ParseJson(const std::string& text, const std::string& what);

/**
 * \param value a number
 * \param digits decimals
 * \return fixed-point text, or "-" when the number is not finite
 */
std::string Fixed(double value, int digits);

/**
 * \param cell text of a CSV cell
 * \return the cell, quoted when it holds a comma or a quote
 */
std::string CsvCell(const std::string& cell);

/**
 * \param value a number
 * \return the number for JSON, or null when it is not finite
 */
nlohmann::json JsonNumber(double value);

/**
 * \param path a file name
 * \param ext an extension such as ".csv"
 * \return true when the name is longer than the extension and ends with it
 */
bool EndsWith(const std::string& path, const std::string& ext);

/**
 * \brief Writes a text file; throws std::invalid_argument naming the file
 * when it cannot.
 * \param path the file
 * \param text its contents
 */
void WriteFile(const std::string& path, const std::string& text);

/**
 * \brief A small CSV table with a header row: comma-separated, no quoting,
 * blank lines and lines starting with '#' skipped, cells trimmed.
 *
 * Every error names the file, the row and the column.
 */
class CsvTable
{
  public:
    /**
     * \param name the file's name, for error messages
     * \param text the file's content
     * \param required columns that must be in the header
     */
    CsvTable(const std::string& name,
             const std::string& text,
             const std::vector<std::string>& required);

    /** \return the number of data rows */
    size_t Rows() const;
    /**
     * \param column a column name
     * \return true if the header has it
     */
    bool Has(const std::string& column) const;
    /**
     * \param row data row index
     * \param column column name
     * \return the non-empty cell text; throws std::invalid_argument if empty
     */
    std::string Text(size_t row, const std::string& column) const;
    /**
     * \param row data row index
     * \param column column name
     * \return the cell as a number; throws std::invalid_argument if it is
     *         missing or not a number
     */
    double Number(size_t row, const std::string& column) const;

    /**
     * \param row data row index
     * \param column an optional column
     * \param fallback value when the column is absent or the cell empty
     * \return the cell text or the fallback
     */
    std::string TextOr(size_t row, const std::string& column, const std::string& fallback) const;
    /**
     * \param row data row index
     * \param column an optional column
     * \param fallback value when the column is absent or the cell empty
     * \return the cell as a number or the fallback; throws if not a number
     */
    double NumberOr(size_t row, const std::string& column, double fallback) const;

  private:
    /// \return true when the column is absent or the row's cell is empty
    bool Blank(size_t row, const std::string& column) const;
    /// \return "<name> line <n>" for a data row
    std::string Where(size_t row) const;

    std::string m_name;                           //!< file name
    std::map<std::string, size_t> m_columns;      //!< header: column -> index
    std::vector<std::vector<std::string>> m_rows; //!< data cells
    std::vector<size_t> m_lines;                  //!< source line of each row
};

} // namespace wantext
} // namespace ns3

#endif /* WAN_TRAINING_TEXT_H */
